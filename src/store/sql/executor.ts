/**
 * What a dialect gives the repositories: statements written once with `$1` placeholders and run
 * by each dialect its own way (SQLite renumbers them, stores instants as epoch milliseconds and
 * JSON as text; PostgreSQL uses timestamptz and jsonb), transactions, and the few statements a
 * dialect writes its own way (the claim, the set-based batches).
 */
import type { Dialect } from '../database.ts';
import type { ClaimOptions } from '../digests.ts';
import type { DeliveryStart, SlotCompletion } from '../runs.ts';

export type SqlScalar = string | number | Date | null;
/** Arrays are for PostgreSQL's set-based statements (`unnest($1::text[])`); SQLite takes none. */
export type SqlValue = SqlScalar | readonly SqlScalar[];
export type SqlRow = Record<string, unknown>;

export interface SqlRunner {
  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
}

export interface SqlExecutor extends SqlRunner {
  readonly dialect: Dialect;
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
