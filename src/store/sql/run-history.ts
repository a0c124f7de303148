/**
 * What both dialects read and prune of the run history (`digest_runs`): the latest runs of a
 * digest, newest first, and no more than `runsKept` of them.
 */
import type { DigestRun } from '../../model/digest-run.ts';
import { runsKept, type SlotCompletion } from '../runs.ts';
import type { SqlRunner } from './executor.ts';
import { rowToRun } from './rows.ts';

export class RunRecords {
  readonly #db: SqlRunner;

  constructor(db: SqlRunner) {
    this.#db = db;
  }

  async recent(digestId: string, limit: number): Promise<DigestRun[]> {
    const rows = await this.#db.query(
      'SELECT * FROM digest_runs WHERE digest_id = $1 ORDER BY slot DESC LIMIT $2',
      [digestId, limit],
    );
    return rows.map(rowToRun);
  }

  /**
   * Keeps each digest's latest runs only, after a set-based completion (a sequential one prunes
   * inside its own transaction). Apart from the completion's statement: a failure here leaves a
   * few runs more, never one less.
   */
  async prune(completions: readonly SlotCompletion[]): Promise<void> {
    const digestIds = [
      ...new Set(
        completions
          .filter((item) => item.completion.run !== undefined)
          .map((item) => item.digestId),
      ),
    ];
    if (digestIds.length === 0) return;
    await this.#db.query(
      `DELETE FROM digest_runs AS r USING (
         SELECT digest_id, slot,
           row_number() OVER (PARTITION BY digest_id ORDER BY slot DESC) AS newer
         FROM digest_runs WHERE digest_id = ANY($1::text[])) AS x
       WHERE r.digest_id = x.digest_id AND r.slot = x.slot AND x.newer > ${runsKept}`,
      [digestIds],
    );
  }
}
