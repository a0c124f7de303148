import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/open.ts';
import { openPostgresDatabase, postgresConnectionConfig } from '../../src/store/sql/postgres.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';
import {
  announcePostgresSkip,
  reusedPostgres,
  TestPostgres,
  testDatabaseUrl,
} from '../digests/helpers.ts';
import { agentStateContract } from './agent-state-contract.ts';
import { canvasContract } from './canvas-contract.ts';
import { followUpContract } from './follow-up-contract.ts';
import { installationsContract } from './installations-contract.ts';
import { lastQuestionsContract } from './last-questions-contract.ts';
import { runsContract } from './runs-contract.ts';
import { type StoreFixture, storeContract } from './store-contract.ts';

/** Every contract over one adapter. */
function contracts(name: string, open: () => Promise<StoreFixture>): void {
  storeContract(name, open);
  followUpContract(name, open);
  canvasContract(name, open);
  runsContract(name, open);
  agentStateContract(name, open);
  lastQuestionsContract(name, open);
  installationsContract(name, open);
}

contracts('SQLite :memory:', async () => {
  const store = await openDatabase({ sqlitePath: ':memory:' });
  return { store, cleanup: () => store.close() };
});

contracts('SQLite file', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'digests-'));
  const path = join(folder, 'nested', 'digests.sqlite');
  const opened = [await openDatabase({ sqlitePath: path })];
  return {
    store: opened[0] as NonNullable<(typeof opened)[0]>,
    openSibling: async () => {
      const sibling = openSqliteDatabase({ path });
      opened.push(sibling);
      return sibling;
    },
    cleanup: async () => {
      await Promise.all(opened.map((store) => store.close()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
});

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('PostgreSQL adapter', () => {
  const postgres = reusedPostgres();
  contracts('PostgreSQL', async () => {
    const database = postgres();
    const store = database.open();
    await store.migrate();
    return {
      store,
      openSibling: async () => database.open(),
      cleanup: () => database.drop(),
    };
  });

  it('keeps its schema when the URL sets server options too', async () => {
    const database = new TestPostgres();
    const url = new URL(testDatabaseUrl ?? '');
    url.searchParams.set('options', '-c lock_timeout=5000');
    const store = openPostgresDatabase({
      connectionString: url.toString(),
      schema: database.schema,
    });
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    try {
      await store.migrate();
      await admin.connect();
      const { rows } = await admin.query<{ tables: number }>(
        'SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_schema = $1',
        [database.schema],
      );
      expect(rows[0]?.tables).toBeGreaterThan(0);
    } finally {
      await admin.end();
      await store.close();
      await database.drop();
    }
  });
});

describe('postgresConnectionConfig', () => {
  it.each([
    ['postgres://u:p@ec2-1-2-3-4.compute-1.amazonaws.com:5432/db', { rejectUnauthorized: false }],
    ['postgres://u:p@db.example.com/db?sslmode=require', { rejectUnauthorized: false }],
    ['postgres://u:p@db.example.com/db?sslmode=verify-full', { rejectUnauthorized: true }],
    ['postgres://u:p@db.example.com/db?sslmode=disable', false],
    ['postgres://postgres@127.0.0.1:5432/test', false],
    ['postgres://postgres@localhost/test?ssl=true', { rejectUnauthorized: false }],
  ])('reads the TLS mode of %s', (url, ssl) => {
    const config = postgresConnectionConfig(url);
    expect(config.ssl).toEqual(ssl);
    expect(config.connectionString).not.toMatch(/sslmode|ssl=/);
  });

  it('takes the URL’s server options out, for the schema’s search_path to join them', () => {
    const config = postgresConnectionConfig('postgres://h/db?options=-c%20lock_timeout%3D5000');
    expect(config.options).toBe('-c lock_timeout=5000');
    expect(config.connectionString).not.toMatch(/options/);
  });

  it('lets an explicit setting win over the URL', () => {
    expect(postgresConnectionConfig('postgres://h/db?sslmode=disable', 'verify').ssl).toEqual({
      rejectUnauthorized: true,
    });
  });
});
