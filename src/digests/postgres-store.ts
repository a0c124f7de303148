/**
 * The adapter for deployments with several instances: PostgreSQL through `pg`. Due digests are
 * claimed with `FOR UPDATE SKIP LOCKED`, so concurrent runners each take different rows without
 * waiting on each other; migrations hold a transaction-scoped advisory lock.
 */
import pg from 'pg';
import { type Logger, silentLogger } from '../logger.ts';
import { migrations, schemaMigrationsTable } from './migrations.ts';
import type { SqlExecutor, SqlRow, SqlRunner, SqlValue } from './sql-store.ts';
import { SqlDigestStore } from './sql-store.ts';
import type { ClaimOptions } from './store.ts';

/**
 * `off`: plain TCP. `no-verify`: TLS without checking the certificate chain, what Heroku Postgres
 * documents (its certificates are not signed by a public CA). `verify`: TLS with full checks.
 */
export type PostgresTls = 'off' | 'no-verify' | 'verify';

export interface PostgresStoreOptions {
  /** `postgres://user:pass@host:5432/db?sslmode=require`, e.g. Heroku's DATABASE_URL. */
  readonly connectionString: string;
  /** Overrides what the URL implies (see `postgresConnectionConfig`). */
  readonly tls?: PostgresTls;
  /** Keep the tables in this schema (created by `migrate`); tests use one per run. */
  readonly schema?: string;
  /** Pool size per instance; Heroku's smallest plans allow 20 connections in all. */
  readonly maxConnections?: number;
  readonly logger?: Logger;
}

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
): { connectionString: string; ssl: false | { rejectUnauthorized: boolean } } {
  const url = new URL(connectionString);
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
  };
}

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

class PostgresExecutor implements SqlExecutor {
  readonly dialect = 'postgres' as const;
  readonly lockRow = ' FOR UPDATE';
  readonly #pool: pg.Pool;
  readonly #schema: string | undefined;

  constructor(pool: pg.Pool, schema: string | undefined) {
    this.#pool = pool;
    this.#schema = schema;
  }

  async query(sql: string, params: readonly SqlValue[] = []): Promise<SqlRow[]> {
    const result = await this.#pool.query(sql, params as SqlValue[]);
    return result.rows as SqlRow[];
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        query: async (sql, params = []) =>
          (await client.query(sql, params as SqlValue[])).rows as SqlRow[],
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  claimRows(now: Date, options: ClaimOptions): Promise<SqlRow[]> {
    return this.query(
      `WITH due AS (
         SELECT id FROM digests
         WHERE status = 'active' AND next_run_at <= $3
           AND (lease_until IS NULL OR lease_until <= $3)
         ORDER BY next_run_at, id
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
       UPDATE digests AS d SET lease_owner = $1, lease_until = $2
       FROM due WHERE d.id = due.id
       RETURNING d.*`,
      [options.owner, new Date(now.getTime() + options.leaseMs), now, options.limit],
    );
  }

  async migrate(): Promise<number> {
    const lockKey = `digests-migrations:${this.#schema ?? 'public'}`;
    const locked = async <T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> =>
      this.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
        return work(tx);
      });
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
export function openPostgresStore(options: PostgresStoreOptions): SqlDigestStore {
  if (options.schema !== undefined && !identifier.test(options.schema)) {
    throw new Error(`Invalid PostgreSQL schema name "${options.schema}"`);
  }
  const config = postgresConnectionConfig(options.connectionString, options.tls);
  const pool = new pg.Pool({
    ...config,
    max: options.maxConnections ?? 5,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its connection emits on the pool; without a listener that would crash.
  const logger = options.logger ?? silentLogger;
  pool.on('error', (error) => logger.warn({ err: error }, 'idle PostgreSQL connection failed'));
  return new SqlDigestStore(new PostgresExecutor(pool, options.schema));
}
