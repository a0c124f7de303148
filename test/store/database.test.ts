import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/open.ts';
import { postgresConnectionConfig } from '../../src/store/sql/postgres.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';
import { announcePostgresSkip, reusedPostgres, testDatabaseUrl } from '../digests/helpers.ts';
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

  it('lets an explicit setting win over the URL', () => {
    expect(postgresConnectionConfig('postgres://h/db?sslmode=disable', 'verify').ssl).toEqual({
      rejectUnauthorized: true,
    });
  });
});
