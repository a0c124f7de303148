/**
 * `node src/cli.ts migrate [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]`:
 * applies pending digest-store migrations and exits. The Procfile's `release:` phase runs it on
 * every deploy; it is idempotent and safe beside running instances.
 */
import { loadStorageConfig } from '../config/job-config.ts';
import type { PostgresTls } from '../config/sections.ts';
import { postgresTlsModes, type StorageConfig, storeWhere } from '../config/sections.ts';
import { ConfigError } from '../errors.ts';
import { defined } from '../model/defined.ts';
import { defaultSqlitePath, openDatabase } from '../store/open.ts';
import type { CliCommand, CliIo } from './command.ts';
import { readArguments, writeLine } from './command.ts';

/** The digest store a command works on, in the shape `openDatabase` takes. */
export interface StoreLocation {
  readonly databaseUrl?: string;
  readonly sqlitePath: string;
  readonly databaseTls?: PostgresTls;
  readonly databaseConnectTimeoutMs?: number;
  readonly databaseStatementTimeoutMs?: number;
}

/**
 * Where the digest store is: flags first (`--flag value` or `--flag=value`), then the
 * configuration (DATABASE_URL for PostgreSQL, DATABASE_TLS, DIGESTS_SQLITE_PATH), then
 * ./data/digests.sqlite. Returns an error message for bad flags.
 */
export function parseStoreLocation(
  args: readonly string[],
  storage: StorageConfig,
): StoreLocation | string {
  const parsed = readArguments({
    args: [...args],
    options: {
      'database-url': { type: 'string' },
      sqlite: { type: 'string' },
      tls: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
    tokens: true,
  });
  if (typeof parsed === 'string') return parsed;
  let databaseUrl = storage.databaseUrl?.reveal();
  let sqlitePath = storage.sqlitePath ?? defaultSqlitePath;
  let databaseTls = storage.databaseTls;
  // In order, so that of --database-url and --sqlite the later one decides.
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const value = token.value ?? '';
    if (value === '') return `${token.rawName} needs a value.`;
    if (token.name === 'database-url') databaseUrl = value;
    else if (token.name === 'sqlite') {
      sqlitePath = value;
      databaseUrl = undefined;
    } else if (isTlsMode(value)) databaseTls = value;
    else return `--tls must be one of ${postgresTlsModes.join(', ')}.`;
  }
  return {
    sqlitePath,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(databaseTls ? { databaseTls } : {}),
    // A scheduler's run-due waits on a stalled database no longer than the web process does.
    ...defined({
      databaseConnectTimeoutMs: storage.databaseConnectTimeoutMs,
      databaseStatementTimeoutMs: storage.databaseStatementTimeoutMs,
    }),
  };
}

function isTlsMode(value: string): value is PostgresTls {
  return (postgresTlsModes as readonly string[]).includes(value);
}

export function describeLocation(location: StoreLocation): string {
  return storeWhere(location.databaseUrl || undefined, location.sqlitePath);
}

export const usage =
  'migrate [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]  apply digest store migrations';

/** Where the store is, as `migrate` and `digests run-due` both take it. */
export const storeFlagsHelp = `  --database-url URL     PostgreSQL (default DATABASE_URL)
  --sqlite PATH          a SQLite file (default DIGESTS_SQLITE_PATH, else ./data/digests.sqlite)
  --tls MODE             TLS to PostgreSQL: off, no-verify or verify (default DATABASE_TLS)`;

const help = `Applies the digest store's pending migrations, then exits; safe to run again and beside
running instances (the Procfile's release phase runs it).
${storeFlagsHelp}`;

export async function runMigrate(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr' | 'env'>,
): Promise<number> {
  let storage: StorageConfig;
  try {
    storage = loadStorageConfig(io.env);
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
    const database = await openDatabase({ ...location, migrate: false });
    try {
      const applied = await database.migrate();
      await writeLine(
        io.stdout,
        `${describeLocation(location)}: ${applied === 0 ? 'already up to date' : `applied ${applied} migration(s)`}`,
      );
    } finally {
      await database.close();
    }
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeLine(io.stderr, `Migration failed on ${describeLocation(location)}: ${message}`);
    return 1;
  }
}

export const command: CliCommand = { usage, help, run: runMigrate };
