/**
 * The bot scopes each Web API method this app calls needs. The manifest test reads this table and
 * scans src/slack for calls, so a new call without its scope in manifest.yml fails CI instead of
 * failing with `missing_scope` in a workspace.
 */
export const webApiScopes = {
  // The assistant pane (Bolt's Assistant utilities): status line, prompts and thread titles.
  'assistant.threads.setStatus': ['assistant:write'],
  'assistant.threads.setSuggestedPrompts': ['assistant:write'],
  'assistant.threads.setTitle': ['assistant:write'],
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  // Digest creation checks the channel: public and private channels, the app's DM, group DMs.
  'conversations.info': ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  // A digest due in a public channel the bot is not in: it joins, then posts.
  'conversations.join': ['channels:join'],
  // A CSV export goes to the person's DM: uploads need the DM's id, which opening it gives.
  'conversations.open': ['im:write'],
  // CSV exports (files.uploadV2: get an upload URL, then complete the upload into a conversation).
  'files.getUploadURLExternal': ['files:write'],
  'files.completeUploadExternal': ['files:write'],
  // Conferences: the live leaderboard is pinned, and one replaced is unpinned.
  'pins.add': ['pins:write'],
  'pins.remove': ['pins:write'],
  'users.info': ['users:read'],
  'views.open': [],
  'views.publish': [],
} as const satisfies Record<string, readonly string[]>;

export type WebApiMethod = keyof typeof webApiScopes;

/** Scopes the Events API requires before it delivers each subscribed event. */
export const eventScopes = {
  app_home_opened: [],
  app_mention: ['app_mentions:read'],
  // The assistant pane: a thread opened, and the channel beside it changed.
  assistant_thread_started: ['assistant:write'],
  assistant_thread_context_changed: ['assistant:write'],
  // The app left a workspace: its digests pause until it works there again. No scope needed.
  app_uninstalled: [],
  tokens_revoked: [],
  'message.im': ['im:history'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Scopes for features rather than methods: slash commands, and posting in public channels the bot
 * was not invited to (thread replies to mentions, digests when joining is not possible).
 */
export const featureScopes = ['commands', 'chat:write.public'] as const;
