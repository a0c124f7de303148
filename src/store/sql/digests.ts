/**
 * The digests in SQL (`digests`): their rows, the claims and leases of due digests, and the
 * pauses of a workspace the app left. The claim statement itself is the dialect's
 * (`SqlExecutor.claimRows`); everything else is the same text on both dialects.
 */
import { DigestNotFoundError } from '../../errors.ts';
import type { Digest, NewDigest, PauseReason, WorkspaceGone } from '../../model/digest.ts';
import { newDigestId } from '../../model/digest.ts';
import type { Claim, ClaimOptions, DigestRepository, DigestSettings } from '../digests.ts';
import type { SqlExecutor } from './executor.ts';
import { encodePauseReason, insertWithFreshId, rowToDigest, toDate } from './rows.ts';

/** Digests paused because the app left their workspace, by their stored reason. */
const pausedWhileGoneSql = `status = 'paused' AND paused_reason IN ('app_uninstalled', 'tokens_revoked')`;

export class SqlDigests implements DigestRepository {
  readonly #sql: SqlExecutor;

  constructor(executor: SqlExecutor) {
    this.#sql = executor;
  }

  async create(input: NewDigest, now: Date): Promise<Digest> {
    const row = await insertWithFreshId(newDigestId, (id) =>
      this.#sql.query(
        `INSERT INTO digests (id, team_id, channel_id, creator_id, databases, schedule, run_window,
             top, post_when, metric, presentation, account, stakeholders, order_by, canvas, status,
             consecutive_failures, next_run_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13, $14, $15, $16, $17, 'active', 0,
             $9, $10, $10)
           RETURNING *`,
        [
          id,
          input.teamId,
          input.channelId,
          input.creatorId,
          JSON.stringify(input.databases),
          JSON.stringify(input.schedule),
          JSON.stringify(input.window),
          input.top,
          input.nextRunAt,
          now,
          input.postWhen ?? 'always',
          input.metric ?? null,
          input.presentation ?? 'list',
          input.account ?? null,
          input.stakeholders === undefined ? null : JSON.stringify(input.stakeholders),
          input.orderBy ?? null,
          input.canvas === true ? 1 : 0,
        ],
      ),
    );
    return rowToDigest(row);
  }

  async get(id: string): Promise<Digest | undefined> {
    const rows = await this.#sql.query('SELECT * FROM digests WHERE id = $1', [id]);
    return rows[0] ? rowToDigest(rows[0]) : undefined;
  }

  async listByChannel(teamId: string, channelId: string): Promise<Digest[]> {
    const rows = await this.#sql.query(
      'SELECT * FROM digests WHERE team_id = $1 AND channel_id = $2 ORDER BY created_at, id',
      [teamId, channelId],
    );
    return rows.map(rowToDigest);
  }

  async listByCreator(teamId: string, creatorId: string): Promise<Digest[]> {
    const rows = await this.#sql.query(
      'SELECT * FROM digests WHERE team_id = $1 AND creator_id = $2 ORDER BY created_at, id',
      [teamId, creatorId],
    );
    return rows.map(rowToDigest);
  }

  async pause(id: string, now: Date, reason?: PauseReason): Promise<Digest> {
    const rows = await this.#sql.query(
      `UPDATE digests SET status = 'paused', paused_reason = $2, updated_at = $3
       WHERE id = $1 RETURNING *`,
      [id, encodePauseReason(reason), now],
    );
    if (!rows[0]) throw new DigestNotFoundError(id);
    return rowToDigest(rows[0]);
  }

  async resume(id: string, now: Date, nextRunAt: Date): Promise<Digest> {
    const rows = await this.#sql.query(
      `UPDATE digests SET status = 'active', paused_reason = NULL, consecutive_failures = 0,
         next_run_at = $2, updated_at = $3
       WHERE id = $1 RETURNING *`,
      [id, nextRunAt, now],
    );
    if (!rows[0]) throw new DigestNotFoundError(id);
    return rowToDigest(rows[0]);
  }

  async update(id: string, settings: DigestSettings, now: Date): Promise<Digest> {
    const rows = await this.#sql.query(
      `UPDATE digests SET schedule = $2, run_window = $3, top = $4, presentation = $6,
         post_when = $7, next_run_at = COALESCE($8, next_run_at), updated_at = $9,
         last_ranking = CASE WHEN metric IS NOT DISTINCT FROM $5
           AND stakeholders IS NOT DISTINCT FROM $10 AND order_by IS NOT DISTINCT FROM $11
           THEN last_ranking END,
         metric = $5, stakeholders = $10, order_by = $11,
         canvas = COALESCE($12, canvas),
         canvas_told = CASE WHEN $12 = 1 AND canvas = 0 THEN NULL ELSE canvas_told END,
         canvas_problem = CASE WHEN $12 = 1 AND canvas = 0 THEN NULL ELSE canvas_problem END,
         canvas_creating_until = CASE WHEN $12 = 1 AND canvas = 0
           AND canvas_problem IN ('channel_canvas_taken', 'canvases_unavailable', 'edits_unavailable')
           THEN NULL ELSE canvas_creating_until END
       WHERE id = $1 RETURNING *`,
      [
        id,
        JSON.stringify(settings.schedule),
        JSON.stringify(settings.window),
        settings.top,
        settings.metric ?? null,
        settings.presentation,
        settings.postWhen,
        settings.nextRunAt ?? null,
        now,
        settings.stakeholders === undefined ? null : JSON.stringify(settings.stakeholders),
        settings.orderBy ?? null,
        settings.canvas === undefined ? null : settings.canvas ? 1 : 0,
      ],
    );
    if (!rows[0]) throw new DigestNotFoundError(id);
    return rowToDigest(rows[0]);
  }

  async remove(id: string): Promise<boolean> {
    return this.#sql.transaction(async (tx) => {
      await tx.query('DELETE FROM digest_deliveries WHERE digest_id = $1', [id]);
      await tx.query('DELETE FROM digest_runs WHERE digest_id = $1', [id]);
      const rows = await tx.query('DELETE FROM digests WHERE id = $1 RETURNING id', [id]);
      return rows.length > 0;
    });
  }

  async claimDue(now: Date, options: ClaimOptions): Promise<Claim[]> {
    const rows = await this.#sql.claimRows(now, options);
    return rows
      .map((row) => {
        const digest = rowToDigest(row);
        return { digest, slot: digest.nextRunAt, leaseUntil: toDate(row.lease_until) };
      })
      .sort(
        (a, b) => a.slot.getTime() - b.slot.getTime() || a.digest.id.localeCompare(b.digest.id),
      );
  }

  async releaseLease(digestId: string, owner: string): Promise<void> {
    await this.#sql.query(
      'UPDATE digests SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2',
      [digestId, owner],
    );
  }

  async renewLeases(owner: string, now: Date, leaseMs: number): Promise<number> {
    const rows = await this.#sql.query(
      `UPDATE digests SET lease_until = CASE WHEN lease_until > $2 THEN lease_until ELSE $2 END
       WHERE lease_owner = $1
       RETURNING id`,
      [owner, new Date(now.getTime() + leaseMs)],
    );
    return rows.length;
  }

  async teamCreators(teamId: string): Promise<string[]> {
    const rows = await this.#sql.query(
      `SELECT DISTINCT creator_id FROM digests
       WHERE team_id = $1 AND status = 'active' ORDER BY creator_id`,
      [teamId],
    );
    return rows.map((row) => String(row.creator_id));
  }

  async pauseWorkspace(teamId: string, kind: WorkspaceGone, now: Date): Promise<number> {
    const rows = await this.#sql.query(
      `UPDATE digests SET status = 'paused', paused_reason = $2, updated_at = $3
       WHERE team_id = $1 AND status = 'active'
       RETURNING id`,
      [teamId, encodePauseReason({ kind }), now],
    );
    return rows.length;
  }

  async workspacesGone(): Promise<string[]> {
    const rows = await this.#sql.query(
      `SELECT DISTINCT team_id FROM digests WHERE ${pausedWhileGoneSql} ORDER BY team_id`,
    );
    return rows.map((row) => String(row.team_id));
  }

  async pausedWhileGone(teamId: string): Promise<Digest[]> {
    const rows = await this.#sql.query(
      `SELECT * FROM digests WHERE team_id = $1 AND ${pausedWhileGoneSql} ORDER BY created_at, id`,
      [teamId],
    );
    return rows.map(rowToDigest);
  }

  async resumeFromGone(id: string, now: Date, nextRunAt: Date): Promise<Digest | undefined> {
    const rows = await this.#sql.query(
      `UPDATE digests SET status = 'active', paused_reason = NULL, consecutive_failures = 0,
         next_run_at = $2, updated_at = $3
       WHERE id = $1 AND ${pausedWhileGoneSql}
       RETURNING *`,
      [id, nextRunAt, now],
    );
    return rows[0] ? rowToDigest(rows[0]) : undefined;
  }
}
