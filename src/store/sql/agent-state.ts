/**
 * The agent conversations' records (see `AgentState`): three small tables, the same statements on
 * both dialects.
 */
import type { LookupRequest } from '../../model/lookup.ts';
import type { AgentRun, AgentState, AgentThreadKey, AgentThreadMemory } from '../agent-state.ts';

/**
 * What it needs of an adapter's executor (`SqlRunner`), named here so that the store's interface
 * can name this file's without a cycle through the row readers.
 */
interface Runner {
  query(
    sql: string,
    params?: readonly (string | number | Date | null)[],
  ): Promise<Record<string, unknown>[]>;
}

/** Expired records are deleted at most this often per store, beside a write, not on a timer. */
const purgeEveryMs = 60_000;

const at = (now: Date, ttlMs: number) => new Date(now.getTime() + ttlMs);

/**
 * Three small tables, the same statements on both adapters. The thread's last lookup is kept as
 * JSON text on both: nothing queries into it.
 */
export class SqlAgentState implements AgentState {
  readonly #db: Runner;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(db: Runner) {
    this.#db = db;
  }

  async rememberConversation(channel: string, now: Date, ttlMs: number): Promise<void> {
    await this.#purge(now);
    await this.#db.query(
      `INSERT INTO agent_conversations (channel, expires_at) VALUES ($1, $2)
       ON CONFLICT (channel) DO UPDATE SET expires_at = excluded.expires_at`,
      [channel, at(now, ttlMs)],
    );
  }

  async isConversation(channel: string, now: Date): Promise<boolean> {
    const rows = await this.#db.query(
      'SELECT 1 FROM agent_conversations WHERE channel = $1 AND expires_at > $2',
      [channel, now],
    );
    return rows.length > 0;
  }

  async rememberThread(
    thread: AgentThreadKey,
    memory: AgentThreadMemory,
    now: Date,
    ttlMs: number,
  ): Promise<void> {
    await this.#purge(now);
    await this.#db.query(
      `INSERT INTO agent_threads (channel, thread_ts, previous, titled, expires_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (channel, thread_ts) DO UPDATE SET previous = excluded.previous,
         titled = excluded.titled, expires_at = excluded.expires_at`,
      [
        thread.channel,
        thread.threadTs,
        memory.previous === undefined ? null : JSON.stringify(memory.previous),
        memory.titled ? 1 : 0,
        at(now, ttlMs),
      ],
    );
  }

  async threadOf(thread: AgentThreadKey, now: Date): Promise<AgentThreadMemory | undefined> {
    const [row] = await this.#db.query(
      `SELECT previous, titled FROM agent_threads
       WHERE channel = $1 AND thread_ts = $2 AND expires_at > $3`,
      [thread.channel, thread.threadTs, now],
    );
    if (row === undefined) return undefined;
    const titled = Number(row.titled) === 1;
    return typeof row.previous === 'string'
      ? { previous: JSON.parse(row.previous) as LookupRequest, titled }
      : { titled };
  }

  async lookupStarted(run: AgentRun, now: Date, ttlMs: number): Promise<void> {
    await this.#purge(now);
    await this.#db.query(
      `INSERT INTO agent_lookups (channel, thread_ts, run_id, owner, expires_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (channel, thread_ts) DO UPDATE SET run_id = excluded.run_id,
         owner = excluded.owner, expires_at = excluded.expires_at, stop_requested_at = NULL`,
      [run.channel, run.threadTs, run.runId, run.owner, at(now, ttlMs)],
    );
  }

  async lookupEnded(runId: string): Promise<void> {
    await this.#db.query('DELETE FROM agent_lookups WHERE run_id = $1', [runId]);
  }

  async requestStop(thread: AgentThreadKey, now: Date): Promise<boolean> {
    const rows = await this.#db.query(
      `UPDATE agent_lookups SET stop_requested_at = $3
       WHERE channel = $1 AND thread_ts = $2 AND expires_at > $3
       RETURNING run_id`,
      [thread.channel, thread.threadTs, now],
    );
    return rows.length > 0;
  }

  async stopsFor(owner: string, now: Date, ttlMs: number): Promise<string[]> {
    const rows = await this.#db.query(
      `UPDATE agent_lookups SET expires_at = $2 WHERE owner = $1
       RETURNING run_id, stop_requested_at`,
      [owner, at(now, ttlMs)],
    );
    return rows
      .filter((row) => row.stop_requested_at !== null && row.stop_requested_at !== undefined)
      .map((row) => String(row.run_id));
  }

  /** Deletes what expired, at most once per {@link purgeEveryMs}. */
  async #purge(now: Date): Promise<void> {
    if (now.getTime() - this.#lastPurge < purgeEveryMs) return;
    this.#lastPurge = now.getTime();
    for (const table of ['agent_conversations', 'agent_threads', 'agent_lookups']) {
      await this.#db.query(`DELETE FROM ${table} WHERE expires_at <= $1`, [now]);
    }
  }
}
