/**
 * The slots recorded as skipped, read back for the follow-up their creators are told: those
 * skipped for a workspace's outage, and those a runner came to too late.
 */
import type { Digest } from '../../model/digest.ts';
import type { LateCreator, OutageSkips } from '../runs.ts';
import type { SqlRunner } from './executor.ts';
import { rowToDigest, toDate } from './rows.ts';

/**
 * Slots a runner (`$1`) recorded as skipped since `$2` because it came to them too late (`missed`:
 * the app was not running, or fell behind), not for an outage.
 */
const lateSkipsSql = `x.error_code = 'missed' AND x.owner = $1 AND x.started_at >= $2`;

export class SkipRecords {
  readonly #db: SqlRunner;

  constructor(db: SqlRunner) {
    this.#db = db;
  }

  outageSkips(teamId: string, since: Date): Promise<OutageSkips[]> {
    return this.#skips(`d.team_id = $1 AND x.error_code LIKE 'outage:%' AND x.started_at >= $2`, [
      teamId,
      since,
    ]);
  }

  async lateCreators(owner: string, since: Date): Promise<LateCreator[]> {
    const rows = await this.#db.query(
      `SELECT DISTINCT d.team_id, d.creator_id
       FROM digest_deliveries x JOIN digests d ON d.id = x.digest_id
       WHERE x.status = 'skipped' AND ${lateSkipsSql}
       ORDER BY d.team_id, d.creator_id`,
      [owner, since],
    );
    return rows.map((row) => ({ teamId: String(row.team_id), creatorId: String(row.creator_id) }));
  }

  lateSkips(owner: string, since: Date, creator: LateCreator): Promise<OutageSkips[]> {
    return this.#skips(`${lateSkipsSql} AND d.team_id = $3 AND d.creator_id = $4`, [
      owner,
      since,
      creator.teamId,
      creator.creatorId,
    ]);
  }

  /** The digests with skipped records matching `where` (on `d` and `x`), oldest digest first. */
  async #skips(where: string, params: readonly (string | Date)[]): Promise<OutageSkips[]> {
    const rows = await this.#db.query(
      `SELECT d.*, x.slot AS skipped_from, x.skipped_count AS skipped_slots
       FROM digest_deliveries x JOIN digests d ON d.id = x.digest_id
       WHERE x.status = 'skipped' AND ${where}
       ORDER BY d.created_at, d.id, x.slot`,
      params,
    );
    const byDigest = new Map<string, { digest: Digest; runs: { from: Date; count: number }[] }>();
    for (const row of rows) {
      const id = String(row.id);
      let skips = byDigest.get(id);
      if (skips === undefined) {
        skips = { digest: rowToDigest(row), runs: [] };
        byDigest.set(id, skips);
      }
      skips.runs.push({ from: toDate(row.skipped_from), count: Number(row.skipped_slots ?? 1) });
    }
    return [...byDigest.values()];
  }
}
