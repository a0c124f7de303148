import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DigestStoreUnavailableError } from '../../../src/errors.ts';
import type { Database } from '../../../src/store/database.ts';
import { openPostgresDatabase } from '../../../src/store/sql/postgres.ts';
import { openSqliteDatabase } from '../../../src/store/sql/sqlite.ts';
import { unavailableReason } from '../../../src/store/sql/unavailable.ts';
import {
  announcePostgresSkip,
  digestInput,
  TestPostgres,
  testDatabaseUrl,
} from '../../digests/helpers.ts';
import { TcpProxy } from '../../helpers/tcp-proxy.ts';

const timeouts = { connectTimeoutMs: 300, answerTimeoutMs: 600 };

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('unavailableReason', () => {
  it.each([
    [new Error('Query read timeout'), 'no answer within 600 ms'],
    [new Error('timeout exceeded when trying to connect'), 'no connection within 300 ms'],
    [new Error('Connection terminated due to connection timeout'), 'no connection within 300 ms'],
    [withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'connection refused'],
    [withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND'), 'host not found'],
    [
      withCode('canceling statement due to statement timeout', '57014'),
      'a statement ran past its timeout',
    ],
    [
      withCode('terminating connection due to administrator command', '57P01'),
      'the database is shutting down',
    ],
    [withCode('sorry, too many clients already', '53300'), 'the database has no connection left'],
    [withCode('connection failure', '08006'), 'the connection failed'],
    [new Error('Connection terminated unexpectedly'), 'the connection was closed'],
    [
      Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }),
      'the SQLite file stayed locked by another process',
    ],
  ])('reads %s as the store not answering', (error, reason) => {
    expect(unavailableReason(error, timeouts)).toBe(reason);
  });

  it.each([
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('syntax error at or near "SELEC"', '42601'),
    new Error('delivery record vanished inside its transaction'),
    'a string',
  ])('leaves a fault of the statement as it is: %s', (error) => {
    expect(unavailableReason(error, timeouts)).toBeUndefined();
  });
});

describe('a PostgreSQL store that stops answering', () => {
  const stores: Database[] = [];
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close().catch(() => undefined)));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });

  it('says it is unavailable within its connect timeout when connections are never answered', async () => {
    const hole = await TcpProxy.start();
    proxies.push(hole);
    const store = openPostgresDatabase({
      connectionString: `postgres://postgres:secret@127.0.0.1:${hole.port}/test`,
      connectTimeoutMs: 300,
      statementTimeoutMs: 300,
    });
    stores.push(store);
    const started = performance.now();
    const failure = await store.digests.get('ABC123').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DigestStoreUnavailableError);
    expect((failure as DigestStoreUnavailableError).reason).toBe('no connection within 300 ms');
    expect(performance.now() - started).toBeLessThan(2_000);
    // The pool hands out no connection either while every one of them hangs.
    const all = await Promise.allSettled(Array.from({ length: 8 }, () => store.ping()));
    expect(all.every((one) => one.status === 'rejected')).toBe(true);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(hole.connections).toBeGreaterThan(0);
  });

  announcePostgresSkip();
  it.skipIf(!testDatabaseUrl)(
    'gives up on statements of a connection that went silent, then works again once it answers',
    async () => {
      const database = new TestPostgres();
      const target = new URL(testDatabaseUrl ?? '');
      const proxy = await TcpProxy.start({
        host: target.hostname,
        port: Number(target.port || 5432),
      });
      proxies.push(proxy);
      const through = new URL(target);
      through.host = `127.0.0.1:${proxy.port}`;
      const store = openPostgresDatabase({
        connectionString: through.toString(),
        schema: database.schema,
        connectTimeoutMs: 300,
        statementTimeoutMs: 300,
      });
      stores.push(store);
      try {
        await store.migrate();
        const digest = await store.digests.create(digestInput(), new Date('2026-06-01T08:00:00Z'));
        proxy.blackHole();
        const started = performance.now();
        const read = await store.digests.get(digest.id).catch((error: unknown) => error);
        expect(read).toBeInstanceOf(DigestStoreUnavailableError);
        expect((read as DigestStoreUnavailableError).reason).toMatch(
          /^no (answer within 600|connection within 300) ms$/,
        );
        const write = await store.digests.remove(digest.id).catch((error: unknown) => error);
        expect(write).toBeInstanceOf(DigestStoreUnavailableError);
        expect(performance.now() - started).toBeLessThan(3_000);
        proxy.forward();
        expect((await store.digests.get(digest.id))?.id).toBe(digest.id);
        await store.ping();
      } finally {
        await store.close().catch(() => undefined);
        await database.drop();
      }
    },
  );
});

describe('a SQLite store locked by another process', () => {
  it('says it is unavailable once its busy timeout ran out', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'digests-locked-'));
    const path = join(folder, 'digests.sqlite');
    const store = openSqliteDatabase({ path, busyTimeoutMs: 100 });
    const other = new DatabaseSync(path);
    try {
      await store.migrate();
      const digest = await store.digests.create(digestInput(), new Date('2026-06-01T08:00:00Z'));
      other.exec('BEGIN IMMEDIATE');
      const failure = await store.digests
        .pause(digest.id, new Date('2026-06-01T08:01:00Z'))
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DigestStoreUnavailableError);
      other.exec('ROLLBACK');
      expect((await store.digests.pause(digest.id, new Date('2026-06-01T08:02:00Z'))).status).toBe(
        'paused',
      );
    } finally {
      other.close();
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
