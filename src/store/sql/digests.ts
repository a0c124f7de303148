/**
 * The DigestStore logic shared by both adapters. SQL is written once with `$1` placeholders; each
 * adapter supplies an executor that runs it (SQLite renumbers them, stores instants as epoch
 * milliseconds and JSON as text; PostgreSQL uses timestamptz and jsonb) plus its own claim query.
 */

import type { DigestRun } from '../../digests/runs.ts';
import { DigestNotFoundError } from '../../errors.ts';
import type { CanvasProblem, CanvasWrite } from '../../model/canvas.ts';
import type { Digest, NewDigest, PauseReason } from '../../model/digest.ts';
import { newDigestId } from '../../model/digest.ts';
import type { ConferenceStore } from '../conferences.ts';
import type {
  BeginDeliveryResult,
  Claim,
  ClaimOptions,
  Completion,
  Delivery,
  DeliveryStart,
  DigestSettings,
  DigestStore,
  SkipRecord,
  SlotCompletion,
  UnconfirmedPost,
} from '../digests.ts';
import { SqlSightings } from '../sightings.ts';
import { CanvasRecords } from './canvases.ts';
import { SqlConferenceStore } from './conferences.ts';
import { TeamRecords } from './outages.ts';
import {
  encodePauseReason,
  encodeProblem,
  encodeSkipReason,
  insertWithFreshId,
  rowToDelivery,
  rowToDigest,
  type SqlRow,
  type SqlRunner,
  toDate,
} from './rows.ts';
import { RunRecords } from './run-history.ts';
import {
  completionAssignments,
  completionFields,
  completionValues,
  failedMayOverwrite,
  postedMayOverwrite,
  pruneRunsSql,
  skippedMayOverwrite,
} from './statements.ts';
import { UnconfirmedRecords } from './unconfirmed.ts';

export type { SqlRow, SqlRunner, SqlScalar, SqlValue } from './rows.ts';

export interface SqlExecutor extends SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `work` in one write transaction (SQLite: BEGIN IMMEDIATE); rolls back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** Leases due digests atomically and returns their rows (with `next_run_at` as the slot). */
  claimRows(now: Date, options: ClaimOptions): Promise<SqlRow[]>;
  /**
   * Set-based `beginDeliveries` for items with distinct (digest, slot) keys, one statement: a row
   * per item in input order with `started` and, when not started, the record's columns as the
   * statement saw them (absent when another transaction created it meanwhile). Dialects without
   * it run the single-item statements for every item inside one transaction instead.
   */
  beginDeliveryRows?(db: SqlRunner, starts: readonly DeliveryStart[]): Promise<SqlRow[]>;
  /** Set-based `completeMany` for items with distinct digests, one statement. */
  completeRows?(db: SqlRunner, completions: readonly SlotCompletion[]): Promise<void>;
  migrate(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Splits a batch into rounds in which no key repeats, each key's occurrences in their order, so a
 * set-based statement (which may touch a row only once) over each round, run one round after the
 * other, does what the single calls in sequence would.
 */
function rounds<T>(items: readonly T[], key: (item: T) => string): { item: T; index: number }[][] {
  const seen = new Map<string, number>();
  const result: { item: T; index: number }[][] = [];
  items.forEach((item, index) => {
    const k = key(item);
    const round = seen.get(k) ?? 0;
    seen.set(k, round + 1);
    let group = result[round];
    if (!group) {
      group = [];
      result[round] = group;
    }
    group.push({ item, index });
  });
  return result;
}

const acceptedParam = `$${completionFields.length + 2}`;

/**
 * One completion's bookkeeping: `$1` the digest, then the completion's fields in order, then 1
 * when the completion was accepted (0 otherwise).
 */
const completeOneSql = `UPDATE digests SET
           ${completionAssignments('', (field) => `$${completionFields.indexOf(field) + 2}`, `${acceptedParam} = 1`)}
         WHERE id = $1`;

/** Runs `work` on each item, one after the other (inside one transaction). */
async function sequentially<T, R>(
  items: readonly T[],
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await work(item));
  return results;
}

const slotKey = (item: { digestId: string; slot: Date }) =>
  `${item.digestId}\u0000${item.slot.getTime()}`;

export class SqlDigestStore extends TeamRecords implements DigestStore {
  readonly dialect: 'sqlite' | 'postgres';
  readonly conferences: ConferenceStore;
  readonly #sql: SqlExecutor;
  readonly #sightings: SqlSightings;
  readonly #unconfirmed: UnconfirmedRecords;
  readonly #canvases: CanvasRecords;
  readonly #runs: RunRecords;

  constructor(executor: SqlExecutor) {
    super(executor);
    this.#sql = executor;
    this.dialect = executor.dialect;
    this.#sightings = new SqlSightings(executor);
    this.#unconfirmed = new UnconfirmedRecords(executor);
    this.#canvases = new CanvasRecords(executor);
    this.#runs = new RunRecords(executor);
    this.conferences = new SqlConferenceStore(executor);
  }

  firstSighting(key: string, now: Date, ttlMs: number): Promise<boolean> {
    return this.#sightings.firstSighting(key, now, ttlMs);
  }

  migrate(): Promise<number> {
    return this.#sql.migrate();
  }

  async ping(): Promise<void> {
    await this.#sql.query('SELECT 1');
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
         canvas_problem = CASE WHEN $12 = 1 AND canvas = 0 THEN NULL ELSE canvas_problem END
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

  async beginDelivery(
    digestId: string,
    slot: Date,
    owner: string,
    now: Date,
  ): Promise<BeginDeliveryResult> {
    const start = { digestId, slot, owner, now };
    if (this.#sql.beginDeliveryRows) {
      const [result] = await this.beginDeliveries([start]);
      if (!result) throw new Error('beginDeliveries returned no result');
      return result;
    }
    return this.#sql.transaction((tx) => this.#beginOne(tx, start));
  }

  async beginDeliveries(starts: readonly DeliveryStart[]): Promise<BeginDeliveryResult[]> {
    const results: BeginDeliveryResult[] = new Array(starts.length);
    const groups = rounds(starts, slotKey);
    const setBased = this.#sql.beginDeliveryRows !== undefined;
    const work = async (db: SqlRunner) => {
      for (const group of groups) {
        const items = group.map(({ item }) => item);
        const outcomes = setBased
          ? await this.#beginSetBased(db, items)
          : await sequentially(items, (item) => this.#beginOne(db, item));
        group.forEach(({ index }, i) => {
          const outcome = outcomes[i];
          if (outcome) results[index] = outcome;
        });
      }
    };
    if (groups.length === 0) return [];
    // One set-based statement is atomic by itself: no transaction, one round trip.
    if (setBased && groups.length === 1) await work(this.#sql);
    else await this.#sql.transaction(work);
    return results;
  }

  async #beginOne(db: SqlRunner, start: DeliveryStart): Promise<BeginDeliveryResult> {
    const { digestId, slot, owner, now } = start;
    const taken = await db.query(
      `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at)
       VALUES ($1, $2, 'posting', $3, $4)
       ON CONFLICT (digest_id, slot) DO UPDATE
         SET status = 'posting', owner = excluded.owner, started_at = excluded.started_at,
             finished_at = NULL, error_code = NULL
         WHERE digest_deliveries.status = 'failed'
       RETURNING digest_id`,
      [digestId, slot, owner, now],
    );
    if (taken.length > 0) return { kind: 'started' } as const;
    return { kind: 'already', delivery: await this.#existingDelivery(db, digestId, slot) } as const;
  }

  async #beginSetBased(
    db: SqlRunner,
    starts: readonly DeliveryStart[],
  ): Promise<BeginDeliveryResult[]> {
    const rows = await this.#sql.beginDeliveryRows?.(db, starts);
    if (!rows || rows.length !== starts.length) {
      throw new Error('set-based beginDeliveries returned a row count unlike its input');
    }
    return Promise.all(
      starts.map(async (start, i): Promise<BeginDeliveryResult> => {
        const row = rows[i] as SqlRow;
        if (row.started === true) return { kind: 'started' };
        // Created by another transaction after this statement's snapshot: read it now.
        if (row.status === null || row.status === undefined) {
          return {
            kind: 'already',
            delivery: await this.#existingDelivery(db, start.digestId, start.slot),
          };
        }
        return { kind: 'already', delivery: rowToDelivery(row) };
      }),
    );
  }

  async #existingDelivery(db: SqlRunner, digestId: string, slot: Date): Promise<Delivery> {
    const existing = await db.query(
      'SELECT * FROM digest_deliveries WHERE digest_id = $1 AND slot = $2',
      [digestId, slot],
    );
    if (!existing[0]) throw new Error('delivery record vanished inside its transaction');
    return rowToDelivery(existing[0]);
  }

  async complete(digestId: string, slot: Date, completion: Completion): Promise<void> {
    if (this.#sql.completeRows) return this.completeMany([{ digestId, slot, completion }]);
    await this.#sql.transaction((tx) => this.#completeOne(tx, { digestId, slot, completion }));
  }

  async completeMany(completions: readonly SlotCompletion[]): Promise<void> {
    const groups = rounds(completions, (item) => item.digestId);
    const completeRows = this.#sql.completeRows?.bind(this.#sql);
    const work = async (db: SqlRunner) => {
      for (const group of groups) {
        const items = group.map(({ item }) => item);
        if (completeRows) await completeRows(db, items);
        else await sequentially(items, (item) => this.#completeOne(db, item));
      }
    };
    if (groups.length === 0) return;
    if (completeRows && groups.length === 1) await work(this.#sql);
    else await this.#sql.transaction(work);
    if (completeRows) await this.#runs.prune(completions);
  }

  recentRuns(digestId: string, limit: number): Promise<DigestRun[]> {
    return this.#runs.recent(digestId, limit);
  }

  /** Runs inside a write transaction, so the record read here cannot change before the write. */
  async #completeOne(db: SqlRunner, item: SlotCompletion): Promise<void> {
    const { digestId, slot, completion } = item;
    let accepted: boolean;
    if (completion.outcome === 'posted') {
      const written = await db.query(
        `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at, finished_at, message_ts)
         VALUES ($1, $2, 'posted', $3, $4, $4, $5)
         ON CONFLICT (digest_id, slot) DO UPDATE
           SET status = 'posted', finished_at = excluded.finished_at,
               message_ts = excluded.message_ts, error_code = NULL
           WHERE ${postedMayOverwrite('digest_deliveries', 'excluded')}
         RETURNING digest_id`,
        [digestId, slot, completion.owner, completion.at, completion.messageTs ?? null],
      );
      accepted = written.length > 0;
    } else if (completion.outcome === 'skipped') {
      const written = await db.query(
        `INSERT INTO digest_deliveries
           (digest_id, slot, status, owner, started_at, finished_at, error_code, skipped_count)
         VALUES ($1, $2, 'skipped', $3, $4, $4, $5, 1)
         ON CONFLICT (digest_id, slot) DO UPDATE
           SET status = 'skipped', finished_at = excluded.finished_at,
               error_code = excluded.error_code, skipped_count = 1
           WHERE ${skippedMayOverwrite('digest_deliveries')}
         RETURNING digest_id`,
        [
          digestId,
          slot,
          completion.owner,
          completion.at,
          encodeSkipReason(completion.skipReason ?? { kind: 'missed' }),
        ],
      );
      accepted = written.length > 0;
    } else if (completion.outcome === 'failed') {
      const written = await db.query(
        `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at, finished_at, error_code)
         VALUES ($1, $2, 'failed', $3, $4, $4, $5)
         ON CONFLICT (digest_id, slot) DO UPDATE
           SET status = 'failed', finished_at = excluded.finished_at, error_code = excluded.error_code
           WHERE ${failedMayOverwrite('digest_deliveries', 'excluded')}
         RETURNING digest_id`,
        [digestId, slot, completion.owner, completion.at, encodeProblem(completion) ?? 'unknown'],
      );
      accepted = written.length > 0;
    } else {
      const settled = await db.query(
        `SELECT 1 FROM digest_deliveries WHERE digest_id = $1 AND slot = $2 AND status <> 'posting'`,
        [digestId, slot],
      );
      accepted = settled.length === 0;
    }
    const values = completionValues(item);
    if (accepted && completion.outcome !== 'unconfirmed') {
      await db.query(
        `INSERT INTO digest_runs (digest_id, slot, outcome, reason, run, recorded_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (digest_id, slot) DO UPDATE
           SET outcome = excluded.outcome, reason = excluded.reason, run = excluded.run,
               recorded_at = excluded.recorded_at`,
        [digestId, slot, completion.outcome, values.error_code, values.run, completion.at],
      );
      // In the completion's own transaction: SQLite commits once per batch, not once per prune.
      await db.query(pruneRunsSql, [digestId]);
    }
    await db.query(completeOneSql, [
      digestId,
      ...completionFields.map((field) => values[field]),
      accepted ? 1 : 0,
    ]);
  }

  async recordSkipped(digestId: string, slot: Date, skip: SkipRecord): Promise<void> {
    await this.#sql.transaction(async (tx) => {
      // A slot another runner is posting or has settled keeps its record and its last run.
      const inserted = await tx.query(
        `INSERT INTO digest_deliveries
           (digest_id, slot, status, owner, started_at, finished_at, skipped_count, error_code)
         VALUES ($1, $2, 'skipped', $3, $4, $4, $5, $6)
         ON CONFLICT (digest_id, slot) DO NOTHING
         RETURNING digest_id`,
        [digestId, slot, skip.owner, skip.at, skip.count, encodeSkipReason(skip.reason)],
      );
      if (inserted.length > 0) {
        await tx.query(
          `INSERT INTO digest_runs (digest_id, slot, outcome, reason, recorded_at)
           VALUES ($1, $2, 'skipped', $3, $4)
           ON CONFLICT (digest_id, slot) DO NOTHING`,
          [digestId, slot, encodeSkipReason(skip.reason), skip.at],
        );
      }
      const newest = `$6 = 1 AND (last_run_slot IS NULL OR last_run_slot < $2)`;
      await tx.query(
        `UPDATE digests SET
           next_run_at = CASE WHEN next_run_at <= $2 THEN $3 ELSE next_run_at END,
           last_run_slot = CASE WHEN ${newest} THEN $2 ELSE last_run_slot END,
           last_run_outcome = CASE WHEN ${newest} THEN 'skipped' ELSE last_run_outcome END,
           last_run_at = CASE WHEN ${newest} THEN $4 ELSE last_run_at END,
           last_run_error = CASE WHEN ${newest} THEN $7 ELSE last_run_error END,
           last_run_ts = CASE WHEN ${newest} THEN NULL ELSE last_run_ts END,
           lease_owner = CASE WHEN lease_owner = $5 THEN NULL ELSE lease_owner END,
           lease_until = CASE WHEN lease_owner = $5 THEN NULL ELSE lease_until END,
           updated_at = $4
         WHERE id = $1`,
        [
          digestId,
          slot,
          skip.nextRunAt,
          skip.at,
          skip.owner,
          inserted.length > 0 ? 1 : 0,
          encodeSkipReason(skip.reason),
        ],
      );
    });
  }

  async getDelivery(digestId: string, slot: Date): Promise<Delivery | undefined> {
    const rows = await this.#sql.query(
      'SELECT * FROM digest_deliveries WHERE digest_id = $1 AND slot = $2',
      [digestId, slot],
    );
    return rows[0] ? rowToDelivery(rows[0]) : undefined;
  }

  async hasDelivered(digestId: string, slot: Date): Promise<boolean> {
    return (await this.getDelivery(digestId, slot))?.status === 'posted';
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

  async abandonDelivery(digestId: string, slot: Date, owner: string): Promise<boolean> {
    const rows = await this.#sql.query(
      `DELETE FROM digest_deliveries
       WHERE digest_id = $1 AND slot = $2 AND owner = $3 AND status = 'posting'
       RETURNING digest_id`,
      [digestId, slot, owner],
    );
    return rows.length > 0;
  }

  takeUnconfirmed(now: Date, startedBefore: Date): Promise<UnconfirmedPost[]> {
    return this.#unconfirmed.take(now, startedBefore);
  }

  untakeUnconfirmed(digestId: string, slot: Date): Promise<void> {
    return this.#unconfirmed.untake(digestId, slot);
  }

  retakeUnconfirmed(
    digestId: string,
    slot: Date,
    owner: string,
    by: string,
    now: Date,
  ): Promise<BeginDeliveryResult> {
    return this.#unconfirmed.retake(digestId, slot, owner, by, now);
  }

  recordCanvas(id: string, write: CanvasWrite, now: Date): Promise<void> {
    return this.#canvases.record(id, write, now);
  }

  claimCanvasCreation(id: string, now: Date, until: Date): Promise<boolean> {
    return this.#canvases.claimCreation(id, now, until);
  }

  markCanvasTold(id: string, problem: CanvasProblem): Promise<boolean> {
    return this.#canvases.markTold(id, problem);
  }

  close(): Promise<void> {
    return this.#sql.close();
  }
}
