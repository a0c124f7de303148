/** The request sightings in SQL (`seen_keys`); the same text on both dialects. */
import type { SightingRepository } from '../sightings.ts';
import type { SqlRunner } from './executor.ts';

/** Expired keys are deleted at most this often per database, beside a sighting, not on a timer. */
const purgeEveryMs = 60_000;

export class SqlSightings implements SightingRepository {
  readonly #sql: SqlRunner;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(sql: SqlRunner) {
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
