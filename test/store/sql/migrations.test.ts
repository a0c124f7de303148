/**
 * Migrations that convert rows, run on both adapters from the schema they start from: the store
 * is built at the earlier version by hand, filled as that version wrote it, then migrated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/store/database.ts';
import { migrations, schemaMigrationsTable } from '../../../src/store/sql/migrations.ts';
import { openSqliteDatabase } from '../../../src/store/sql/sqlite.ts';
import { announcePostgresSkip, TestPostgres, testDatabaseUrl } from '../../digests/helpers.ts';

/** A database at `version`, where `insert` runs one parameterless statement. */
interface LegacyDatabase {
  readonly dialect: 'sqlite' | 'postgres';
  insert(sql: string): Promise<void>;
  /** The store over that database, migrated to the latest version. */
  migrated(): Promise<Database>;
  cleanup(): Promise<void>;
}

async function sqliteAt(version: number): Promise<LegacyDatabase> {
  const folder = mkdtempSync(join(tmpdir(), 'digests-migrate-'));
  const path = join(folder, 'digests.sqlite');
  const db = new DatabaseSync(path);
  db.exec(schemaMigrationsTable.sqlite);
  for (const migration of migrations.filter((m) => m.version <= version)) {
    db.exec(migration.sqlite);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(
      migration.version,
      migration.name,
    );
  }
  let store: Database | undefined;
  return {
    dialect: 'sqlite',
    insert: async (sql) => {
      db.exec(sql);
    },
    migrated: async () => {
      db.close();
      store = openSqliteDatabase({ path });
      await store.migrate();
      return store;
    },
    cleanup: async () => {
      await store?.close();
      if (db.isOpen) db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function postgresAt(version: number): Promise<LegacyDatabase> {
  const database = new TestPostgres();
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${database.schema}`);
  await client.query(`SET search_path TO ${database.schema}`);
  await client.query(schemaMigrationsTable.postgres);
  for (const migration of migrations.filter((m) => m.version <= version)) {
    await client.query(migration.postgres);
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
      migration.version,
      migration.name,
    ]);
  }
  return {
    dialect: 'postgres',
    insert: async (sql) => {
      await client.query(sql);
    },
    migrated: async () => {
      const store = database.open();
      await store.migrate();
      return store;
    },
    cleanup: async () => {
      await client.end();
      await database.drop();
    },
  };
}

/** A digest row as version 1 wrote it. */
function legacyDigest(
  dialect: LegacyDatabase['dialect'],
  id: string,
  fields: { pausedReason?: string; failures?: number; schedule?: object },
): string {
  const instant = dialect === 'sqlite' ? '1780905600000' : "'2026-06-08T08:00:00Z'";
  const text = (value: string | undefined) =>
    value === undefined ? 'NULL' : `'${value.replace(/'/g, "''")}'`;
  const schedule = fields.schedule ?? {
    kind: 'cron',
    expression: '0 9 * * 1',
    zone: 'Europe/London',
    cadence: 'weekly',
  };
  return `INSERT INTO digests (id, team_id, channel_id, creator_id, databases, schedule, run_window,
      top, status, paused_reason, consecutive_failures, next_run_at, created_at, updated_at)
    VALUES ('${id}', 'T1', 'C1', 'U1', '["#hcsm"]', ${text(JSON.stringify(schedule))},
      '{"kind":"since-previous-run"}', 10, ${fields.pausedReason === undefined ? "'active'" : "'paused'"},
      ${text(fields.pausedReason)}, ${fields.failures ?? 0}, ${instant}, ${instant}, ${instant})`;
}

function migrationSuite(name: string, open: (version: number) => Promise<LegacyDatabase>): void {
  describe(`migration 2, pause reasons and schedules as codes and data: ${name}`, () => {
    let legacy: LegacyDatabase | undefined;
    afterEach(async () => {
      await legacy?.cleanup();
      legacy = undefined;
    });

    it('converts worded pause reasons, in either form, into codes and data', async () => {
      const db = await open(1);
      legacy = db;
      const rows: [string, string | undefined, number][] = [
        ['AAAAA1', 'the channel was archived (3 failed runs in a row)', 3],
        ['AAAAA2', 'channel_unreachable: not_found (1 failed runs in a row)', 1],
        [
          'AAAAA3',
          "the analytics service rejected this app's credentials; an admin must check them (3 failed runs in a row)",
          3,
        ],
        ['AAAAA4', 'access_denied (2 failed runs in a row)', 2],
        ['AAAAA5', 'something nobody wrote down (4 failed runs in a row)', 4],
        ['AAAAA6', undefined, 0],
      ];
      for (const [id, reason, failures] of rows) {
        await db.insert(
          legacyDigest(db.dialect, id, { ...(reason ? { pausedReason: reason } : {}), failures }),
        );
      }
      const store = await db.migrated();
      const reasons = await Promise.all(
        rows.map(async ([id]) => (await store.digests.get(id))?.pauseReason),
      );
      expect(reasons).toEqual([
        { kind: 'failures', failures: 3, code: 'channel_unreachable', detail: 'archived' },
        { kind: 'failures', failures: 1, code: 'channel_unreachable', detail: 'not_found' },
        { kind: 'failures', failures: 3, code: 'credentials_rejected' },
        { kind: 'failures', failures: 2, code: 'access_denied' },
        { kind: 'failures', failures: 4, code: 'unknown' },
        undefined,
      ]);
      expect((await store.digests.get('AAAAA6'))?.status).toBe('active');
    });

    it('drops stored schedule descriptions, keeping the schedule itself', async () => {
      const db = await open(1);
      legacy = db;
      const hourly = {
        kind: 'cron',
        expression: '0 */2 * * *',
        zone: 'Asia/Kolkata',
        cadence: 'custom',
      };
      await db.insert(
        legacyDigest(db.dialect, 'BBBBB1', {
          schedule: { ...hourly, description: 'Every 2 hours at :00 Asia/Kolkata' },
        }),
      );
      const store = await db.migrated();
      expect((await store.digests.get('BBBBB1'))?.schedule).toEqual(hourly);
    });
  });

  describe(`migration 9, unconfirmed posts told and posted again: ${name}`, () => {
    let legacy: LegacyDatabase | undefined;
    afterEach(async () => {
      await legacy?.cleanup();
      legacy = undefined;
    });

    it('counts the posting records of earlier versions as told, so nobody is sent old news', async () => {
      const db = await open(8);
      legacy = db;
      await db.insert(legacyDigest(db.dialect, 'CCCCC1', {}));
      const instant = db.dialect === 'sqlite' ? '1780905600000' : "'2026-06-08T08:00:00Z'";
      await db.insert(
        `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at)
         VALUES ('CCCCC1', ${instant}, 'posting', 'runner-old', ${instant})`,
      );
      const store = await db.migrated();
      const slot = new Date('2026-06-08T08:00:00Z');
      expect(await store.runs.getDelivery('CCCCC1', slot)).toMatchObject({
        status: 'posting',
        noticedAt: slot,
      });
      const later = new Date('2026-07-01T00:00:00Z');
      expect(await store.runs.takeUnconfirmed(later, later)).toEqual([]);
    });
  });
}

function lateSkipSuite(name: string, open: (version: number) => Promise<LegacyDatabase>): void {
  describe(`migration 29, runs skipped as too late told once: ${name}`, () => {
    let legacy: LegacyDatabase | undefined;
    afterEach(async () => {
      await legacy?.cleanup();
      legacy = undefined;
    });

    it('counts the late skips of earlier versions as told, so nobody is sent old news', async () => {
      const db = await open(28);
      legacy = db;
      await db.insert(legacyDigest(db.dialect, 'DDDDD1', {}));
      const instant = db.dialect === 'sqlite' ? '1780905600000' : "'2026-06-08T08:00:00Z'";
      await db.insert(
        `INSERT INTO digest_deliveries
           (digest_id, slot, status, owner, started_at, finished_at, skipped_count, error_code)
         VALUES ('DDDDD1', ${instant}, 'skipped', 'runner-old', ${instant}, ${instant}, 3, 'missed')`,
      );
      const store = await db.migrated();
      expect(await store.runs.lateCreators()).toEqual([]);
      const slot = new Date('2026-06-08T08:00:00Z');
      expect(await store.runs.getDelivery('DDDDD1', slot)).toMatchObject({
        status: 'skipped',
        noticedAt: slot,
      });
    });
  });
}

migrationSuite('SQLite', sqliteAt);
lateSkipSuite('SQLite', sqliteAt);

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('PostgreSQL', () => {
  migrationSuite('PostgreSQL', postgresAt);
  lateSkipSuite('PostgreSQL', postgresAt);
});

describe('the migrations', () => {
  it('have distinct versions in ascending order, so none is skipped as applied', () => {
    const versions = migrations.map((migration) => migration.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
  });
});
