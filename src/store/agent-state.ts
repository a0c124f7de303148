/**
 * What every instance sharing the store knows of the app's agent conversations (its Messages tab),
 * so that whichever instance a message reaches, one started after a restart included, answers it
 * alike: the DMs whose tab opened, each thread's last lookup and whether it has a title, and the
 * agent lookups running now with the Stop pressed for them, wherever Stop arrived. Every record
 * expires: a conversation or a thread nobody comes back to is forgotten, and the record of a
 * lookup whose instance died lapses once that instance stops renewing it.
 */
import type { LookupRequest } from '../model/lookup.ts';

/** One thread of an agent conversation (a DM). */
export interface AgentThreadKey {
  readonly channel: string;
  readonly threadTs: string;
}

/** What a thread's next question needs of the ones before it. */
export interface AgentThreadMemory {
  /** The thread's last lookup, which a follow-up keeps the window and options of. */
  readonly previous?: LookupRequest;
  readonly titled: boolean;
}

/** One agent lookup running on one instance. */
export interface AgentRun extends AgentThreadKey {
  /** Unique to the lookup: a later lookup in the same thread takes the thread's record over. */
  readonly runId: string;
  /** The instance running it, which asks for its stops with {@link AgentState.stopsFor}. */
  readonly owner: string;
}

/** The agent conversations' records, kept apart from the digests'; see `SqlAgentState`. */
export interface AgentState {
  /** The DM's Messages tab opened: it is an agent conversation until `now + ttlMs`. */
  rememberConversation(channel: string, now: Date, ttlMs: number): Promise<void>;
  isConversation(channel: string, now: Date): Promise<boolean>;
  /** Replaces what the thread remembers, until `now + ttlMs`. */
  rememberThread(
    thread: AgentThreadKey,
    memory: AgentThreadMemory,
    now: Date,
    ttlMs: number,
  ): Promise<void>;
  /** What the thread remembers at `now`; undefined for a thread never or no longer remembered. */
  threadOf(thread: AgentThreadKey, now: Date): Promise<AgentThreadMemory | undefined>;
  /**
   * The lookup runs in its thread, taking the thread's record over from any earlier one; the
   * record lapses at `now + ttlMs` unless {@link stopsFor} renews it.
   */
  lookupStarted(run: AgentRun, now: Date, ttlMs: number): Promise<void>;
  /** The lookup ended: its record goes (a later one of the thread keeps its own). */
  lookupEnded(runId: string): Promise<void>;
  /**
   * Asks the instance running the thread's lookup to stop it; false when no live record says one
   * runs.
   */
  requestStop(thread: AgentThreadKey, now: Date): Promise<boolean>;
  /**
   * Renews every record of `owner`'s lookups until `now + ttlMs` and returns the ids of those whose
   * Stop was pressed (with {@link requestStop}), until they end.
   */
  stopsFor(owner: string, now: Date, ttlMs: number): Promise<string[]>;
}
