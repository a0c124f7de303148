/**
 * What the app remembers of its agent conversations (the Messages tab): which DMs opened the tab
 * and each thread's previous question (for follow-ups) and whether it has a title, kept in the
 * store every instance shares, so that any instance, or one started after a restart, answers an
 * open tab as an agent conversation; and, in memory only, where Slack refused to stream (by
 * conversation) or to keep agent sessions (by workspace); each instance learns that again from
 * Slack's first refusal.
 * Records expire: a conversation {@link agentConversationTtlMs} after its tab last opened, a
 * thread {@link agentThreadTtlMs} after its last lookup. Where the store cannot answer, or keeps
 * no agent records, what this instance saw itself stands in, bounded.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../../logger.ts';
import type { AgentState, AgentThreadMemory } from '../../../store/agent-state.ts';
import { askAgentState, unknown } from './state.ts';

export type { AgentThreadMemory } from '../../../store/agent-state.ts';

/** Conversations and threads remembered at once in memory; the least recently used goes first. */
export const agentConversationsKept = 10_000;
/**
 * How long a DM stays an agent conversation after its Messages tab last opened: Slack reports
 * every opening, so a conversation in use is renewed long before.
 */
export const agentConversationTtlMs = 30 * 24 * 60 * 60_000;
/** How long a thread keeps its last lookup for a follow-up, and its title. */
export const agentThreadTtlMs = 30 * 24 * 60 * 60_000;

export interface AgentConversationsOptions {
  /** The store's agent records; undefined until the store opens, or where it keeps none. */
  readonly state: () => AgentState | undefined;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly limit?: number;
}

export class AgentConversations {
  readonly #options: AgentConversationsOptions;
  readonly #tabs: LRUCache<string, true>;
  readonly #threads: LRUCache<string, AgentThreadMemory>;
  readonly #refused: LRUCache<string, string>;
  readonly #noSessions: LRUCache<string, string>;

  constructor(options: AgentConversationsOptions) {
    this.#options = options;
    const max = options.limit ?? agentConversationsKept;
    this.#tabs = new LRUCache({ max });
    this.#threads = new LRUCache({ max });
    this.#refused = new LRUCache({ max });
    this.#noSessions = new LRUCache({ max });
  }

  /** The person opened the app's Messages tab: this DM is an agent conversation from now on. */
  async tabOpened(channel: string): Promise<void> {
    this.#tabs.set(channel, true);
    await this.#write('could not record an agent conversation', (state) =>
      state.rememberConversation(channel, this.#options.now(), agentConversationTtlMs),
    );
  }

  /**
   * Whether the DM's Messages tab opened, here or on any instance sharing the store. Only a yes is
   * kept in memory: a tab that opens on another instance must be seen at its next message.
   */
  async isAgentConversation(channel: string): Promise<boolean> {
    if (this.#tabs.get(channel) === true) return true;
    const known = await this.#read('could not read an agent conversation', (state) =>
      state.isConversation(channel, this.#options.now()),
    );
    if (known === true) this.#tabs.set(channel, true);
    return known === true;
  }

  /** What the thread remembers: the store's record first, since another instance may have moved it on. */
  async thread(channel: string, threadTs: string): Promise<AgentThreadMemory> {
    const stored = await this.#read('could not read an agent thread', (state) =>
      state.threadOf({ channel, threadTs }, this.#options.now()),
    );
    if (stored !== undefined && stored !== unknown) return stored;
    return this.#threads.get(key(channel, threadTs)) ?? { titled: false };
  }

  async remember(channel: string, threadTs: string, memory: AgentThreadMemory): Promise<void> {
    this.#threads.set(key(channel, threadTs), memory);
    await this.#write('could not record an agent thread', (state) =>
      state.rememberThread({ channel, threadTs }, memory, this.#options.now(), agentThreadTtlMs),
    );
  }

  /**
   * The thread has a title (the person renamed its session): kept with what the thread remembers,
   * so no lookup renames it.
   */
  async titled(channel: string, threadTs: string): Promise<void> {
    const memory = await this.thread(channel, threadTs);
    if (memory.titled) return;
    await this.remember(channel, threadTs, { ...memory, titled: true });
  }

  /** Slack refused to stream here (`reason`): later answers go as plain posts straight away. */
  refuseStreaming(channel: string, reason: string): void {
    this.#refused.set(channel, reason);
  }

  streamingRefused(channel: string): boolean {
    return this.#refused.has(channel);
  }

  /**
   * Slack refused agent sessions in the workspace (`reason`; a workspace without the feature):
   * later lookups there show the assistant pane's status.
   */
  refuseSessions(workspace: string, reason: string): void {
    this.#noSessions.set(workspace, reason);
  }

  sessionsRefused(workspace: string): boolean {
    return this.#noSessions.has(workspace);
  }

  /** A store write; when it fails, memory alone remembers. */
  async #write(failure: string, call: (state: AgentState) => Promise<void>): Promise<void> {
    await askAgentState(this.#options.state, this.#options.logger, failure, call);
  }

  /** A store read; {@link unknown} when the store cannot say. */
  #read<T>(failure: string, call: (state: AgentState) => Promise<T>): Promise<T | typeof unknown> {
    return askAgentState(this.#options.state, this.#options.logger, failure, call);
  }
}

function key(channel: string, threadTs: string): string {
  return `${channel}:${threadTs}`;
}
