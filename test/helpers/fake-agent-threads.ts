/**
 * The Web API methods of Slack's agent conversations as the fake answers them: the assistant
 * pane's `assistant.threads.*` and the agent sessions' `agents.sessions.*`, with the session
 * status chat.stopStream may set, and the chunks streamed replies are made of.
 */

/** Slack's documented limits for streamed messages. */
export const fakeStreamLimits = { markdown: 12_000, taskText: 256, blocksAtStop: 50 } as const;

/** An agent session as Slack keeps it: its thread, its title and every status it was given. */
export interface FakeSession {
  readonly channel: string;
  readonly threadTs: string;
  title: string | undefined;
  /** Statuses in the order they were set; the last one is the session's. */
  readonly statuses: string[];
}

/** The statuses Slack accepts (agents.sessions.setStatus, chat.stopStream's `session_status`). */
export const fakeSessionStatuses: ReadonlySet<string> = new Set([
  'processing',
  'active',
  'suspended',
  'closed',
]);

/** A session's title: at most 200 characters (rename: at least 1). */
export const fakeSessionTitleMax = 200;

/**
 * agents.sessions.setStatus and rename as Slack documents them: setStatus creates the thread's
 * session (its title taken only then) and sets its status; rename retitles an existing one.
 */
export class FakeSessions {
  readonly #byThread = new Map<string, FakeSession>();
  /**
   * Where the workspace keeps no agent sessions: `feature_disabled` (the feature is off there) or
   * `not_authorized`; undefined keeps them.
   */
  refusal: 'feature_disabled' | 'not_authorized' | undefined;

  /** The session of the thread, if Slack has one. */
  get(channel: string, threadTs: string): FakeSession | undefined {
    return this.#byThread.get(`${channel}:${threadTs}`);
  }

  /** Every session, in the order they were created. */
  all(): FakeSession[] {
    return [...this.#byThread.values()];
  }

  /** A session made outside this app's calls (by an earlier run of the app, say). */
  create(channel: string, threadTs: string, title?: string): FakeSession {
    const session: FakeSession = { channel, threadTs, title, statuses: [] };
    this.#byThread.set(`${channel}:${threadTs}`, session);
    return session;
  }

  answer(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const { channel_id: channel, thread_ts: threadTs, title } = args;
    if (typeof channel !== 'string') return { ok: false, error: 'channel_not_found' };
    // Thread-based sessions in DMs and channels need their thread.
    if (typeof threadTs !== 'string') return { ok: false, error: 'thread_ts_required' };
    if (this.refusal !== undefined) return { ok: false, error: this.refusal };
    if (title !== undefined && (typeof title !== 'string' || title.length > fakeSessionTitleMax)) {
      return {
        ok: false,
        error: method === 'agents.sessions.rename' ? 'invalid_name' : 'invalid_arguments',
      };
    }
    if (method === 'agents.sessions.rename') {
      if (typeof title !== 'string' || title.length === 0) {
        return { ok: false, error: 'invalid_name' };
      }
      const session = this.get(channel, threadTs);
      if (session === undefined) return { ok: false, error: 'session_not_found' };
      session.title = title;
      return { ok: true };
    }
    if (typeof args.status !== 'string' || !fakeSessionStatuses.has(args.status)) {
      return { ok: false, error: 'invalid_status' };
    }
    const session =
      this.get(channel, threadTs) ?? this.create(channel, threadTs, title as string | undefined);
    session.statuses.push(args.status);
    return {
      ok: true,
      status: args.status,
      ...(session.title === undefined ? {} : { title: session.title }),
    };
  }

  /**
   * chat.stopStream's `session_status` for the stream's thread: Slack's error for a status it
   * does not know, else undefined once the thread's session (if any) took it.
   */
  stopStatus(channel: string, threadTs: string, status: unknown): string | undefined {
    if (status === undefined) return undefined;
    if (typeof status !== 'string' || !fakeSessionStatuses.has(status)) return 'invalid_arguments';
    this.get(channel, threadTs)?.statuses.push(status);
    return undefined;
  }
}

/**
 * The assistant.threads methods: a channel and, except for prompts, a thread are required; at most
 * four prompts.
 */
export function assistantThreadsAnswer(
  method: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  if (typeof args.channel_id !== 'string') return { ok: false, error: 'channel_not_found' };
  const promptsOnly = method === 'assistant.threads.setSuggestedPrompts';
  if (!promptsOnly && typeof args.thread_ts !== 'string') {
    return { ok: false, error: 'invalid_thread_ts' };
  }
  if (promptsOnly && (!Array.isArray(args.prompts) || args.prompts.length > 4)) {
    return { ok: false, error: 'invalid_arguments' };
  }
  return { ok: true };
}

/** Why Slack would refuse these chunks, or undefined. */
export function chunkRefusal(chunks: unknown): string | undefined {
  if (chunks === undefined) return undefined;
  if (!Array.isArray(chunks)) return 'invalid_chunks';
  for (const chunk of chunks as Record<string, unknown>[]) {
    if (chunk.type === 'markdown_text') {
      if (typeof chunk.text !== 'string') return 'invalid_chunks';
      if (chunk.text.length > fakeStreamLimits.markdown) return 'msg_too_long';
    } else if (chunk.type === 'task_update') {
      if (typeof chunk.id !== 'string' || typeof chunk.title !== 'string') return 'invalid_chunks';
      for (const field of [chunk.details, chunk.output]) {
        if (typeof field === 'string' && field.length > fakeStreamLimits.taskText) {
          return 'invalid_chunks';
        }
      }
    } else if (chunk.type !== 'plan_update' && chunk.type !== 'blocks') {
      return 'invalid_chunks';
    }
  }
  return undefined;
}
