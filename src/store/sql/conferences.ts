/** The conferences in SQL (`conferences`, `conference_posts`); the same text on both dialects. */
import {
  type Conference,
  type ConferenceEnd,
  type ConferenceSpec,
  type ConferenceState,
  initialConferenceState,
  type NewConference,
  newConferenceId,
} from '../../model/conference.ts';
import { defined } from '../../model/defined.ts';
import type {
  ConferenceClaim,
  ConferencePost,
  ConferenceRepository,
  ConferenceSettings,
} from '../conferences.ts';
import type { SqlExecutor, SqlRow } from './executor.ts';
import { insertWithFreshId, rowToCanvas, toDate } from './rows.ts';

/** What the SQL needs of a dialect's executor. */
export type ConferenceSql = Pick<SqlExecutor, 'dialect' | 'query' | 'transaction'>;

function optionalDate(value: unknown): Date | undefined {
  return value === null || value === undefined ? undefined : toDate(value);
}

export function rowToConference(row: SqlRow): Conference {
  const spec = JSON.parse(String(row.spec)) as ConferenceSpec;
  const state = JSON.parse(String(row.state)) as ConferenceState;
  return {
    ...spec,
    id: String(row.id),
    teamId: String(row.team_id),
    channelId: String(row.channel_id),
    creatorId: String(row.creator_id),
    status: row.status === 'ended' ? 'ended' : 'active',
    ...defined({
      ended:
        row.ended === null || row.ended === undefined
          ? undefined
          : (String(row.ended) as ConferenceEnd),
      stopRequestedAt: optionalDate(row.stop_requested_at),
    }),
    nextRunAt: toDate(row.next_run_at),
    state: { ...initialConferenceState, ...state },
    createdAt: toDate(row.created_at),
    ...defined({ canvas: rowToCanvas(row) }),
  };
}

function specOf(conference: ConferenceSpec): ConferenceSpec {
  return {
    databases: conference.databases,
    firstDay: conference.firstDay,
    lastDay: conference.lastDay,
    zone: conference.zone,
    watch: conference.watch,
    top: conference.top,
    refreshMinutes: conference.refreshMinutes,
    ...defined({ stakeholders: conference.stakeholders }),
  };
}

export class SqlConferences implements ConferenceRepository {
  readonly #sql: ConferenceSql;

  constructor(sql: ConferenceSql) {
    this.#sql = sql;
  }

  async create(input: NewConference, now: Date): Promise<Conference> {
    const row = await insertWithFreshId(newConferenceId, (id) =>
      this.#sql.query(
        `INSERT INTO conferences (id, team_id, channel_id, creator_id, spec, state, status,
             next_run_at, created_at, updated_at, canvas)
           VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $8, $9)
           RETURNING *`,
        [
          id,
          input.teamId,
          input.channelId,
          input.creatorId,
          JSON.stringify(specOf(input)),
          JSON.stringify(initialConferenceState),
          input.nextRunAt,
          now,
          input.canvas === true ? 1 : 0,
        ],
      ),
    );
    return rowToConference(row);
  }

  async get(id: string): Promise<Conference | undefined> {
    const rows = await this.#sql.query('SELECT * FROM conferences WHERE id = $1', [id]);
    return rows[0] ? rowToConference(rows[0]) : undefined;
  }

  async listByChannel(teamId: string, channelId: string): Promise<Conference[]> {
    const rows = await this.#sql.query(
      'SELECT * FROM conferences WHERE team_id = $1 AND channel_id = $2 ORDER BY created_at, id',
      [teamId, channelId],
    );
    return rows.map(rowToConference);
  }

  async listActive(teamId: string): Promise<Conference[]> {
    const rows = await this.#sql.query(
      `SELECT * FROM conferences WHERE team_id = $1 AND status = 'active'
       ORDER BY next_run_at, id`,
      [teamId],
    );
    return rows.map(rowToConference);
  }

  claimDue(
    now: Date,
    options: { readonly limit: number; readonly leaseMs: number; readonly owner: string },
  ): Promise<ConferenceClaim[]> {
    const leaseUntil = new Date(now.getTime() + options.leaseMs);
    // PostgreSQL: rows another claimer holds are skipped, not waited for. SQLite: the write
    // transaction (BEGIN IMMEDIATE) serialises claimers.
    const lock = this.#sql.dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
    return this.#sql.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE conferences SET lease_owner = $1, lease_until = $2
         WHERE id IN (
           SELECT id FROM conferences
           WHERE status = 'active' AND next_run_at <= $3
             AND (lease_until IS NULL OR lease_until <= $3)
           ORDER BY next_run_at, id
           LIMIT $4 ${lock})
         RETURNING *`,
        [options.owner, leaseUntil, now, options.limit],
      );
      return rows.map((row) => ({ conference: rowToConference(row), leaseUntil }));
    });
  }

  async saveState(id: string, owner: string, state: ConferenceState, now: Date): Promise<boolean> {
    const rows = await this.#sql.query(
      `UPDATE conferences SET state = $3, updated_at = $4
       WHERE id = $1 AND lease_owner = $2 RETURNING id`,
      [id, owner, JSON.stringify(state), now],
    );
    return rows.length > 0;
  }

  /** A stop asked for while the run went on makes the conference due at once, not a refresh later. */
  async finish(
    id: string,
    owner: string,
    outcome: {
      readonly state: ConferenceState;
      readonly nextRunAt?: Date;
      readonly ended?: ConferenceEnd;
    },
    now: Date,
  ): Promise<boolean> {
    const rows = await this.#sql.query(
      `UPDATE conferences SET state = $3, updated_at = $4,
         next_run_at = CASE WHEN stop_requested_at IS NOT NULL THEN $4
           ELSE COALESCE($5, next_run_at) END,
         status = CASE WHEN CAST($6 AS TEXT) IS NULL THEN status ELSE 'ended' END,
         ended = COALESCE(CAST($6 AS TEXT), ended),
         lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2 RETURNING id`,
      [
        id,
        owner,
        JSON.stringify(outcome.state),
        now,
        outcome.nextRunAt ?? null,
        outcome.ended ?? null,
      ],
    );
    return rows.length > 0;
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    await this.#sql.query(
      `UPDATE conferences SET lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [id, owner],
    );
  }

  async beginPost(id: string, key: string, owner: string, now: Date): Promise<boolean> {
    const rows = await this.#sql.query(
      `INSERT INTO conference_posts (conference_id, key, status, owner, started_at)
       VALUES ($1, $2, 'posting', $3, $4)
       ON CONFLICT (conference_id, key) DO NOTHING
       RETURNING key`,
      [id, key, owner, now],
    );
    return rows.length > 0;
  }

  async completePost(id: string, key: string, messageTs: string): Promise<void> {
    await this.#sql.query(
      `UPDATE conference_posts SET status = 'posted', message_ts = $3
       WHERE conference_id = $1 AND key = $2`,
      [id, key, messageTs],
    );
  }

  async abandonPost(id: string, key: string): Promise<void> {
    await this.#sql.query(
      `DELETE FROM conference_posts WHERE conference_id = $1 AND key = $2 AND status = 'posting'`,
      [id, key],
    );
  }

  async posts(id: string): Promise<ConferencePost[]> {
    const rows = await this.#sql.query(
      `SELECT key, status, message_ts, started_at, noticed_at FROM conference_posts
       WHERE conference_id = $1 ORDER BY started_at, key`,
      [id],
    );
    return rows.map((row) => ({
      key: String(row.key),
      status: row.status === 'posted' ? 'posted' : 'posting',
      ...defined({ messageTs: row.message_ts === null ? undefined : String(row.message_ts) }),
      startedAt: toDate(row.started_at),
      noticed: row.noticed_at !== null && row.noticed_at !== undefined,
    }));
  }

  async noticePost(id: string, key: string, now: Date): Promise<boolean> {
    const rows = await this.#sql.query(
      `UPDATE conference_posts SET noticed_at = $3
       WHERE conference_id = $1 AND key = $2 AND status = 'posting' AND noticed_at IS NULL
       RETURNING key`,
      [id, key, now],
    );
    return rows.length > 0;
  }

  async requestStop(id: string, now: Date): Promise<Conference | undefined> {
    const rows = await this.#sql.query(
      `UPDATE conferences SET stop_requested_at = COALESCE(stop_requested_at, $2),
         next_run_at = $2, updated_at = $2
       WHERE id = $1 AND status = 'active' RETURNING *`,
      [id, now],
    );
    return rows[0] ? rowToConference(rows[0]) : undefined;
  }

  async dueNow(teamId: string, channelId: string, now: Date): Promise<number> {
    const rows = await this.#sql.query(
      `UPDATE conferences SET next_run_at = $3
       WHERE team_id = $1 AND channel_id = $2 AND status = 'active' AND next_run_at > $3
       RETURNING id`,
      [teamId, channelId, now],
    );
    return rows.length;
  }

  async update(
    id: string,
    settings: ConferenceSettings,
    now: Date,
  ): Promise<Conference | undefined> {
    return this.#sql.transaction(async (tx) => {
      const rows = await tx.query(`SELECT * FROM conferences WHERE id = $1 AND status = 'active'`, [
        id,
      ]);
      const row = rows[0];
      if (!row) return undefined;
      const { canvas, ...changes } = settings;
      const spec = { ...specOf(rowToConference(row)), ...changes };
      const updated = await tx.query(
        `UPDATE conferences SET spec = $2, updated_at = $3,
           canvas = COALESCE(CAST($4 AS INTEGER), canvas)
         WHERE id = $1 RETURNING *`,
        [id, JSON.stringify(spec), now, canvas === undefined ? null : canvas ? 1 : 0],
      );
      return updated[0] ? rowToConference(updated[0]) : undefined;
    });
  }
}
