/**
 * The outage records in SQL (`digest_outages`), one row per workspace whose digests are on hold;
 * each step is one statement deciding on the row itself, so of several instances exactly one
 * opens, probes or closes an outage.
 */
import type { Outage, OutageCause } from '../../model/digest.ts';
import type { OutageRepository } from '../outages.ts';
import type { SqlRunner } from './executor.ts';
import { rowToOutage } from './rows.ts';

export class SqlOutages implements OutageRepository {
  readonly #db: SqlRunner;

  constructor(db: SqlRunner) {
    this.#db = db;
  }

  async open(teamId: string, cause: OutageCause, now: Date, probeAt: Date): Promise<boolean> {
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

  async list(): Promise<Outage[]> {
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

  async close(teamId: string): Promise<boolean> {
    const rows = await this.#db.query(
      'DELETE FROM digest_outages WHERE team_id = $1 RETURNING team_id',
      [teamId],
    );
    return rows.length > 0;
  }
}
