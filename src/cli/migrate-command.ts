/**
 * `node src/cli.ts migrate [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]`:
 * applies pending digest-store migrations and exits. The Procfile's `release:` phase runs it on
 * every deploy; it is idempotent and safe beside running instances.
 */
import { loadStorageConfig, type StorageConfig } from '../config.ts';
import { openDigestStore } from '../digests/open-store.ts';
import type { PostgresTls } from '../digests/postgres-store.ts';
import { defaultSqlitePath } from '../digests/sqlite-store.ts';
import { ConfigError } from '../errors.ts';
import type { CliCommand, CliIo } from './command.ts';
import { writeLine } from './command.ts';

export interface StoreLocation {
  readonly databaseUrl?: string;
  readonly sqlitePath: string;
  readonly tls?: PostgresTls;
}

const tlsModes: readonly PostgresTls[] = ['off', 'no-verify', 'verify'];

/**
 * Where the digest store is: flags first, then the configuration (DATABASE_URL for PostgreSQL,
 * DATABASE_TLS, DIGESTS_SQLITE_PATH), then ./data/digests.sqlite. Returns an error message for
 * bad flags.
 */
export function parseStoreLocation(
  args: readonly string[],
  storage: StorageConfig,
): StoreLocation | string {
  let databaseUrl = storage.databaseUrl?.reveal();
  let sqlitePath = storage.sqlitePath ?? defaultSqlitePath;
  let tls: PostgresTls | undefined = storage.databaseTls;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag !== '--database-url' && flag !== '--sqlite' && flag !== '--tls') {
      return `Unknown argument "${flag}".`;
    }
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value.`;
    i++;
    if (flag === '--database-url') databaseUrl = value;
    else if (flag === '--sqlite') {
      sqlitePath = value;
      databaseUrl = undefined;
    } else if ((tlsModes as readonly string[]).includes(value)) tls = value as PostgresTls;
    else return `--tls must be one of ${tlsModes.join(', ')}.`;
  }
  return { sqlitePath, ...(databaseUrl ? { databaseUrl } : {}), ...(tls ? { tls } : {}) };
}

export function describeLocation(location: StoreLocation): string {
  if (!location.databaseUrl) return `SQLite ${location.sqlitePath}`;
  const url = new URL(location.databaseUrl);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

export const usage =
  'migrate [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]  apply digest store migrations';

export async function runMigrate(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  let storage: StorageConfig;
  try {
    storage = loadStorageConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    await writeLine(io.stderr, `migrate cannot start:\n  - ${error.problems.join('\n  - ')}`);
    return 2;
  }
  const location = parseStoreLocation(args, storage);
  if (typeof location === 'string') {
    await writeLine(io.stderr, `${location}\nUsage: node src/cli.ts ${usage}`);
    return 2;
  }
  try {
    const store = await openDigestStore({
      ...(location.databaseUrl ? { databaseUrl: location.databaseUrl } : {}),
      sqlitePath: location.sqlitePath,
      ...(location.tls ? { postgresTls: location.tls } : {}),
      migrate: false,
    });
    try {
      const applied = await store.migrate();
      await writeLine(
        io.stdout,
        `${describeLocation(location)}: ${applied === 0 ? 'already up to date' : `applied ${applied} migration(s)`}`,
      );
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeLine(io.stderr, `Migration failed on ${describeLocation(location)}: ${message}`);
    return 1;
  }
}

export const command: CliCommand = { usage, run: (args, io) => runMigrate(args, io) };

/** Exit code of `migrate` with the process's streams and environment. */
export function run(args: string[]): Promise<number> {
  return runMigrate(args, { stdout: process.stdout, stderr: process.stderr });
}
