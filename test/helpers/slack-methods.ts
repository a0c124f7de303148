/**
 * Every Slack Web API method the app calls, as Slack documents it: its rate tier, the arguments it
 * requires, the kinds of conversation id it takes and every error code its reference page lists.
 * The fake Slack answers from this table (an argument missing, a conversation of the wrong kind,
 * a call past its tier when a test asks for tiers) and refuses to answer with an error code the
 * page does not list, so a test cannot pass on a Slack kinder than the real one.
 *
 * Rows follow each method's page on docs.slack.dev (its `source`), as mirrored by
 * slack-ruby/slack-api-ref `docs.slack.dev/methods/<method>.json` at f4837c0 (2026-08-20): `tier`
 * is its `rate_limits`, `required` its required arguments (token aside), `errors` its error list.
 * Every method also exists in `@slack/web-api` 8.2 (`dist/methods.d.ts`); the table's test checks
 * both, and that the app calls no method outside the table.
 */

/**
 * The first letter of a conversation id: `C` a channel, `G` a private channel or group DM (older
 * ids), `D` a DM, `U`/`W` a person (which only some methods take, opening the app's DM with them).
 */
export type ConversationKind = 'C' | 'G' | 'D' | 'U' | 'W';

export interface SlackMethodRow {
  /**
   * Slack's rate tier: calls a minute per workspace (Tier 1: 1, 2: 20, 3: 50, 4: 100), or
   * `special` (chat.postMessage: about one a second per channel; no per-minute tier).
   */
  readonly tier: 1 | 2 | 3 | 4 | 'special';
  /**
   * The bot scopes the page names; where it names several (conversations.info, .open), any one of
   * them serves the conversations of its kind.
   */
  readonly scopes: readonly string[];
  /** Arguments the method requires, the token aside: without one Slack answers `invalid_arguments`. */
  readonly required: readonly string[];
  /**
   * The argument naming the conversation and the kinds of id it takes (first letters); any other
   * answers `channel_not_found`.
   */
  readonly channel?: { readonly arg: string; readonly kinds: string };
  /** Sessions of a thread in a DM or channel: without `thread_ts` Slack answers this code. */
  readonly threadRequired?: string;
  /** Every error code the page lists, space-separated (see {@link documentedErrors}). */
  readonly errors: string;
  /** The method's reference page. */
  readonly source: string;
  readonly note?: string;
}

/** Calls a minute per workspace of each tier. */
export const tierPerMinute = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;

/**
 * Errors any method may answer (docs.slack.dev/apis/web-api, "Common errors", and the auth and
 * transport errors each page repeats): the table's rows list only what their pages list.
 */
export const commonErrors: ReadonlySet<string> = new Set(
  `
  access_denied accesslimited account_inactive deprecated_endpoint ekm_access_denied
  enterprise_is_restricted fatal_error internal_error invalid_arg_name invalid_arguments
  invalid_array_arg invalid_auth invalid_charset invalid_form_data invalid_post_type
  method_deprecated missing_post_type missing_scope no_permission not_allowed_token_type
  not_authed org_login_required ratelimited request_timeout service_unavailable
  team_added_to_org token_expired token_revoked two_factor_setup_required unknown_method
  `
    .trim()
    .split(/\s+/),
);

export const slackMethods = {
  'agents.sessions.rename': {
    tier: 3,
    scopes: ['chat:write'],
    required: ['channel_id', 'title'],
    channel: { arg: 'channel_id', kinds: 'CGD' },
    threadRequired: 'thread_ts_required',
    errors: `
      channel_not_found feature_disabled internal_error invalid_name is_archived name_taken
      not_authorized session_not_found thread_ts_not_allowed thread_ts_required
    `,
    source: 'https://docs.slack.dev/reference/methods/agents.sessions.rename',
  },
  'agents.sessions.setStatus': {
    tier: 3,
    scopes: ['chat:write'],
    required: ['channel_id', 'status'],
    channel: { arg: 'channel_id', kinds: 'CGD' },
    threadRequired: 'thread_ts_required',
    errors: `
      channel_not_found feature_disabled internal_error invalid_status not_authorized
      thread_ts_not_allowed thread_ts_required user_not_found
    `,
    source: 'https://docs.slack.dev/reference/methods/agents.sessions.setStatus',
  },
  'assistant.threads.setStatus': {
    tier: 'special',
    scopes: ['chat:write'],
    required: ['channel_id', 'thread_ts', 'status'],
    channel: { arg: 'channel_id', kinds: 'D' },
    errors: `
      channel_not_found invalid_thread_ts reserved_username
    `,
    source: 'https://docs.slack.dev/reference/methods/assistant.threads.setStatus',
  },
  'assistant.threads.setSuggestedPrompts': {
    tier: 4,
    scopes: ['assistant:write'],
    required: ['channel_id', 'prompts'],
    channel: { arg: 'channel_id', kinds: 'D' },
    errors: `
      channel_not_found invalid_thread_ts message_not_found not_agent_app
    `,
    source: 'https://docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts',
  },
  'assistant.threads.setTitle': {
    tier: 4,
    scopes: ['assistant:write'],
    required: ['channel_id', 'thread_ts', 'title'],
    channel: { arg: 'channel_id', kinds: 'D' },
    errors: `
      channel_not_found invalid_thread_ts
    `,
    source: 'https://docs.slack.dev/reference/methods/assistant.threads.setTitle',
  },
  'auth.test': {
    tier: 'special',
    scopes: [],
    required: [],
    errors: `
      internal_error invalid_auth
    `,
    source: 'https://docs.slack.dev/reference/methods/auth.test',
  },
  'canvases.create': {
    tier: 2,
    scopes: ['canvases:write'],
    required: [],
    channel: { arg: 'channel_id', kinds: 'CG' },
    errors: `
      canvas_creation_failed canvas_disabled_user_team free_team_canvas_tab_already_exists
      free_teams_cannot_create_non_tabbed_canvases
      free_teams_cannot_create_standalone_canvases restricted_action
    `,
    source: 'https://docs.slack.dev/reference/methods/canvases.create',
    note: '`channel_id` is required for free teams.',
  },
  'canvases.edit': {
    tier: 3,
    scopes: ['canvases:write'],
    required: ['canvas_id', 'changes'],
    errors: `
      canvas_disabled_user_team canvas_editing_failed canvas_editing_locked canvas_not_found
      canvas_too_large free_teams_cannot_edit_standalone_canvases restricted_action
    `,
    source: 'https://docs.slack.dev/reference/methods/canvases.edit',
  },
  'chat.appendStream': {
    tier: 4,
    scopes: ['chat:write'],
    required: ['channel', 'ts'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      as_user_not_supported channel_not_found channel_type_not_supported
      duplicate_channel_not_found duplicate_message_not_found ekm_access_denied invalid_blocks
      invalid_chunks invalid_metadata_format invalid_metadata_schema is_archived
      message_limit_exceeded message_not_found message_not_in_streaming_state
      message_not_owned_by_app messages_tab_disabled messaging_processing_failed
      metadata_must_be_sent_from_app metadata_too_large msg_blocks_too_long
      msg_blocks_too_many no_text not_in_channel rate_limited restricted_action
      restricted_action_non_threadable_channel restricted_action_read_only_channel
      restricted_action_thread_locked restricted_action_thread_only_channel
      slack_connect_canvas_sharing_blocked slack_connect_file_link_sharing_blocked
      slack_connect_lists_sharing_blocked stopped_by_user team_not_found too_many_attachments
      too_many_contact_cards
    `,
    source: 'https://docs.slack.dev/reference/methods/chat.appendStream',
    note: '`markdown_text` or `chunks` (the SDK sends chunks).',
  },
  'chat.postMessage': {
    tier: 'special',
    scopes: ['chat:write'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CGDUW' },
    errors: `
      app_access_restricted as_user_not_supported attachment_payload_limit_exceeded
      cannot_reply_to_message channel_not_found draft_already_deleted draft_already_sent
      draft_has_conflict draft_not_found duplicate_channel_not_found
      duplicate_message_not_found ekm_access_denied invalid_blocks invalid_blocks_format
      invalid_metadata_format invalid_metadata_schema is_archived markdown_text_conflict
      message_limit_exceeded messages_tab_disabled metadata_must_be_sent_from_app
      metadata_too_large missing_file_data msg_blocks_too_long no_text not_in_channel
      rate_limited restricted_action restricted_action_non_threadable_channel
      restricted_action_read_only_channel restricted_action_thread_locked
      restricted_action_thread_only_channel send_on_behalf_not_allowed
      slack_connect_canvas_sharing_blocked slack_connect_file_link_sharing_blocked
      slack_connect_lists_sharing_blocked team_not_found too_many_attachments
      too_many_contact_cards
    `,
    source: 'https://docs.slack.dev/reference/methods/chat.postMessage',
    note: "A user id posts in the app's DM with that person; the answer names the DM's D\u2026 id.",
  },
  'chat.startStream': {
    tier: 2,
    scopes: ['chat:write'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      channel_not_found channel_type_not_supported duplicate_channel_not_found
      duplicate_message_not_found ekm_access_denied invalid_blocks invalid_blocks_format
      invalid_chunks invalid_metadata_format invalid_metadata_schema is_archived
      message_limit_exceeded messages_tab_disabled messaging_processing_failed
      metadata_must_be_sent_from_app metadata_too_large missing_recipient_team_id
      missing_recipient_user_id msg_blocks_too_long msg_blocks_too_many no_text not_in_channel
      not_subscribed_to_message_stream_stopped rate_limited restricted_action
      restricted_action_non_threadable_channel restricted_action_read_only_channel
      restricted_action_thread_locked restricted_action_thread_only_channel
      slack_connect_canvas_sharing_blocked slack_connect_file_link_sharing_blocked
      slack_connect_lists_sharing_blocked team_not_found user_not_found
    `,
    source: 'https://docs.slack.dev/reference/methods/chat.startStream',
  },
  'chat.stopStream': {
    tier: 2,
    scopes: ['chat:write'],
    required: ['channel', 'ts'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      as_user_not_supported attachment_payload_limit_exceeded cannot_reply_to_message
      channel_not_found channel_type_not_supported duplicate_channel_not_found
      duplicate_message_not_found ekm_access_denied invalid_blocks invalid_chunks
      invalid_metadata_format invalid_metadata_schema is_archived message_limit_exceeded
      message_not_found message_not_in_streaming_state message_not_owned_by_app
      messages_tab_disabled metadata_must_be_sent_from_app metadata_too_large
      missing_file_data msg_blocks_too_long msg_blocks_too_many no_text not_in_channel
      rate_limited restricted_action restricted_action_non_threadable_channel
      restricted_action_read_only_channel restricted_action_thread_locked
      restricted_action_thread_only_channel slack_connect_canvas_sharing_blocked
      slack_connect_file_link_sharing_blocked slack_connect_lists_sharing_blocked
      team_not_found too_many_attachments too_many_contact_cards
    `,
    source: 'https://docs.slack.dev/reference/methods/chat.stopStream',
  },
  'chat.update': {
    tier: 3,
    scopes: ['chat:write'],
    required: ['ts', 'channel'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      as_user_not_supported block_mismatch blocked_file_type cant_broadcast_message
      cant_update_message channel_not_found edit_window_closed external_channel_migrating
      file_deleted file_is_deleted file_not_found file_share_limit_reached invalid_attachments
      invalid_blocks invalid_blocks_format invalid_metadata_format invalid_metadata_schema
      is_inactive markdown_text_conflict max_file_sharing_exceeded message_limit_exceeded
      message_not_found metadata_must_be_sent_from_app metadata_too_large msg_too_long
      no_dual_broadcast_content_update no_text posting_to_channel_denied
      slack_connect_blocked_file_type slack_connect_canvas_sharing_blocked
      slack_connect_clip_sharing_blocked slack_connect_file_link_sharing_blocked
      slack_connect_file_upload_sharing_blocked streaming_state_conflict team_not_found
      too_many_attachments unable_to_share_files update_failed
    `,
    source: 'https://docs.slack.dev/reference/methods/chat.update',
    note: '"For direct messages, ensure that this value is a DM ID (starts with D) instead of a User ID (starts with either U or W)."',
  },
  'conversations.canvases.create': {
    tier: 2,
    scopes: ['canvases:write'],
    required: ['channel_id'],
    channel: { arg: 'channel_id', kinds: 'CG' },
    errors: `
      canvas_creation_failed canvas_disabled_user_team canvas_tab_creation_failed
      channel_canvas_already_exists channel_canvas_creation_failed
      free_team_canvas_tab_already_exists restricted_action
      team_tier_cannot_create_channel_canvases
    `,
    source: 'https://docs.slack.dev/reference/methods/conversations.canvases.create',
  },
  'conversations.info': {
    tier: 3,
    scopes: ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      channel_is_limited_access channel_not_found missing_scope
    `,
    source: 'https://docs.slack.dev/reference/methods/conversations.info',
  },
  'conversations.history': {
    tier: 3,
    scopes: ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      channel_not_found invalid_cursor invalid_ts_latest invalid_ts_oldest missing_scope
      not_in_channel
    `,
    source: 'https://docs.slack.dev/reference/methods/conversations.history',
  },
  'conversations.join': {
    tier: 3,
    scopes: ['channels:join'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CG' },
    errors: `
      channel_is_limited_access channel_not_found is_archived
      method_not_supported_for_channel_type missing_scope too_many_members
    `,
    source: 'https://docs.slack.dev/reference/methods/conversations.join',
  },
  'conversations.replies': {
    tier: 3,
    scopes: ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
    required: ['channel', 'ts'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      channel_not_found invalid_cursor invalid_ts_latest invalid_ts_oldest missing_scope
      not_in_channel thread_not_found
    `,
    source: 'https://docs.slack.dev/reference/methods/conversations.replies',
  },
  'conversations.open': {
    tier: 3,
    scopes: ['channels:manage', 'groups:write', 'im:write', 'mpim:write'],
    required: [],
    errors: `
      channel_not_found invalid_user_combination method_not_supported_for_channel_type
      missing_scope not_enough_users too_many_users user_disabled user_not_found
      user_not_visible users_list_not_supplied
    `,
    source: 'https://docs.slack.dev/reference/methods/conversations.open',
  },
  'files.completeUploadExternal': {
    tier: 4,
    scopes: ['files:write'],
    required: ['files'],
    channel: { arg: 'channel_id', kinds: 'CGD' },
    errors: `
      access_denied channel_not_found channels_limit_exceeded file_not_found
      file_type_not_allowed file_update_failed file_uploads_except_images_disabled
      invalid_blocks invalid_channel not_in_channel posting_to_channel_denied
    `,
    source: 'https://docs.slack.dev/reference/methods/files.completeUploadExternal',
  },
  'files.getUploadURLExternal': {
    tier: 4,
    scopes: ['files:write'],
    required: ['length', 'filename'],
    errors: `
      alt_txt_too_large file_type_not_allowed file_upload_size_restricted
      file_uploads_disabled file_uploads_except_images_disabled missing_argument
      snippet_too_large storage_limit_reached unknown_snippet_type unknown_subtype
    `,
    source: 'https://docs.slack.dev/reference/methods/files.getUploadURLExternal',
  },
  'functions.completeError': {
    tier: 3,
    scopes: [],
    required: ['function_execution_id', 'error'],
    errors: `
      access_denied execution_not_in_running_state function_execution_not_found unknown_method
    `,
    source: 'https://docs.slack.dev/reference/methods/functions.completeError',
  },
  'functions.completeSuccess': {
    tier: 3,
    scopes: [],
    required: ['function_execution_id', 'outputs'],
    errors: `
      access_denied execution_not_in_running_state function_execution_not_found
      parameter_validation_failed unknown_method
    `,
    source: 'https://docs.slack.dev/reference/methods/functions.completeSuccess',
  },
  'oauth.v2.access': {
    tier: 'special',
    scopes: [],
    required: ['client_id', 'client_secret'],
    errors: `
      bad_client_secret bad_redirect_uri cannot_install_an_org_installed_app invalid_client_id
      invalid_code invalid_grant_type invalid_refresh_token no_scopes
      oauth_authorization_url_mismatch preview_feature_not_available user_email_unverified
    `,
    source: 'https://docs.slack.dev/reference/methods/oauth.v2.access',
    note: 'Tier 4 on its page ("t5" in the mirror, which the tiers here do not count); takes no token: the client id and secret, with a code or a refresh token.',
  },
  'pins.add': {
    tier: 2,
    scopes: ['pins:write'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      already_pinned bad_timestamp channel_not_found external_channel_migrating file_not_found
      file_not_shared message_not_found no_item_specified not_in_channel not_pinnable
      restricted_action too_many_pins
    `,
    source: 'https://docs.slack.dev/reference/methods/pins.add',
  },
  'pins.remove': {
    tier: 2,
    scopes: ['pins:write'],
    required: ['channel'],
    channel: { arg: 'channel', kinds: 'CGD' },
    errors: `
      bad_timestamp channel_not_found external_channel_migrating file_comment_not_found
      file_not_found message_not_found no_item_specified no_pin not_pinned restricted_action
    `,
    source: 'https://docs.slack.dev/reference/methods/pins.remove',
  },
  'users.info': {
    tier: 4,
    scopes: ['users:read'],
    required: ['user'],
    errors: `
      too_many_users user_not_found user_not_visible
    `,
    source: 'https://docs.slack.dev/reference/methods/users.info',
    note: "`include_locale: true` adds the person's `locale` (`en-US`, `en-GB`) to `user` (https://api.slack.com/methods/users.info).",
  },
  'views.open': {
    tier: 4,
    scopes: [],
    required: ['view'],
    errors: `
      duplicate_external_id exchanged_trigger_id expired_trigger_id invalid_trigger_id
      view_too_large
    `,
    source: 'https://docs.slack.dev/reference/methods/views.open',
    note: '`trigger_id` or `interactivity_pointer` as well.',
  },
  'views.publish': {
    tier: 4,
    scopes: [],
    required: ['user_id', 'view'],
    errors: `
      duplicate_external_id hash_conflict missing_profile_id not_allowed_token_type
      not_enabled not_implemented view_too_large
    `,
    source: 'https://docs.slack.dev/reference/methods/views.publish',
  },
} as const satisfies Record<string, SlackMethodRow>;

export type SlackMethodName = keyof typeof slackMethods;

/** The table's row for `method`, or undefined for a method the table does not hold. */
export function slackMethod(method: string): SlackMethodRow | undefined {
  return Object.hasOwn(slackMethods, method) ? slackMethods[method as SlackMethodName] : undefined;
}

/** Every error `method` may answer: its page's list and the common ones. */
export function documentedErrors(method: string): ReadonlySet<string> {
  const row = slackMethod(method);
  return new Set([...commonErrors, ...(row?.errors.trim().split(/\s+/) ?? [])]);
}

/**
 * Why Slack refuses these arguments before doing anything (`invalid_arguments` for a required
 * one missing, `channel_not_found` for a conversation id of a kind the method does not take, the
 * row's own code for a session without its thread), or undefined.
 */
export function argumentRefusal(method: string, args: Record<string, unknown>): string | undefined {
  const row = slackMethod(method);
  if (row === undefined) return 'unknown_method';
  for (const name of row.required) {
    if (args[name] === undefined) return 'invalid_arguments';
  }
  if (row.channel !== undefined) {
    const id = args[row.channel.arg];
    if (typeof id === 'string' && !row.channel.kinds.includes(id.charAt(0))) {
      return 'channel_not_found';
    }
  }
  if (row.threadRequired !== undefined && args.thread_ts === undefined) return row.threadRequired;
  return undefined;
}

/**
 * The scopes of the events the app subscribes to that need one, as the events' pages list them
 * (slack-api-ref `docs.slack.dev/events/events.json`): docs.slack.dev/reference/events/<name>.
 */
export const slackEventScopes: Readonly<Record<string, readonly string[]>> = {
  agent_session_stopped: ['chat:write'],
  agent_session_title_changed: ['chat:write'],
  app_home_opened: [],
  app_uninstalled: [],
  tokens_revoked: [],
  'message.im': ['im:history'],
};
