/**
 * What the app remembers of assistant threads, in memory: the context each thread was last opened
 * from (the channel beside the pane) and whether it has been titled. Bolt's default store keeps
 * one context for the whole process and reads thread history back on every message; this one is
 * per thread, bounded, and never calls Slack. An instance that restarts forgets: its threads are
 * then answered as DM threads are (a pending post replaced by the answer).
 */
import type { AssistantConfig } from '@slack/bolt';

type AssistantThreadContextStore = NonNullable<AssistantConfig['threadContextStore']>;
type AllAssistantMiddlewareArgs = Parameters<AssistantThreadContextStore['get']>[0];
type AssistantThreadContext = Awaited<ReturnType<AssistantThreadContextStore['get']>>;

/** Threads remembered at once; the oldest is forgotten first. */
export const assistantThreadsKept = 10_000;

interface ThreadMemory {
  context: AssistantThreadContext;
  titled: boolean;
}

/** The thread an assistant event or message belongs to, when it names one. */
function threadKey(payload: unknown): string | undefined {
  const record = payload as {
    assistant_thread?: { channel_id?: unknown; thread_ts?: unknown };
    channel?: unknown;
    thread_ts?: unknown;
  };
  const channel = record.assistant_thread?.channel_id ?? record.channel;
  const ts = record.assistant_thread?.thread_ts ?? record.thread_ts;
  return typeof channel === 'string' && typeof ts === 'string' ? `${channel}:${ts}` : undefined;
}

export class AssistantThreads implements AssistantThreadContextStore {
  readonly #threads = new Map<string, ThreadMemory>();
  readonly #limit: number;

  constructor(limit = assistantThreadsKept) {
    this.#limit = limit;
  }

  get = async (args: AllAssistantMiddlewareArgs): Promise<AssistantThreadContext> => {
    const key = threadKey(args.payload);
    return (key === undefined ? undefined : this.#threads.get(key)?.context) ?? {};
  };

  save = async (args: AllAssistantMiddlewareArgs): Promise<void> => {
    const key = threadKey(args.payload);
    const payload = args.payload as { assistant_thread?: { context?: AssistantThreadContext } };
    const context = payload.assistant_thread?.context;
    if (key === undefined || context === undefined) return;
    this.#remember(key, {
      context: { ...context },
      titled: this.#threads.get(key)?.titled ?? false,
    });
  };

  /**
   * Whether the thread was opened in the assistant pane as far as this instance knows (it saw the
   * thread start, or its context change). Other threads of the DM are answered as DM threads.
   */
  has(channel: string, threadTs: string): boolean {
    return this.#threads.has(`${channel}:${threadTs}`);
  }

  /** True the first time it is asked for a thread: its title is then set. */
  firstTitle(channel: string, threadTs: string): boolean {
    const key = `${channel}:${threadTs}`;
    const known = this.#threads.get(key);
    if (known?.titled) return false;
    this.#remember(key, { context: known?.context ?? {}, titled: true });
    return true;
  }

  #remember(key: string, memory: ThreadMemory): void {
    this.#threads.delete(key);
    this.#threads.set(key, memory);
    if (this.#threads.size > this.#limit) {
      const oldest = this.#threads.keys().next().value;
      if (oldest !== undefined) this.#threads.delete(oldest);
    }
  }
}
