/**
 * The embedded adapter: Node's built-in `node:sqlite`, one file (WAL mode, so readers never wait
 * for the writer) shared safely by several processes on one machine, e.g. the app and a
 * `digests run-due` from cron. Every write transaction is BEGIN IMMEDIATE, which takes the write
 * lock up front, so two claimers serialise instead of both reading the same due rows; busy_timeout
 * makes the second one wait rather than fail.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { ClaimOptions } from '../digests.ts';
import { SqlDatabase } from './database.ts';
import type { SqlExecutor, SqlRow, SqlRunner, SqlValue } from './executor.ts';
import { migrations, schemaMigrationsTable } from './migrations.ts';
import { claimableSql, claimParams } from './statements.ts';
import { answering, asUnavailable } from './unavailable.ts';

export const defaultSqlitePath = './data/digests.sqlite';

/** WAL pages written between two automatic checkpoints (see `openSqliteDatabase`). */
const walCheckpointPages = 10_000;

export interface SqliteDatabaseOptions {
  /** A file path, or `:memory:` for tests. Missing parent folders are created. */
  readonly path?: string;
  /** How long a writer waits for another process's lock before failing. */
  readonly busyTimeoutMs?: number;
}

function bind(value: SqlValue): SQLInputValue {
  if (value instanceof Date) return value.getTime();
  if (value === null || typeof value !== 'object') return value;
  throw new TypeError('SQLite statements take no array parameters');
}

/** `$1` placeholders become SQLite's numbered `?1`, which may repeat like PostgreSQL's. */
function toSqlite(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}

/**
 * node:sqlite is synchronous: a connection waiting on busy_timeout blocks the whole thread, so a
 * second connection in this process must never wait for a transaction that an await left open
 * here. Connections to one file therefore share one queue per process; busy_timeout is left for
 * other processes.
 */
const fileQueues = new Map<string, Queue>();

/** Operations of one file in this process, one after the other; `waiting` counts those not done. */
interface Queue {
  tail: Promise<unknown>;
  waiting: number;
}

/**
 * The claim statement, with `$n` placeholders; exported for the test of its query plan. The
 * columns that make a digest's question group the digests of one slot, in the order of the
 * index `digests_claim_by_question`.
 */
export function sqliteClaimSql(options: ClaimOptions): string {
  const order =
    options.teamId === undefined
      ? 'next_run_at, databases, top, metric, run_window, schedule, id'
      : 'next_run_at, id';
  return `UPDATE digests SET lease_owner = $1, lease_until = $2
    WHERE id IN (
      SELECT id FROM digests
      WHERE ${claimableSql(options)}
      ORDER BY ${order}
      LIMIT $4)
    RETURNING *`;
}

/** Runs the repositories' statements on one connection; exported for the test of its queue. */
export class SqliteExecutor implements SqlExecutor {
  readonly dialect = 'sqlite' as const;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  /**
   * One connection is shared by every caller in this process: operations are queued so that an
   * await inside one transaction never lets another caller's statements run inside it.
   */
  readonly #queue: Queue;

  constructor(db: DatabaseSync, path: string) {
    this.#db = db;
    if (path === ':memory:') {
      this.#queue = { tail: Promise.resolve(), waiting: 0 };
    } else {
      const key = resolve(path);
      let queue = fileQueues.get(key);
      if (!queue) {
        queue = { tail: Promise.resolve(), waiting: 0 };
        fileQueues.set(key, queue);
      }
      this.#queue = queue;
    }
  }

  #run(sql: string, params: readonly SqlValue[] = []): SqlRow[] {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(toSqlite(sql));
      this.#statements.set(sql, statement);
    }
    return statement.all(...params.map(bind)) as SqlRow[];
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const queue = this.#queue;
    queue.waiting++;
    const result = queue.tail.then(work).finally(() => {
      queue.waiting--;
    });
    queue.tail = result.catch(() => undefined);
    return result;
  }

  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    // Nothing queued means no transaction is open in this process: the statement runs now, without
    // the queue's turns (the request replay check runs one before every ack).
    if (this.#queue.waiting === 0) {
      try {
        return Promise.resolve(this.#run(sql, params));
      } catch (error) {
        return Promise.reject(asUnavailable(error));
      }
    }
    return answering(() => this.#exclusive(async () => this.#run(sql, params)));
  }

  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return answering(() => this.#transaction(work));
  }

  #transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work({ query: async (sql, params) => this.#run(sql, params) });
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  claimRows(now: Date, options: ClaimOptions): Promise<SqlRow[]> {
    return this.transaction(async (tx) =>
      tx.query(sqliteClaimSql(options), claimParams(now, options)),
    );
  }

  migrate(): Promise<number> {
    return this.#exclusive(async () => {
      this.#db.exec(schemaMigrationsTable.sqlite);
      let applied = 0;
      for (const migration of migrations) {
        this.#db.exec('BEGIN IMMEDIATE');
        try {
          const done = this.#run('SELECT 1 FROM schema_migrations WHERE version = $1', [
            migration.version,
          ]);
          if (done.length === 0) {
            this.#db.exec(migration.sqlite);
            this.#run(
              `INSERT INTO schema_migrations (version, name, applied_at)
               VALUES ($1, $2, CAST(unixepoch('subsec') * 1000 AS INTEGER))`,
              [migration.version, migration.name],
            );
            applied++;
          }
          this.#db.exec('COMMIT');
        } catch (error) {
          if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
          throw error;
        }
      }
      return applied;
    });
  }

  async close(): Promise<void> {
    await this.#exclusive(async () => {
      if (this.#db.isOpen) this.#db.close();
    });
  }
}

/** Opens (creating when needed) the SQLite file; call `migrate()` before first use. */
export function openSqliteDatabase(options: SqliteDatabaseOptions = {}): SqlDatabase {
  const path = options.path ?? defaultSqlitePath;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL');
    // With WAL, NORMAL still never corrupts the file; only the last commits may be lost on power loss.
    db.exec('PRAGMA synchronous = NORMAL');
    // A checkpoint runs inside the commit that crosses the limit and fsyncs the file; node:sqlite
    // being synchronous, the event loop waits meanwhile. At SQLite's default of 1,000 pages,
    // filling 10,000 digests and running them in one tick fsynced 492 times (4.5 s waited on a
    // busy disk); at 10,000 pages (a WAL of about 40 MB) 57 times (2.7 s).
    db.exec(`PRAGMA wal_autocheckpoint = ${walCheckpointPages}`);
  }
  db.exec('PRAGMA foreign_keys = ON');
  return new SqlDatabase(new SqliteExecutor(db, path));
}
