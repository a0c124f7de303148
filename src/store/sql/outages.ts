/**
 * What both adapters keep per workspace: its outage record (one row per workspace whose digests
 * are on hold, written so that of several instances exactly one opens, probes or closes it at a
 * time) and its digests paused because the app left it.
 */
import type { Digest, Outage, OutageCause, WorkspaceGone } from '../../model/digest.ts';
import type { LateCreator, OutageSkips } from '../digests.ts';
import { encodePauseReason, rowToDigest, rowToOutage, type SqlRunner, toDate } from './rows.ts';

/**
 * Slots a runner (`$1`) recorded as skipped since `$2` because it came to them too late (`missed`:
 * the app was not running, or fell behind), not for an outage.
 */
const lateSkipsSql = `x.error_code = 'missed' AND x.owner = $1 AND x.started_at >= $2`;

/** Digests paused because the app left their workspace, by their stored reason. */
const pausedWhileGoneSql = `status = 'paused' AND paused_reason IN ('app_uninstalled', 'tokens_revoked')`;

export class TeamRecords {
  readonly #db: SqlRunner;

  constructor(db: SqlRunner) {
    this.#db = db;
  }

  async openOutage(teamId: string, cause: OutageCause, now: Date, probeAt: Date): Promise<boolean> {
    const opened = await this.#db.query(
      `INSERT INTO digest_outages (team_id, cause, since, probe_at, probes)
       VALUES ($1, $2, $3, $4, 0)
       ON CONFLICT (team_id) DO NOTHING
       RETURNING team_id`,
      [teamId, cause, now, probeAt],
    );
    if (opened.length > 0) return true;
    await this.#db.query(
      `UPDATE digest_outages SET cause = $2,
         probe_at = CASE WHEN probe_at < $3 THEN $3 ELSE probe_at END
       WHERE team_id = $1`,
      [teamId, cause, probeAt],
    );
    return false;
  }

  async outages(): Promise<Outage[]> {
    const rows = await this.#db.query('SELECT * FROM digest_outages ORDER BY team_id');
    return rows.map(rowToOutage);
  }

  async claimProbe(teamId: string, now: Date, nextProbeAt: Date): Promise<boolean> {
    const rows = await this.#db.query(
      `UPDATE digest_outages SET probe_at = $3, probes = probes + 1
       WHERE team_id = $1 AND probe_at <= $2
       RETURNING team_id`,
      [teamId, now, nextProbeAt],
    );
    return rows.length > 0;
  }

  async closeOutage(teamId: string): Promise<boolean> {
    const rows = await this.#db.query(
      'DELETE FROM digest_outages WHERE team_id = $1 RETURNING team_id',
      [teamId],
    );
    return rows.length > 0;
  }

  async teamCreators(teamId: string): Promise<string[]> {
    const rows = await this.#db.query(
      `SELECT DISTINCT creator_id FROM digests
       WHERE team_id = $1 AND status = 'active' ORDER BY creator_id`,
      [teamId],
    );
    return rows.map((row) => String(row.creator_id));
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

  async pauseWorkspace(teamId: string, kind: WorkspaceGone, now: Date): Promise<number> {
    const rows = await this.#db.query(
      `UPDATE digests SET status = 'paused', paused_reason = $2, updated_at = $3
       WHERE team_id = $1 AND status = 'active'
       RETURNING id`,
      [teamId, encodePauseReason({ kind }), now],
    );
    return rows.length;
  }

  async workspacesGone(): Promise<string[]> {
    const rows = await this.#db.query(
      `SELECT DISTINCT team_id FROM digests WHERE ${pausedWhileGoneSql} ORDER BY team_id`,
    );
    return rows.map((row) => String(row.team_id));
  }

  async pausedWhileGone(teamId: string): Promise<Digest[]> {
    const rows = await this.#db.query(
      `SELECT * FROM digests WHERE team_id = $1 AND ${pausedWhileGoneSql} ORDER BY created_at, id`,
      [teamId],
    );
    return rows.map(rowToDigest);
  }

  async resumeFromGone(id: string, now: Date, nextRunAt: Date): Promise<Digest | undefined> {
    const rows = await this.#db.query(
      `UPDATE digests SET status = 'active', paused_reason = NULL, consecutive_failures = 0,
         next_run_at = $2, updated_at = $3
       WHERE id = $1 AND ${pausedWhileGoneSql}
       RETURNING *`,
      [id, nextRunAt, now],
    );
    return rows[0] ? rowToDigest(rows[0]) : undefined;
  }
}
