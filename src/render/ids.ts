/**
 * Every identifier the rendered messages and views carry and the Slack layer listens for.
 * Handlers register with these constants, so a renamed id cannot silently orphan a button. Each is
 * at most 255 characters (Block Kit's limit for action, block and callback ids).
 */

/** `action_id` of interactive elements. */
export const actionIds = {
  /** "Share in channel" under an ephemeral answer; its value is `encodeShareValue(request)`. */
  shareAnswer: 'influencers_share',
  /**
   * The buttons under a lookup's answer that ask it again differently; each value is
   * `encodeShareValue(request)` of the request as shown.
   */
  answerCompare: 'answer_compare',
  answerTable: 'answer_table',
  answerChart: 'answer_chart',
  answerExport: 'answer_export',
  /**
   * "Add “…” as a database" under an answer that left loose words out (`#hcsm conversation`): its
   * value is `encodeShareValue` of the request with them added as a database, asked as it is.
   */
  answerAddDatabase: 'answer_add_database',
  /**
   * The readings of a question asked back (`3/11/2026 to 10/11/2026`), one button each with
   * `_1`, `_2`… after it (action ids are unique within a block); each value is
   * `encodeShareValue` of that reading's request.
   */
  answerChoice: 'answer_choice',
  /** "Look up" on the Home tab: opens the lookup modal. */
  openLookup: 'influencers_open_lookup',
} as const;

/** `block_id` of blocks a handler reads or replaces. */
export const blockIds = {
  answerActions: 'influencers_answer_actions',
  answerChoices: 'influencers_answer_choices',
  homeActions: 'influencers_home_actions',
  /** First block of the extra sections (such as the digest list) appended to the Home tab. */
  homeExtensions: 'influencers_home_extensions',
} as const;

/** `callback_id` of global shortcuts, as manifest.yml declares them. */
export const shortcutIds = {
  /** "Look up influencers" from the shortcuts menu: opens the lookup modal. */
  lookup: 'influencers_lookup_shortcut',
} as const;

/** `callback_id` of Workflow Builder custom steps, as manifest.yml's `functions` declares them. */
export const functionIds = {
  topInfluencers: 'top_influencers',
} as const;

/** `callback_id` of views. */
export const callbackIds = {
  home: 'influencers_home',
  lookupModal: 'influencers_lookup',
} as const;

/**
 * The lookup modal's inputs: `view.state.values[blockId][actionId]` holds each value on submission,
 * and `response_action: 'errors'` answers with messages keyed by these block ids.
 */
export const lookupModalInputs = {
  databases: { blockId: 'lookup_databases', actionId: 'databases' },
  window: { blockId: 'lookup_window', actionId: 'window' },
  zone: { blockId: 'lookup_zone', actionId: 'zone' },
  top: { blockId: 'lookup_top', actionId: 'top' },
  metric: { blockId: 'lookup_metric', actionId: 'metric' },
  who: { blockId: 'lookup_who', actionId: 'who' },
  without: { blockId: 'lookup_without', actionId: 'without' },
} as const;

export type LookupModalInput = keyof typeof lookupModalInputs;

// Digests: every digest button carries the digest's id as its `value`, so one handler per action
// serves the channel list and the Home tab alike.

/** `action_id` of the digest buttons; each button's `value` is the digest id. */
export const digestActionIds = {
  runNow: 'digest_run_now',
  pause: 'digest_pause',
  resume: 'digest_resume',
  /** Carries a confirm dialog: Slack sends the action only once the person confirms. */
  remove: 'digest_remove',
  /** Opens the Edit modal. */
  edit: 'digest_edit',
  /**
   * "Post it now" in the DM about a slot whose post may not have reached the channel; its value
   * is `digestSlotValue(id, slot)`. Carries a confirm dialog.
   */
  postUnconfirmed: 'digest_post_unconfirmed',
} as const;

/**
 * `action_id` of the buttons between the pages of a channel's digest list; each button's `value`
 * is the page it shows, from 0.
 */
export const digestListPageIds = {
  previous: 'digest_list_previous',
  next: 'digest_list_next',
} as const;

/** `block_id` of the page buttons under a page of the digest list. */
export const digestListPagesBlockId = 'digest_list_pages';

/** The value of a button about one slot of a digest: `<id>@<slot as ISO 8601>`. */
export function digestSlotValue(id: string, slot: Date): string {
  return `${id}@${slot.toISOString()}`;
}

/** The digest id and slot a `digestSlotValue` carries; undefined when it does not read as one. */
export function readDigestSlotValue(
  value: string,
): { readonly id: string; readonly slot: Date } | undefined {
  const at = value.indexOf('@');
  if (at <= 0) return undefined;
  const slot = new Date(value.slice(at + 1));
  return Number.isNaN(slot.getTime()) ? undefined : { id: value.slice(0, at), slot };
}

/** `callback_id` of the Edit modal; its `private_metadata` says which digest and where from. */
export const digestEditCallbackId = 'digest_edit_modal';

/** The Edit modal's inputs: `view.state.values[blockId][actionId]` on submission. */
export const digestEditInputs = {
  schedule: { blockId: 'digest_edit_schedule', actionId: 'schedule' },
  window: { blockId: 'digest_edit_window', actionId: 'window' },
  top: { blockId: 'digest_edit_top', actionId: 'top' },
  zone: { blockId: 'digest_edit_zone', actionId: 'zone' },
  metric: { blockId: 'digest_edit_metric', actionId: 'metric' },
  posts: { blockId: 'digest_edit_posts', actionId: 'posts' },
  shown: { blockId: 'digest_edit_shown', actionId: 'shown' },
  who: { blockId: 'digest_edit_who', actionId: 'who' },
  without: { blockId: 'digest_edit_without', actionId: 'without' },
  canvas: { blockId: 'digest_edit_canvas', actionId: 'canvas' },
} as const;

export type DigestEditInput = keyof typeof digestEditInputs;

export type DigestActionId = (typeof digestActionIds)[keyof typeof digestActionIds];

/** `block_id` prefix of the buttons under one digest: block ids must be unique in a surface. */
export const digestActionsBlockPrefix = 'digest_actions:';

/** The `block_id` of the buttons under the digest `id`. */
export function digestActionsBlockId(id: string): string {
  return `${digestActionsBlockPrefix}${id}`;
}

/**
 * `block_id` prefix of digest buttons in a DM notice (the digests an outage skipped): a press
 * there answers in the DM, with no channel list to refresh.
 */
export const digestNoticeBlockPrefix = 'digest_notice:';

/** The `block_id` of the buttons of a DM notice under the digest `id`. */
export function digestNoticeBlockId(id: string): string {
  return `${digestNoticeBlockPrefix}${id}`;
}

/** `block_id` of the App Home "Your digests" heading, so the Slack layer can find the section. */
export const digestHomeBlockId = 'digest_home';
