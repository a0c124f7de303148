/**
 * The adapter for deployments with several instances: PostgreSQL through `pg`. Due digests are
 * claimed with `FOR UPDATE SKIP LOCKED`, so concurrent runners each take different rows without
 * waiting on each other; migrations hold a transaction-scoped advisory lock.
 */

import pg from 'pg';
import { configDefaults, type PostgresTls } from '../../config/sections.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import type { ClaimOptions } from '../digests.ts';
import type { DeliveryStart, SlotCompletion } from '../runs.ts';
import { SqlDatabase } from './database.ts';
import type { SqlExecutor, SqlRow, SqlRunner, SqlValue } from './executor.ts';
import { migrations, schemaMigrationsTable } from './migrations.ts';
import {
  type CompletionField,
  claimableSql,
  claimParams,
  completionAssignments,
  completionFields,
  completionValues,
  failedMayOverwrite,
  postedMayOverwrite,
  skippedMayOverwrite,
} from './statements.ts';
import { answering, type StoreTimeouts, unavailableReason } from './unavailable.ts';

/**
 * `off`: plain TCP. `no-verify`: TLS without checking the certificate chain, what Heroku Postgres
 * documents (its certificates are not signed by a public CA). `verify`: TLS with full checks.
 */

export interface PostgresDatabaseOptions {
  /** `postgres://user:pass@host:5432/db?sslmode=require`, e.g. Heroku's DATABASE_URL. */
  readonly connectionString: string;
  /** Overrides what the URL implies (see `postgresConnectionConfig`). */
  readonly tls?: PostgresTls;
  /** Keep the tables in this schema (created by `migrate`); tests use one per run. */
  readonly schema?: string;
  /** Pool size per instance; Heroku's smallest plans allow 20 connections in all. */
  readonly maxConnections?: number;
  /**
   * How long a connection may take to open, and a caller to wait for one from the pool. Default
   * `configDefaults.databaseConnectTimeoutMs`.
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long one statement may run: the server cancels it then, and the client stops waiting a
   * little later (`answerTimeoutMs`) in case the server itself no longer answers. Default
   * `configDefaults.databaseStatementTimeoutMs`.
   */
  readonly statementTimeoutMs?: number;
  readonly logger?: Logger;
  /** How the app's sessions are named in `pg_stat_activity`. */
  readonly applicationName?: string;
}

/**
 * How long the client waits for an answer beyond the statement timeout, so that a slow statement
 * ends with the server's own cancellation (the connection stays usable) and only a server that no
 * longer answers at all meets the client's timeout (the connection is dropped).
 */
export function answerTimeoutMs(statementTimeoutMs: number): number {
  return statementTimeoutMs + Math.min(1_000, statementTimeoutMs);
}

/**
 * One migration statement may run this long (an index built over a large table, another instance
 * holding the migration lock): far beyond the statement timeout of everyday work.
 */
const migrationTimeoutMs = 5 * 60_000;

const localHosts = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);

/**
 * Decides TLS from the URL and removes the URL's own TLS parameters, because `pg` lets them
 * override the `ssl` object (and reads `sslmode=require` as full verification, which Heroku's
 * certificates fail). Without a `sslmode`, local hosts get plain TCP and every other host TLS
 * without verification, which is what Heroku's DATABASE_URL (it carries no sslmode) needs.
 */
export function postgresConnectionConfig(
  connectionString: string,
  tls?: PostgresTls,
): {
  connectionString: string;
  ssl: false | { rejectUnauthorized: boolean };
  /** The URL's `options` (server settings such as `-c statement_timeout=…`), if any. */
  options?: string;
} {
  const url = new URL(connectionString);
  // Taken out for the same reason: `pg` would let it replace the schema's search_path.
  const options = url.searchParams.get('options') ?? undefined;
  url.searchParams.delete('options');
  const sslmode =
    url.searchParams.get('sslmode') ??
    (url.searchParams.get('ssl') === 'true' ? 'require' : undefined);
  for (const name of ['sslmode', 'ssl', 'uselibpqcompat', 'sslrootcert', 'sslcert', 'sslkey']) {
    url.searchParams.delete(name);
  }
  let mode: PostgresTls;
  if (tls) mode = tls;
  else if (sslmode === 'disable') mode = 'off';
  else if (sslmode === 'verify-ca' || sslmode === 'verify-full') mode = 'verify';
  else if (sslmode !== undefined) mode = 'no-verify';
  else mode = localHosts.has(url.hostname) ? 'off' : 'no-verify';
  return {
    connectionString: url.toString(),
    ssl: mode === 'off' ? false : { rejectUnauthorized: mode === 'verify' },
    ...(options === undefined ? {} : { options }),
  };
}

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The columns of a delivery record, named rather than `d.*` in the prepared begin statement: a
 * column another instance's migration adds while this one runs would otherwise change the result
 * of a statement this one prepared before, which PostgreSQL refuses to run ("cached plan must not
 * change result type"). A test checks that it names every column of the table.
 */
export const deliveryColumns = [
  'digest_id',
  'slot',
  'status',
  'owner',
  'started_at',
  'finished_at',
  'message_ts',
  'error_code',
  'skipped_count',
  'noticed_at',
  'repost_by',
] as const;

/**
 * Many `beginDelivery` in one statement. The INSERT locks in key order so that two runners' batches
 * never wait on each other in a cycle. A record that existed before the statement is reported as
 * the statement's snapshot saw it; one another transaction created meanwhile comes back without
 * columns and `SqlRuns` reads it afterwards.
 *
 * The existing record is looked up per input row, in a subquery kept apart (`OFFSET 0`) whose
 * first condition depends on the outer row alone: PostgreSQL checks it once per row and reads
 * nothing for a record the statement itself took, the usual case. As a plain join, a plan cached
 * while the table was small (its statistics read before a tick filled it, autovacuum behind)
 * hashed the whole table at every post: a tick of 100,000 slowed to a quarter of its speed.
 * Exported for the test of its query plan.
 */
export const beginDeliveriesSql = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::timestamptz[])
      WITH ORDINALITY AS i (digest_id, slot, owner, started_at, ord)),
  taken AS (
    INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at)
    SELECT digest_id, slot, 'posting', owner, started_at FROM input ORDER BY digest_id, slot
    ON CONFLICT (digest_id, slot) DO UPDATE
      SET status = 'posting', owner = excluded.owner, started_at = excluded.started_at,
          finished_at = NULL, error_code = NULL
      WHERE digest_deliveries.status = 'failed'
    RETURNING digest_id, slot)
  SELECT i.ord, t.digest_id IS NOT NULL AS started,
    ${deliveryColumns.map((column) => `d.${column}`).join(', ')}
  FROM input i
  LEFT JOIN taken t ON t.digest_id = i.digest_id AND t.slot = i.slot
  LEFT JOIN LATERAL (
    SELECT ${deliveryColumns.join(', ')} FROM digest_deliveries x
    WHERE t.digest_id IS NULL AND x.digest_id = i.digest_id AND x.slot = i.slot
    OFFSET 0) d ON true
  ORDER BY i.ord`;

const completionTypes: Record<CompletionField, string> = {
  slot: 'timestamptz',
  owner: 'text',
  outcome: 'text',
  at: 'timestamptz',
  message_ts: 'text',
  error_code: 'text',
  ranking: 'text',
  next_run_at: 'timestamptz',
  failures: 'integer',
  pause_reason: 'text',
  run: 'text',
};

/**
 * Many `complete` (distinct digests) in one statement: the delivery records in a data-modifying
 * CTE, then the bookkeeping UPDATE, which PostgreSQL re-evaluates on the latest version of a row
 * another transaction changed meanwhile, as the single-row SELECT ... FOR UPDATE did. The
 * conflict clause is checked on the latest version of an existing record, so a completion that
 * may not overwrite it (see `RunRepository.complete`) writes nothing, and `recorded` tells the
 * bookkeeping which completions were accepted, and `runs` which slots enter the history.
 *
 * It commits without waiting for its WAL to reach the disk (`unflushed`): that flush took longer
 * than the statement, and on a busy tick each post's own `posting` record, which must be flushed
 * before its message goes out, queued behind the completions' flushes. The next flush carries it
 * to disk, since the log is written in order: the database's own WAL writer flushes within a
 * fraction of a second, and a post's `posting` record sooner. Only a crash of the database itself
 * in between can lose it (and the run it records): the slot's record is then still `posting`,
 * which is read as unconfirmed and never posted again, as when an instance dies between posting
 * and recording the post. The `posting` record itself is flushed
 * before its commit returns, as every other statement's is.
 */
const completeManySql = `
  WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true) AS setting),
  input AS (
    SELECT * FROM unnest($1::text[], ${completionFields
      .map((field, i) => `$${i + 2}::${completionTypes[field]}[]`)
      .join(', ')})
      AS i (digest_id, ${completionFields.join(', ')})),
  recorded AS (
    INSERT INTO digest_deliveries
      (digest_id, slot, status, owner, started_at, finished_at, message_ts, error_code, skipped_count)
    SELECT digest_id, slot, outcome, owner, at, at,
      CASE WHEN outcome = 'posted' THEN message_ts END,
      CASE WHEN outcome = 'failed' THEN COALESCE(error_code, 'unknown')
           WHEN outcome = 'skipped' THEN error_code END,
      CASE WHEN outcome = 'skipped' THEN 1 END
    FROM input WHERE outcome IN ('posted', 'failed', 'skipped')
    ORDER BY digest_id, slot
    ON CONFLICT (digest_id, slot) DO UPDATE
      SET status = excluded.status, finished_at = excluded.finished_at,
          message_ts = CASE WHEN excluded.status = 'posted' THEN excluded.message_ts
                            ELSE digest_deliveries.message_ts END,
          error_code = excluded.error_code, skipped_count = excluded.skipped_count
      WHERE (excluded.status = 'posted' AND ${postedMayOverwrite('digest_deliveries', 'excluded')})
         OR (excluded.status = 'failed' AND ${failedMayOverwrite('digest_deliveries', 'excluded')})
         OR (excluded.status = 'skipped' AND ${skippedMayOverwrite('digest_deliveries')})
    RETURNING digest_id, slot),
  runs AS (
    INSERT INTO digest_runs (digest_id, slot, outcome, reason, run, recorded_at)
    SELECT i.digest_id, i.slot, i.outcome, i.error_code, i.run::jsonb, i.at
    FROM input i JOIN recorded r ON r.digest_id = i.digest_id AND r.slot = i.slot
    ON CONFLICT (digest_id, slot) DO UPDATE
      SET outcome = excluded.outcome, reason = excluded.reason, run = excluded.run,
          recorded_at = excluded.recorded_at
    RETURNING digest_id)
  UPDATE digests AS d SET
    ${completionAssignments(
      'd.',
      (field) => (field === 'ranking' ? 'i.ranking::jsonb' : `i.${field}`),
      `EXISTS (SELECT 1 FROM recorded r WHERE r.digest_id = i.digest_id AND r.slot = i.slot)
       OR (i.outcome = 'unconfirmed' AND NOT EXISTS (
         SELECT 1 FROM digest_deliveries x
         WHERE x.digest_id = i.digest_id AND x.slot = i.slot AND x.status <> 'posting'))`,
    )}
  FROM input i
  WHERE d.id = i.digest_id AND (SELECT setting FROM unflushed) = 'off'`;

/**
 * Statements each post runs, prepared once per connection under these names: planning them took
 * longer than running them, and a post's `posting` record is written while its post waits.
 */
const preparedNames = new Map([
  [beginDeliveriesSql, 'digests_begin_deliveries'],
  [completeManySql, 'digests_complete_many'],
]);

/** A query for `pg`: a prepared statement's name goes with its text. */
function queryConfig(text: string, values: readonly SqlValue[]): pg.QueryConfig {
  const name = preparedNames.get(text);
  return name === undefined
    ? { text, values: values as SqlValue[] }
    : { name, text, values: values as SqlValue[] };
}

/**
 * The claim statement; exported for the test of its query plan. A digest of the columns that make
 * a digest's question groups the digests of one slot, as the index `digests_claim_by_question`
 * computes it.
 */
export function postgresClaimSql(options: ClaimOptions): string {
  const order =
    options.teamId === undefined
      ? `next_run_at, md5(databases::text || ' ' || top::text || ' ' || coalesce(metric, '') || ' '
          || run_window::text || ' ' || schedule::text), id`
      : 'next_run_at, id';
  return `WITH due AS (
      SELECT id FROM digests
      WHERE ${claimableSql(options)}
      ORDER BY ${order}
      LIMIT $4
      FOR UPDATE SKIP LOCKED)
    UPDATE digests AS d SET lease_owner = $1, lease_until = $2
    FROM due WHERE d.id = due.id
    RETURNING d.*`;
}

/**
 * Every statement but the migrations' goes through the pool with the configured timeouts, and a
 * failure that means the database is not answering becomes a `DigestStoreUnavailableError`.
 */
class PostgresExecutor implements SqlExecutor {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #schema: string | undefined;
  readonly #timeouts: StoreTimeouts;

  constructor(pool: pg.Pool, schema: string | undefined, timeouts: StoreTimeouts) {
    this.#pool = pool;
    this.#schema = schema;
    this.#timeouts = timeouts;
  }

  query(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    return answering(async () => {
      const result = await this.#pool.query(queryConfig(sql, params));
      return result.rows as SqlRow[];
    }, this.#timeouts);
  }

  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return answering(() => this.#transaction(work), this.#timeouts);
  }

  /**
   * `work` inside BEGIN ... COMMIT on one connection; statements wait `answerMs` for their answer
   * when given, else the pool's timeout. A connection that stopped answering is dropped, not
   * rolled back (the server rolls back when it goes) and not handed to the next caller.
   */
  async #transaction<T>(work: (tx: SqlRunner) => Promise<T>, answerMs?: number): Promise<T> {
    const client = await this.#pool.connect();
    const run = async (text: string, values: readonly SqlValue[] = []) =>
      (
        await client.query({
          ...queryConfig(text, values),
          ...(answerMs === undefined ? {} : { query_timeout: answerMs }),
        })
      ).rows as SqlRow[];
    let broken: Error | undefined;
    try {
      await run('BEGIN');
      const result = await work({ query: run });
      await run('COMMIT');
      return result;
    } catch (error) {
      if (unavailableReason(error, this.#timeouts) === undefined) {
        await run('ROLLBACK').catch(() => undefined);
      } else {
        broken = error instanceof Error ? error : new Error(String(error));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  claimRows(now: Date, options: ClaimOptions): Promise<SqlRow[]> {
    return this.query(postgresClaimSql(options), claimParams(now, options));
  }

  beginDeliveryRows(db: SqlRunner, starts: readonly DeliveryStart[]): Promise<SqlRow[]> {
    return db.query(beginDeliveriesSql, [
      starts.map((start) => start.digestId),
      starts.map((start) => start.slot),
      starts.map((start) => start.owner),
      starts.map((start) => start.now),
    ]);
  }

  async completeRows(db: SqlRunner, completions: readonly SlotCompletion[]): Promise<void> {
    const values = completions.map(completionValues);
    await db.query(completeManySql, [
      completions.map((item) => item.digestId),
      ...completionFields.map((field) => values.map((value) => value[field])),
    ]);
  }

  async migrate(): Promise<number> {
    const lockKey = `digests-migrations:${this.#schema ?? 'public'}`;
    const locked = async <T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> =>
      this.#transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = ${migrationTimeoutMs}`);
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
        return work(tx);
      }, answerTimeoutMs(migrationTimeoutMs));
    await locked(async (tx) => {
      if (this.#schema) await tx.query(`CREATE SCHEMA IF NOT EXISTS ${this.#schema}`);
      await tx.query(schemaMigrationsTable.postgres);
    });
    let applied = 0;
    for (const migration of migrations) {
      await locked(async (tx) => {
        const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
          migration.version,
        ]);
        if (done.length > 0) return;
        await tx.query(migration.postgres);
        await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        applied++;
      });
    }
    return applied;
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

/** Connects lazily (the pool opens connections on first use); call `migrate()` before first use. */
export function openPostgresDatabase(options: PostgresDatabaseOptions): SqlDatabase {
  if (options.schema !== undefined && !identifier.test(options.schema)) {
    // Not an AppError: a caller's bug (only tests pick a schema), refused before it reaches SQL.
    throw new Error(`Invalid PostgreSQL schema name "${options.schema}"`);
  }
  const config = postgresConnectionConfig(options.connectionString, options.tls);
  const connectTimeoutMs = options.connectTimeoutMs ?? configDefaults.databaseConnectTimeoutMs;
  const statementTimeoutMs =
    options.statementTimeoutMs ?? configDefaults.databaseStatementTimeoutMs;
  const timeouts = { connectTimeoutMs, answerTimeoutMs: answerTimeoutMs(statementTimeoutMs) };
  const pool = new pg.Pool({
    ...config,
    max: options.maxConnections ?? 5,
    application_name: options.applicationName ?? 'hcsm-slack-influencers',
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    query_timeout: timeouts.answerTimeoutMs,
    ...(options.schema
      ? { options: [config.options, `-c search_path=${options.schema}`].filter(Boolean).join(' ') }
      : {}),
  });
  // An idle client losing its connection emits on the pool; without a listener that would crash.
  const logger = options.logger ?? silentLogger;
  // One line with the server's code: the error pg-pool emits carries the whole client (its
  // connection parameters, buffers and sockets) as `client`.
  pool.on('error', (error: Error & { code?: string; severity?: string }) =>
    logger.warn(
      { code: error.code, severity: error.severity, reason: error.message },
      'idle PostgreSQL connection failed',
    ),
  );
  return new SqlDatabase(new PostgresExecutor(pool, options.schema, timeouts));
}
