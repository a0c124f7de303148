/**
 * The slots recorded as skipped, read back for the follow-up their creators are told: those
 * skipped for a workspace's outage, and those a runner came to too late.
 */
import type { Digest } from '../../model/digest.ts';
import type { LateCreator, OutageSkips } from '../runs.ts';
import type { SqlRunner } from './executor.ts';
import { rowToDigest, toDate } from './rows.ts';

/**
 * Slots recorded as skipped because a runner came to them too late (`missed`: the app was not
 * running, or fell behind), not for an outage, whose creator has not been told yet.
 */
const untoldLateSql = `x.status = 'skipped' AND x.error_code = 'missed' AND x.noticed_at IS NULL`;

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

  async lateCreators(): Promise<LateCreator[]> {
    const rows = await this.#db.query(
      `SELECT DISTINCT d.team_id, d.creator_id
       FROM digest_deliveries x JOIN digests d ON d.id = x.digest_id
       WHERE ${untoldLateSql}
       ORDER BY d.team_id, d.creator_id`,
    );
    return rows.map((row) => ({ teamId: String(row.team_id), creatorId: String(row.creator_id) }));
  }

  /**
   * One statement marks the creator's untold late skips told and returns them, so of several
   * instances asking at once each record goes to one.
   */
  async takeLate(creator: LateCreator, now: Date): Promise<OutageSkips[]> {
    const taken = await this.#db.query(
      `UPDATE digest_deliveries SET noticed_at = $1
       WHERE status = 'skipped' AND error_code = 'missed' AND noticed_at IS NULL
         AND digest_id IN (SELECT id FROM digests WHERE team_id = $2 AND creator_id = $3)
       RETURNING digest_id, slot, skipped_count`,
      [now, creator.teamId, creator.creatorId],
    );
    const byDigest = new Map<string, { from: Date; count: number }[]>();
    for (const row of taken) {
      const id = String(row.digest_id);
      const runs = byDigest.get(id) ?? [];
      runs.push({ from: toDate(row.slot), count: Number(row.skipped_count ?? 1) });
      byDigest.set(id, runs);
    }
    const skips: OutageSkips[] = [];
    for (const [id, runs] of byDigest) {
      const [row] = await this.#db.query('SELECT * FROM digests WHERE id = $1', [id]);
      if (row === undefined) continue;
      runs.sort((a, b) => a.from.getTime() - b.from.getTime());
      skips.push({ digest: rowToDigest(row), runs });
    }
    return skips.sort(
      (a, b) =>
        a.digest.createdAt.getTime() - b.digest.createdAt.getTime() ||
        a.digest.id.localeCompare(b.digest.id),
    );
  }

  async untakeLate(records: readonly { readonly digestId: string; readonly slot: Date }[]) {
    for (const { digestId, slot } of records) {
      await this.#db.query(
        `UPDATE digest_deliveries SET noticed_at = NULL
         WHERE digest_id = $1 AND slot = $2 AND status = 'skipped' AND error_code = 'missed'`,
        [digestId, slot],
      );
    }
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
