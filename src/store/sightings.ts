/**
 * Keys remembered for a while by every instance that shares the store: the signatures of requests
 * already handled (a replay within five minutes is refused) and the ids of events already answered
 * (Slack redelivers an event it thinks was missed, maybe to another instance).
 */

/** Keys shared by every instance for a while; see `SqlSightings`. */
export interface Sightings {
  /** True the first time `key` is seen within `ttlMs`; of concurrent callers, exactly one. */
  firstSighting(key: string, now: Date, ttlMs: number): Promise<boolean>;
}

/** What it needs of an adapter's executor (`SqlRunner`), named here so sql.ts can build it. */
interface Runner {
  query(sql: string, params?: readonly (string | Date)[]): Promise<readonly unknown[]>;
}

/** Expired keys are deleted at most this often per store, beside a sighting, not on a timer. */
const purgeEveryMs = 60_000;

export class SqlSightings {
  readonly #sql: Runner;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(sql: Runner) {
    this.#sql = sql;
  }

  /**
   * True when no live record of `key` existed: the key is now remembered until `now + ttlMs`. An
   * expired record counts as none and is renewed. Atomic, so of two instances sighting the same key
   * at once exactly one is first.
   */
  async firstSighting(key: string, now: Date, ttlMs: number): Promise<boolean> {
    if (now.getTime() - this.#lastPurge >= purgeEveryMs) {
      this.#lastPurge = now.getTime();
      await this.#sql.query('DELETE FROM seen_keys WHERE expires_at <= $1', [now]);
    }
    const rows = await this.#sql.query(
      `INSERT INTO seen_keys (key, expires_at) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at
         WHERE seen_keys.expires_at <= $3
       RETURNING key`,
      [key, new Date(now.getTime() + ttlMs), now],
    );
    return rows.length > 0;
  }
}
