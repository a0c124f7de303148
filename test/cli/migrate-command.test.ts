import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseStoreLocation, runMigrate } from '../../src/cli/migrate-command.ts';
import { loadStorageConfig } from '../../src/config/job-config.ts';

function sink(): Writable & { text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join('') });
}

describe('parseStoreLocation', () => {
  const storage = loadStorageConfig({
    DATABASE_URL: 'postgres://app:pw@db.example.com:5432/app',
    DATABASE_TLS: 'verify',
  });

  it('takes the database and its TLS mode from the configuration', () => {
    expect(parseStoreLocation([], storage)).toEqual({
      databaseUrl: 'postgres://app:pw@db.example.com:5432/app',
      sqlitePath: './data/digests.sqlite',
      databaseTls: 'verify',
    });
  });

  it('carries the PostgreSQL timeouts, so a scheduled run-due never hangs on a stalled database', () => {
    const withTimeouts = loadStorageConfig({
      DATABASE_URL: 'postgres://app:pw@db.example.com:5432/app',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '2500',
    });
    expect(parseStoreLocation([], withTimeouts)).toMatchObject({
      databaseConnectTimeoutMs: 1500,
      databaseStatementTimeoutMs: 2500,
    });
  });

  it('lets flags win, and --sqlite leave PostgreSQL out', () => {
    expect(parseStoreLocation(['--tls', 'off'], storage)).toMatchObject({ databaseTls: 'off' });
    expect(parseStoreLocation(['--sqlite', '/tmp/x.sqlite'], storage)).toEqual({
      sqlitePath: '/tmp/x.sqlite',
      databaseTls: 'verify',
    });
  });

  it('reads --flag=value as --flag value', () => {
    expect(parseStoreLocation(['--sqlite=/tmp/x', '--tls=no-verify'], storage)).toEqual({
      sqlitePath: '/tmp/x',
      databaseTls: 'no-verify',
    });
    expect(parseStoreLocation(['--database-url=postgres://h/db'], storage)).toMatchObject({
      databaseUrl: 'postgres://h/db',
    });
  });

  it('lets the later of --database-url and --sqlite decide', () => {
    expect(
      parseStoreLocation(['--database-url', 'postgres://h/db', '--sqlite', '/tmp/x'], storage),
    ).toEqual({ sqlitePath: '/tmp/x', databaseTls: 'verify' });
    expect(
      parseStoreLocation(['--sqlite', '/tmp/x', '--database-url', 'postgres://h/db'], storage),
    ).toEqual({ sqlitePath: '/tmp/x', databaseUrl: 'postgres://h/db', databaseTls: 'verify' });
  });

  it.each([
    [['--port', '1'], 'Unknown argument "--port".'],
    [['--sqlite'], '--sqlite needs a value.'],
    [['--sqlite', '--tls', 'off'], '--sqlite needs a value.'],
    [['--sqlite='], '--sqlite needs a value.'],
    [['/tmp/x'], 'Unknown argument "/tmp/x".'],
    [['--tls', 'maybe'], '--tls must be one of off, no-verify, verify.'],
  ])('refuses %j with %j', (args, message) => {
    expect(parseStoreLocation(args, storage)).toBe(message);
  });
});

describe('runMigrate', () => {
  it('applies the migrations once, then reports the store up to date', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'migrate-')), 'digests.sqlite');
    const first = { stdout: sink(), stderr: sink() };
    expect(await runMigrate([], { ...first, env: { DIGESTS_SQLITE_PATH: path } })).toBe(0);
    expect(first.stdout.text()).toMatch(
      new RegExp(`^SQLite ${path}: applied \\d+ migration\\(s\\)\\n$`),
    );
    const again = { stdout: sink(), stderr: sink() };
    expect(await runMigrate([], { ...again, env: { DIGESTS_SQLITE_PATH: path } })).toBe(0);
    expect(again.stdout.text()).toBe(`SQLite ${path}: already up to date\n`);
  });

  it('names a bad DATABASE_TLS or DATABASE_URL without echoing the URL, and exits 2', async () => {
    const io = { stdout: sink(), stderr: sink() };
    const code = await runMigrate([], {
      ...io,
      env: { DATABASE_URL: 'mysql://root:hunter2@db/app', DATABASE_TLS: 'sometimes' },
    });
    expect(code).toBe(2);
    expect(io.stderr.text()).toContain('DATABASE_URL must be a PostgreSQL URL');
    expect(io.stderr.text()).toContain('DATABASE_TLS must be one of off, no-verify, verify');
    expect(io.stderr.text()).not.toContain('hunter2');
  });
});
