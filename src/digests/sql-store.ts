/**
 * The DigestStore logic shared by both adapters. SQL is written once with `$1` placeholders; each
 * adapter supplies an executor that runs it (SQLite renumbers them, stores instants as epoch
 * milliseconds and JSON as text; PostgreSQL uses timestamptz and jsonb) plus its own claim query.
 */
import { DigestNotFoundError } from '../errors.ts';
import type { Digest, LastRun, NewDigest, RankedAccount } from './model.ts';
import { newDigestId } from './model.ts';
import type {
  BeginDeliveryResult,
  Claim,
  ClaimOptions,
  Completion,
  Delivery,
  DigestStore,
  SkipRecord,
} from './store.ts';

export type SqlValue = string | number | Date | null;
export type SqlRow = Record<string, unknown>;

export interface SqlRunner {
  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
}

export interface SqlExecutor extends SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `work` in one write transaction (SQLite: BEGIN IMMEDIATE); rolls back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** Leases due digests atomically and returns their rows (with `next_run_at` as the slot). */
  claimRows(now: Date, options: ClaimOptions): Promise<SqlRow[]>;
  /** Appended to a SELECT inside a transaction to lock the row (PostgreSQL only). */
  readonly lockRow: string;
  migrate(): Promise<number>;
  close(): Promise<void>;
}

function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(Number(value));
}

function optionalDate(value: unknown): Date | undefined {
  return value === null || value === undefined ? undefined : toDate(value);
}

function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function optionalString(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

export function rowToDigest(row: SqlRow): Digest {
  const lastRunSlot = optionalDate(row.last_run_slot);
  let lastRun: LastRun | undefined;
  if (lastRunSlot) {
    const errorCode = optionalString(row.last_run_error);
    const messageTs = optionalString(row.last_run_ts);
    lastRun = {
      slot: lastRunSlot,
      outcome: String(row.last_run_outcome) as LastRun['outcome'],
      at: toDate(row.last_run_at),
      ...(errorCode ? { errorCode: errorCode as NonNullable<LastRun['errorCode']> } : {}),
      ...(messageTs ? { messageTs } : {}),
    };
  }
  const pausedReason = optionalString(row.paused_reason);
  const lastRanking =
    row.last_ranking === null || row.last_ranking === undefined
      ? undefined
      : fromJson<RankedAccount[]>(row.last_ranking);
  return {
    id: String(row.id),
    teamId: String(row.team_id),
    channelId: String(row.channel_id),
    creatorId: String(row.creator_id),
    databases: fromJson<string[]>(row.databases),
    schedule: fromJson<Digest['schedule']>(row.schedule),
    window: fromJson<Digest['window']>(row.run_window),
    top: Number(row.top),
    status: String(row.status) as Digest['status'],
    ...(pausedReason ? { pausedReason } : {}),
    consecutiveFailures: Number(row.consecutive_failures),
    nextRunAt: toDate(row.next_run_at),
    ...(lastRun ? { lastRun } : {}),
    ...(lastRanking ? { lastRanking } : {}),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function rowToDelivery(row: SqlRow): Delivery {
  const finishedAt = optionalDate(row.finished_at);
  const messageTs = optionalString(row.message_ts);
  const errorCode = optionalString(row.error_code);
  const skippedCount = row.skipped_count === null ? undefined : Number(row.skipped_count);
  return {
    digestId: String(row.digest_id),
    slot: toDate(row.slot),
    status: String(row.status) as Delivery['status'],
    owner: String(row.owner),
    startedAt: toDate(row.started_at),
    ...(finishedAt ? { finishedAt } : {}),
    ...(messageTs ? { messageTs } : {}),
    ...(errorCode ? { errorCode: errorCode as NonNullable<Delivery['errorCode']> } : {}),
    ...(skippedCount === undefined ? {} : { skippedCount }),
  };
}

const maxIdAttempts = 8;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown; errcode?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  return code === '23505' || /UNIQUE constraint failed/.test(message);
}

export class SqlDigestStore implements DigestStore {
  readonly dialect: 'sqlite' | 'postgres';
  readonly #sql: SqlExecutor;

  constructor(executor: SqlExecutor) {
    this.#sql = executor;
    this.dialect = executor.dialect;
  }

  migrate(): Promise<number> {
    return this.#sql.migrate();
  }

  async create(input: NewDigest, now: Date): Promise<Digest> {
    for (let attempt = 1; ; attempt++) {
      const id = newDigestId();
      try {
        const rows = await this.#sql.query(
          `INSERT INTO digests (id, team_id, channel_id, creator_id, databases, schedule, run_window,
             top, status, consecutive_failures, next_run_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', 0, $9, $10, $10)
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
          ],
        );
        const row = rows[0];
        if (!row) throw new Error('INSERT ... RETURNING returned no row');
        return rowToDigest(row);
      } catch (error) {
        if (attempt >= maxIdAttempts || !isUniqueViolation(error)) throw error;
      }
    }
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

  async pause(id: string, now: Date, reason?: string): Promise<Digest> {
    const rows = await this.#sql.query(
      `UPDATE digests SET status = 'paused', paused_reason = $2, updated_at = $3
       WHERE id = $1 RETURNING *`,
      [id, reason ?? null, now],
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

  async remove(id: string): Promise<boolean> {
    return this.#sql.transaction(async (tx) => {
      await tx.query('DELETE FROM digest_deliveries WHERE digest_id = $1', [id]);
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
    return this.#sql.transaction(async (tx) => {
      const taken = await tx.query(
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
      const existing = await tx.query(
        'SELECT * FROM digest_deliveries WHERE digest_id = $1 AND slot = $2',
        [digestId, slot],
      );
      if (!existing[0]) throw new Error('delivery record vanished inside its transaction');
      return { kind: 'already', delivery: rowToDelivery(existing[0]) } as const;
    });
  }

  async complete(digestId: string, slot: Date, completion: Completion): Promise<void> {
    await this.#sql.transaction(async (tx) => {
      if (completion.outcome === 'posted') {
        await tx.query(
          `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at, finished_at, message_ts)
           VALUES ($1, $2, 'posted', $3, $4, $4, $5)
           ON CONFLICT (digest_id, slot) DO UPDATE
             SET status = 'posted', finished_at = excluded.finished_at,
                 message_ts = excluded.message_ts, error_code = NULL`,
          [digestId, slot, completion.owner, completion.at, completion.messageTs ?? null],
        );
      } else if (completion.outcome === 'failed') {
        await tx.query(
          `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at, finished_at, error_code)
           VALUES ($1, $2, 'failed', $3, $4, $4, $5)
           ON CONFLICT (digest_id, slot) DO UPDATE
             SET status = 'failed', finished_at = excluded.finished_at, error_code = excluded.error_code
             WHERE digest_deliveries.status <> 'posted'`,
          [digestId, slot, completion.owner, completion.at, completion.errorCode ?? 'unknown'],
        );
      }
      const rows = await tx.query(`SELECT * FROM digests WHERE id = $1${this.#sql.lockRow}`, [
        digestId,
      ]);
      if (!rows[0]) return;
      const digest = rowToDigest(rows[0]);
      const last = digest.lastRun;
      const isNewest =
        !last ||
        last.slot.getTime() < slot.getTime() ||
        (last.slot.getTime() === slot.getTime() && last.outcome !== 'posted');
      const advance =
        completion.nextRunAt !== undefined && digest.nextRunAt.getTime() <= slot.getTime();
      const pause = completion.pauseReason !== undefined && isNewest;
      await tx.query(
        `UPDATE digests SET
           last_run_slot = $2, last_run_outcome = $3, last_run_at = $4, last_run_error = $5,
           last_run_ts = $6, consecutive_failures = $7, last_ranking = $8, next_run_at = $9,
           status = $10, paused_reason = $11, updated_at = $4,
           lease_owner = CASE WHEN lease_owner = $12 THEN NULL ELSE lease_owner END,
           lease_until = CASE WHEN lease_owner = $12 THEN NULL ELSE lease_until END
         WHERE id = $1`,
        [
          digestId,
          isNewest ? slot : (last?.slot ?? null),
          isNewest ? completion.outcome : (last?.outcome ?? null),
          isNewest ? completion.at : (last?.at ?? completion.at),
          isNewest ? (completion.errorCode ?? null) : (last?.errorCode ?? null),
          isNewest ? (completion.messageTs ?? null) : (last?.messageTs ?? null),
          isNewest
            ? (completion.consecutiveFailures ?? digest.consecutiveFailures)
            : digest.consecutiveFailures,
          completion.ranking && isNewest
            ? JSON.stringify(completion.ranking)
            : digest.lastRanking
              ? JSON.stringify(digest.lastRanking)
              : null,
          advance && completion.nextRunAt ? completion.nextRunAt : digest.nextRunAt,
          pause ? 'paused' : digest.status,
          pause ? (completion.pauseReason ?? null) : (digest.pausedReason ?? null),
          completion.owner,
        ],
      );
    });
  }

  async recordSkipped(digestId: string, slot: Date, skip: SkipRecord): Promise<void> {
    await this.#sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at, finished_at, skipped_count)
         VALUES ($1, $2, 'skipped', $3, $4, $4, $5)
         ON CONFLICT (digest_id, slot) DO NOTHING`,
        [digestId, slot, skip.owner, skip.at, skip.count],
      );
      await tx.query(
        `UPDATE digests SET
           next_run_at = CASE WHEN next_run_at <= $2 THEN $3 ELSE next_run_at END,
           last_run_slot = CASE WHEN last_run_slot IS NULL OR last_run_slot < $2 THEN $2 ELSE last_run_slot END,
           last_run_outcome = CASE WHEN last_run_slot IS NULL OR last_run_slot < $2 THEN 'skipped' ELSE last_run_outcome END,
           last_run_at = CASE WHEN last_run_slot IS NULL OR last_run_slot < $2 THEN $4 ELSE last_run_at END,
           last_run_error = CASE WHEN last_run_slot IS NULL OR last_run_slot < $2 THEN NULL ELSE last_run_error END,
           last_run_ts = CASE WHEN last_run_slot IS NULL OR last_run_slot < $2 THEN NULL ELSE last_run_ts END,
           lease_owner = CASE WHEN lease_owner = $5 THEN NULL ELSE lease_owner END,
           lease_until = CASE WHEN lease_owner = $5 THEN NULL ELSE lease_until END,
           updated_at = $4
         WHERE id = $1`,
        [digestId, slot, skip.nextRunAt, skip.at, skip.owner],
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

  close(): Promise<void> {
    return this.#sql.close();
  }
}
