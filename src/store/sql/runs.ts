/**
 * The slots of digests in SQL: their delivery records (`digest_deliveries`), the completion that
 * settles a slot with its digest's bookkeeping and its run (`digest_runs`) in one transaction, and
 * the skipped and unconfirmed slots read back for their follow-up. Written once with `$1`
 * placeholders for both dialects; PostgreSQL adds set-based forms of the batches
 * (`SqlExecutor.beginDeliveryRows`, `completeRows`).
 */
import type { DigestRun } from '../../model/digest-run.ts';
import type {
  BeginDeliveryResult,
  Completion,
  Delivery,
  DeliveryStart,
  LateCreator,
  OutageSkips,
  RunRepository,
  SkippedSlot,
  SkipRecord,
  SlotCompletion,
  UnconfirmedPost,
} from '../runs.ts';
import type { SqlExecutor, SqlRow, SqlRunner } from './executor.ts';
import { encodeProblem, encodeSkipReason, rowToDelivery } from './rows.ts';
import { RunRecords } from './run-history.ts';
import { SkipRecords } from './skips.ts';
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

export class SqlRuns implements RunRepository {
  readonly #sql: SqlExecutor;
  readonly #unconfirmed: UnconfirmedRecords;
  readonly #history: RunRecords;
  readonly #skips: SkipRecords;

  constructor(executor: SqlExecutor) {
    this.#sql = executor;
    this.#unconfirmed = new UnconfirmedRecords(executor);
    this.#history = new RunRecords(executor);
    this.#skips = new SkipRecords(executor);
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
      // Not an AppError: an invariant (one result per start); a bug if broken.
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
      // Not an AppError: an invariant (one row per start); a bug if broken.
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
    // Not an AppError: an invariant (the row is locked by this transaction); a bug if broken.
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
    if (completeRows) await this.#history.prune(completions);
  }

  recent(digestId: string, limit: number): Promise<DigestRun[]> {
    return this.#history.recent(digestId, limit);
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

  outageSkips(teamId: string, since: Date): Promise<OutageSkips[]> {
    return this.#skips.outageSkips(teamId, since);
  }

  lateCreators(): Promise<LateCreator[]> {
    return this.#skips.lateCreators();
  }

  takeLateSkips(creator: LateCreator, now: Date): Promise<OutageSkips[]> {
    return this.#skips.takeLate(creator, now);
  }

  untakeLateSkips(records: readonly SkippedSlot[]): Promise<void> {
    return this.#skips.untakeLate(records);
  }
}
