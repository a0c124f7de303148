/**
 * Picks the adapter: PostgreSQL when a database URL is given (Heroku sets DATABASE_URL), else the
 * embedded SQLite file. Migrations run here, at start, so an instance never works on an old
 * schema; running them again (the release phase, a second instance) is a no-op.
 */
import type { PostgresTls, StorageConfig } from '../config/sections.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import type { Database } from './database.ts';
import { defaultSqlitePath, openSqliteDatabase } from './sql/sqlite.ts';

/** Where the SQLite file is when no path is configured; surfaces name it in help and errors. */
export { defaultSqlitePath };

/**
 * The configured {@link StorageConfig} fits as it is (`{ ...config.storage, logger }`), and so do
 * the CLI's flags, whose database URL is a plain string.
 */
export interface OpenDatabaseOptions {
  /** PostgreSQL URL; when set, SQLite options are ignored. */
  readonly databaseUrl?: StorageConfig['databaseUrl'] | string;
  /** Default `./data/digests.sqlite`; `:memory:` for tests. */
  readonly sqlitePath?: string;
  readonly databaseTls?: PostgresTls;
  readonly postgresSchema?: string;
  readonly postgresMaxConnections?: number;
  /** See `PostgresDatabaseOptions.connectTimeoutMs`. */
  readonly databaseConnectTimeoutMs?: number;
  /** See `PostgresDatabaseOptions.statementTimeoutMs`. */
  readonly databaseStatementTimeoutMs?: number;
  /** Default true. */
  readonly migrate?: boolean;
  readonly logger?: Logger;
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const databaseUrl =
    typeof options.databaseUrl === 'string' ? options.databaseUrl : options.databaseUrl?.reveal();
  const database = databaseUrl
    ? // Loaded only for PostgreSQL: an app on SQLite never pays for pg in memory or start time.
      (await import('./sql/postgres.ts')).openPostgresDatabase({
        connectionString: databaseUrl,
        ...(options.databaseTls ? { tls: options.databaseTls } : {}),
        ...(options.postgresSchema ? { schema: options.postgresSchema } : {}),
        ...(options.postgresMaxConnections
          ? { maxConnections: options.postgresMaxConnections }
          : {}),
        ...defined({
          connectTimeoutMs: options.databaseConnectTimeoutMs,
          statementTimeoutMs: options.databaseStatementTimeoutMs,
        }),
        ...(options.logger ? { logger: options.logger } : {}),
      })
    : openSqliteDatabase({ path: options.sqlitePath ?? defaultSqlitePath });
  if (options.migrate ?? true) {
    try {
      const applied = await database.migrate();
      if (applied > 0)
        options.logger?.info({ applied, dialect: database.dialect }, 'digest store migrated');
    } catch (error) {
      await database.close().catch(() => undefined);
      throw error;
    }
  }
  return database;
}
