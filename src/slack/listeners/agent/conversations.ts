/**
 * What the app remembers of its agent conversations (the Messages tab), in memory and bounded:
 * which DMs opened the tab, each thread's previous question (for follow-ups) and whether it has
 * a title, the lookups running now (so Stop can reach them), and where Slack refused to stream or
 * to keep agent sessions.
 * An instance that restarts forgets: a DM then gets plain answers until its tab is opened again,
 * and a follow-up reads as a question of its own. Nothing here is worth a table: a forgotten
 * thread costs one question typed in full.
 */
import { LRUCache } from 'lru-cache';
import type { LookupRequest } from '../../../model/lookup.ts';

/** Conversations and threads remembered at once; the least recently used is forgotten first. */
export const agentConversationsKept = 10_000;

export interface AgentThreadMemory {
  /** The thread's last lookup, which a follow-up keeps the window and options of. */
  readonly previous?: LookupRequest;
  readonly titled: boolean;
}

export class AgentConversations {
  readonly #tabs: LRUCache<string, true>;
  readonly #threads: LRUCache<string, AgentThreadMemory>;
  readonly #refused: LRUCache<string, string>;
  readonly #noSessions: LRUCache<string, string>;
  /** Not bounded by count: each entry lives only as long as its lookup. */
  readonly #running = new Map<string, AbortController>();

  constructor(limit = agentConversationsKept) {
    this.#tabs = new LRUCache({ max: limit });
    this.#threads = new LRUCache({ max: limit });
    this.#refused = new LRUCache({ max: limit });
    this.#noSessions = new LRUCache({ max: limit });
  }

  /** The person opened the app's Messages tab: this DM is an agent conversation. */
  tabOpened(channel: string): void {
    this.#tabs.set(channel, true);
  }

  isAgentConversation(channel: string): boolean {
    return this.#tabs.get(channel) === true;
  }

  thread(channel: string, threadTs: string): AgentThreadMemory {
    return this.#threads.get(key(channel, threadTs)) ?? { titled: false };
  }

  remember(channel: string, threadTs: string, memory: AgentThreadMemory): void {
    this.#threads.set(key(channel, threadTs), memory);
  }

  /** Slack refused to stream here (`reason`): later answers go as plain posts straight away. */
  refuseStreaming(channel: string, reason: string): void {
    this.#refused.set(channel, reason);
  }

  streamingRefused(channel: string): boolean {
    return this.#refused.has(channel);
  }

  /** Slack refused agent sessions here (`reason`): later lookups show the assistant pane's status. */
  refuseSessions(channel: string, reason: string): void {
    this.#noSessions.set(channel, reason);
  }

  sessionsRefused(channel: string): boolean {
    return this.#noSessions.has(channel);
  }

  /**
   * A controller for the thread's lookup that Stop aborts; the previous one of the thread, if any
   * still runs, is left to finish. `release` forgets it once the lookup ended.
   */
  start(channel: string, threadTs: string): { signal: AbortSignal; release: () => void } {
    const id = key(channel, threadTs);
    const controller = new AbortController();
    this.#running.set(id, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.#running.get(id) === controller) this.#running.delete(id);
      },
    };
  }

  /** Aborts the thread's running lookup with `reason`; false when none runs. */
  stop(channel: string, threadTs: string, reason: unknown): boolean {
    const controller = this.#running.get(key(channel, threadTs));
    if (controller === undefined) return false;
    controller.abort(reason);
    return true;
  }
}

function key(channel: string, threadTs: string): string {
  return `${channel}:${threadTs}`;
}
