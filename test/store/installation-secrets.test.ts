/**
 * No token, refresh token or analytics secret of an installation is kept in the clear, printed in
 * a log line, or carried by an error: on SQLite and, with TEST_DATABASE_URL, PostgreSQL, reading
 * the tables as they are on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.ts';
import { SealedValueError } from '../../src/errors.ts';
import { createLogger, serializeError } from '../../src/logger.ts';
import type { Database } from '../../src/store/database.ts';
import type { Installation } from '../../src/store/installations.ts';
import { openDatabase } from '../../src/store/open.ts';
import { announcePostgresSkip, TestPostgres, testDatabaseUrl } from '../digests/helpers.ts';
import { orgInstall, ringA, workspaceInstall } from './installations-contract.ts';

const now = new Date('2026-06-08T08:00:30Z');
const retention = { retentionMs: 30 * 86_400_000 };
const account = { clientId: 'client-T1', clientSecret: new Secret('analytics-secret-T1') };
const team = (teamId: string) => ({ teamId, isEnterpriseInstall: false });

/** Every credential stored below, as text to look for. */
const secrets = [
  ...[workspaceInstall('T1'), workspaceInstall('T2'), orgInstall('E1')].flatMap(({ bot, user }) =>
    [bot?.token, bot?.refreshToken, user.token, user.refreshToken].map((s) => s?.reveal()),
  ),
  account.clientSecret.reveal(),
].filter((s): s is string => s !== undefined);

function expectNoSecret(text: string): void {
  for (const secret of secrets) expect(text).not.toContain(secret);
}

/** A store and a way to read and write its tables behind the repository's back. */
interface Fixture {
  readonly store: Database;
  rows(table: string): Promise<Record<string, unknown>[]>;
  exec(sql: string): Promise<void>;
  cleanup(): Promise<void>;
}

async function sqlite(): Promise<Fixture> {
  const folder = mkdtempSync(join(tmpdir(), 'installations-'));
  const path = join(folder, 'store.sqlite');
  const store = await openDatabase({ sqlitePath: path });
  const raw = new DatabaseSync(path);
  return {
    store,
    rows: async (table) => raw.prepare(`SELECT * FROM ${table}`).all(),
    exec: async (sql) => {
      raw.exec(sql);
    },
    cleanup: async () => {
      raw.close();
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function postgres(): Promise<Fixture> {
  const database = new TestPostgres();
  const store = database.open();
  await store.migrate();
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  await client.query(`SET search_path TO ${database.schema}`);
  return {
    store,
    rows: async (table) => (await client.query(`SELECT * FROM ${table}`)).rows,
    exec: async (sql) => {
      await client.query(sql);
    },
    cleanup: async () => {
      await client.end();
      await database.drop();
    },
  };
}

function suite(name: string, open: () => Promise<Fixture>): void {
  describe(`installation secrets: ${name}`, () => {
    let fixture: Fixture | undefined;
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    async function filled(): Promise<Fixture> {
      fixture = await open();
      const installs = fixture.store.installations.sealedWith(ringA, retention);
      await installs.storeInstallation(workspaceInstall('T1'), now);
      await installs.storeInstallation(workspaceInstall('T2'), now);
      await installs.storeInstallation(orgInstall('E1'), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      return fixture;
    }

    it('keeps every credential sealed in the tables, each row naming its key', async () => {
      const { rows } = await filled();
      const installations = await rows('installations');
      const accounts = await rows('installation_analytics');
      expect(installations).toHaveLength(3);
      expect(accounts).toHaveLength(1);
      expectNoSecret(JSON.stringify([installations, accounts]));
      expect(JSON.stringify(accounts)).not.toContain('client-T1');
      for (const row of [...installations, ...accounts]) expect(row.key_id).toBe(ringA.current.id);
    });

    it('prints an installation and an account in logs and inspections with their secrets redacted', async () => {
      const { store } = await filled();
      const installs = store.installations.sealedWith(ringA, retention);
      const installation = await installs.fetchInstallation(team('T1'));
      const analytics = await installs.analyticsAccount(team('T1'));
      expect(installation?.bot?.token.reveal()).toBe(workspaceInstall('T1').bot?.token.reveal());
      let logged = '';
      const destination = new Writable({
        write(chunk, _encoding, done) {
          logged += String(chunk);
          done();
        },
      });
      const logger = createLogger({ level: 'debug', destination });
      logger.info({ installation, analytics }, 'installation fetched');
      logger.debug(`installation ${JSON.stringify(installation)} ${inspect(analytics)}`);
      expect(logged).toContain('[redacted]');
      expectNoSecret(
        logged + inspect(installation, { depth: 10 }) + String(installation?.user.token),
      );
    });

    it('carries no secret in the error of a credential moved to another row', async () => {
      const { store, exec } = await filled();
      // T2's sealed bot token copied into T1's row: it does not open there.
      await exec(`UPDATE installations SET bot_token =
          (SELECT bot_token FROM installations WHERE id = 'team:T2') WHERE id = 'team:T1'`);
      const installs = store.installations.sealedWith(ringA, retention);
      const error = await installs.fetchInstallation(team('T1')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SealedValueError);
      expect((error as SealedValueError).message).toBe(
        `installations/team:T1/bot_token does not open with key ${ringA.current.id}: it was altered, or sealed for another row or purpose`,
      );
      expectNoSecret(JSON.stringify(serializeError(error)) + inspect(error));
      expect(await installs.fetchInstallation(team('T2'))).toBeDefined();
    });

    it('hands the database only sealed values, so a refused statement carries no secret', async () => {
      fixture = await open();
      const installs = fixture.store.installations.sealedWith(ringA, retention);
      const broken = {
        ...workspaceInstall('T1'),
        user: { ...workspaceInstall('T1').user, id: null },
      } as unknown as Installation;
      const error = await installs.storeInstallation(broken, now).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      // PostgreSQL's detail quotes the whole row it refused: sealed values only.
      const detail = (error as { detail?: string }).detail;
      if (detail !== undefined) expect(detail).toContain(`v1.${ringA.current.id}.`);
      expectNoSecret(JSON.stringify(serializeError(error)) + inspect(error, { depth: 10 }));
    });
  });
}

suite('SQLite', sqlite);
announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('PostgreSQL', () => {
  suite('PostgreSQL', postgres);
});
