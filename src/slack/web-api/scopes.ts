/**
 * The bot scopes each Web API method this app calls needs, as each method's page on docs.slack.dev
 * names them. The manifest test reads this table and scans src/slack for calls, so a new call without its scope in manifest.yml fails CI instead of
 * failing with `missing_scope` in a workspace.
 */
export const webApiScopes = {
  // Agent messaging: a thread's agent session (processing while a lookup works, which shows the
  // Stop button; its title). Slack documents chat:write for thread-based sessions.
  'agents.sessions.setStatus': ['chat:write'],
  'agents.sessions.rename': ['chat:write'],
  // The Messages tab's prompts; the assistant pane's status line and thread titles, which agent
  // messaging falls back to where Slack keeps no sessions. Slack's page files the status line
  // under chat:write.
  'assistant.threads.setStatus': ['chat:write'],
  'assistant.threads.setSuggestedPrompts': ['assistant:write'],
  'assistant.threads.setTitle': ['assistant:write'],
  'auth.test': [],
  // A digest's channel canvas: the channel's own, else one of the app's tabbed in the channel.
  'canvases.create': ['canvases:write'],
  'canvases.edit': ['canvases:write'],
  'conversations.canvases.create': ['canvases:write'],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  // Streamed answers in agent conversations (the Web API client's chatStream helper).
  'chat.startStream': ['chat:write'],
  'chat.appendStream': ['chat:write'],
  'chat.stopStream': ['chat:write'],
  // Conferences: a post an instance killed mid-request left unconfirmed is looked for in the
  // channel (its leaderboard's thread) before it is posted, so it is posted once.
  'conversations.history': ['channels:history', 'groups:history'],
  'conversations.replies': ['channels:history', 'groups:history'],
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
  // "Add to Slack": a code, or a rotating token's refresh token, exchanged for the bot token.
  'oauth.v2.access': [],
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
  // Agent messaging: the person pressed Stop; the person renamed a session. Slack's pages file
  // both under chat:write.
  agent_session_stopped: ['chat:write'],
  agent_session_title_changed: ['chat:write'],
  // The assistant pane, for installs that keep assistant_view: a thread opened, and the channel
  // beside it changed.
  assistant_thread_started: ['assistant:write'],
  assistant_thread_context_changed: ['assistant:write'],
  // The app left a workspace: its digests pause until it works there again. No scope needed.
  app_uninstalled: [],
  tokens_revoked: [],
  'message.im': ['im:history'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Scopes for features rather than methods: slash commands, posting in public channels the bot
 * was not invited to (thread replies to mentions, digests when joining is not possible), and
 * Slackbot calling the app's MCP server (manifest `mcp_servers`).
 */
export const featureScopes = ['commands', 'chat:write.public', 'mcp:connect'] as const;
