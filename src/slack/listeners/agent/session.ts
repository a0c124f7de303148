/**
 * The agent session of one thread while the app answers in it (Slack's agent sessions): set to
 * `processing` with the thread's title when a lookup starts, which makes Slack show its Stop
 * button, and moved back to `active` once the lookup ended, however it ended. Slack never leaves
 * `processing` by itself, not even when Stop is pressed. The status rides on chat.stopStream when
 * the answer is streamed; otherwise agents.sessions.setStatus sets it.
 *
 * Where Slack refuses agent sessions (a workspace or client without them), the thread shows the
 * assistant pane's status line and title instead, as before sessions existed; the refusal is
 * logged once per workspace and that workspace goes straight to the status line after.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../../logger.ts';
import type { LookupRequest } from '../../../model/lookup.ts';
import { renderSessionTitle } from '../../../render/lookups/agent.ts';
import { renderAssistantStatus, renderAssistantTitle } from '../../../render/lookups/assistant.ts';
import { slackErrorString, slackFailure } from '../../web-api/client.ts';
import type { AgentConversations } from './conversations.ts';

/** While a lookup works: Slack shows the Stop button only in this status. */
export const workingStatus = 'processing';
/** Once a lookup ended: the thread stays open for follow-ups. */
export const restingStatus = 'active';

/**
 * Slack's answers to agents.sessions.* that mean sessions are not offered in the workspace (the
 * feature off there, the app not allowed them, a Slack without the method): the assistant pane's
 * status line stands in. docs.slack.dev/reference/methods/agents.sessions.setStatus.
 */
export const sessionRefusals: ReadonlySet<string> = new Set([
  'feature_disabled',
  'not_authorized',
  'unknown_method',
]);

export interface SessionThread {
  readonly channel: string;
  readonly threadTs: string;
  /** Whether the thread was named by an earlier lookup, or by the person, as the instances remember. */
  readonly titled: boolean;
  /** The workspace (its team id, else the conversation): Slack refuses sessions workspace-wide. */
  readonly workspace: string;
}

export class AgentSession {
  readonly #client: WebClient;
  readonly #logger: Logger;
  readonly #thread: SessionThread;
  /** Slack holds the session in `processing`: something must move it back. */
  #processing = false;
  /** The assistant pane's status line stands in for the session. */
  #statusLine = false;

  private constructor(client: WebClient, logger: Logger, thread: SessionThread) {
    this.#client = client;
    this.#logger = logger;
    this.#thread = thread;
  }

  /**
   * Marks the thread as working on `request` (read at `now`), naming it after the request when
   * it has no name yet. Never throws: a failure is logged and the answer still comes.
   */
  static async begin(
    client: WebClient,
    logger: Logger,
    conversations: AgentConversations,
    thread: SessionThread,
    request: LookupRequest,
    now: Date,
  ): Promise<AgentSession> {
    const session = new AgentSession(client, logger, thread);
    if (!conversations.sessionsRefused(thread.workspace)) {
      const refusal = await session.#process(renderSessionTitle(request, now));
      if (refusal === undefined) return session;
      conversations.refuseSessions(thread.workspace, refusal);
      logger.warn(
        { method: 'agents.sessions.setStatus', reason: refusal, channel: thread.channel },
        'Slack keeps no agent sessions here; showing the assistant status line instead',
      );
    }
    await session.#showStatusLine(request, now);
    return session;
  }

  /** chat.stopStream's arguments that end the session's work with the stream. */
  stopArguments(): { session_status?: string } {
    return this.#processing ? { session_status: restingStatus } : {};
  }

  /** The stream stopped with {@link stopArguments}: the session left `processing` with it. */
  endedWithStream(): void {
    this.#processing = false;
  }

  /** Moves the session out of `processing` when nothing did yet; never throws. */
  async end(): Promise<void> {
    if (this.#processing) {
      this.#processing = false;
      await setSessionStatus(this.#client, this.#logger, this.#thread, restingStatus);
    } else if (this.#statusLine) {
      // The answer may have gone outside the thread, which then would show the line for minutes.
      this.#statusLine = false;
      await bestEffort(this.#logger, 'assistant.threads.setStatus', () =>
        this.#client.assistant.threads.setStatus({
          channel_id: this.#thread.channel,
          thread_ts: this.#thread.threadTs,
          status: '',
        }),
      );
    }
  }

  /**
   * Sets the session to `processing` (creating it with `title`) and renames a session that was
   * there before under another name, when this instance has not named the thread. Slack's reason
   * when it refuses sessions here; undefined otherwise, a failure logged.
   */
  async #process(title: string): Promise<string | undefined> {
    const { channel, threadTs } = this.#thread;
    let answer: { title?: string };
    try {
      answer = await this.#client.agents.sessions.setStatus({
        channel_id: channel,
        thread_ts: threadTs,
        status: workingStatus,
        title,
      });
    } catch (error) {
      const reason = slackErrorString(error);
      if (reason !== undefined && sessionRefusals.has(reason)) return reason;
      this.#logger.warn(
        slackFailure(error, 'agents.sessions.setStatus'),
        'could not call agents.sessions.setStatus',
      );
      return undefined;
    }
    this.#processing = true;
    // The title is taken only when the call creates the session.
    if (!this.#thread.titled && answer.title !== undefined && answer.title !== title) {
      await bestEffort(this.#logger, 'agents.sessions.rename', () =>
        this.#client.agents.sessions.rename({ channel_id: channel, thread_ts: threadTs, title }),
      );
    }
    return undefined;
  }

  async #showStatusLine(request: LookupRequest, now: Date): Promise<void> {
    const { channel, threadTs } = this.#thread;
    this.#statusLine = true;
    await bestEffort(this.#logger, 'assistant.threads.setStatus', () =>
      this.#client.assistant.threads.setStatus({
        channel_id: channel,
        thread_ts: threadTs,
        status: renderAssistantStatus(request),
      }),
    );
    if (this.#thread.titled) return;
    await bestEffort(this.#logger, 'assistant.threads.setTitle', () =>
      this.#client.assistant.threads.setTitle({
        channel_id: channel,
        thread_ts: threadTs,
        title: renderAssistantTitle(request, now),
      }),
    );
  }
}

/**
 * Sets the thread's session to `status` (agents.sessions.setStatus); a failure is logged. For
 * Stop pressed with no lookup running, which still leaves the session in `processing`.
 */
export async function setSessionStatus(
  client: WebClient,
  logger: Logger,
  thread: { readonly channel: string; readonly threadTs: string },
  status: string,
): Promise<void> {
  await bestEffort(logger, 'agents.sessions.setStatus', () =>
    client.agents.sessions.setStatus({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      status,
    }),
  );
}

/** A call that decorates the conversation: its failure is logged and the answer still comes. */
export async function bestEffort(
  logger: Logger,
  method: string,
  call: () => Promise<unknown>,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    logger.warn(slackFailure(error, method), `could not call ${method}`);
  }
}
