/**
 * How each adapter runs the claim statement with thousands of digests due: through the index kept
 * in the claim's order, stopping once the batch is full, and with no sort of every due digest nor
 * an outage subquery per due digest (what made claims slow once outages were added).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClaimOptions } from '../../../src/store/digests.ts';
import { postgresClaimSql } from '../../../src/store/sql/postgres.ts';
import { openSqliteDatabase, sqliteClaimSql } from '../../../src/store/sql/sqlite.ts';
import { claimParams } from '../../../src/store/sql/statements.ts';
import { announcePostgresSkip, TestPostgres, testDatabaseUrl } from '../../digests/helpers.ts';

const now = new Date('2026-06-08T08:00:10Z');
const due = 2_000;
const forms: readonly [string, ClaimOptions][] = [
  ['every workspace not on hold', { limit: 200, leaseMs: 60_000, owner: 'a' }],
  ['one workspace', { limit: 200, leaseMs: 60_000, owner: 'a', teamId: 'T1' }],
];
/** The indexes that keep the claim's order (the second within one workspace). */
const claimIndex = /digests_(team_)?claim/;
/** A subquery run for each row (not once, hashed) or a sort of every due digest. */
const perRowWork = /(?<!hashed )SubPlan \d+\)|Sort|TEMP B-TREE|CORRELATED/;

/** Active digests due just before `now`, nine in ten of workspace T1, in one statement. */
function fillSql(instant: (sql: string) => string): string {
  return `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${due})
    INSERT INTO digests (id, team_id, channel_id, creator_id, databases, schedule, run_window,
      top, status, next_run_at, created_at, updated_at)
    SELECT 'D' || i, CASE WHEN i % 10 = 0 THEN 'T4' ELSE 'T1' END, 'C' || i, 'U1', '["#hcsm"]',
      '{"kind":"cron","expression":"0 9 * * 1","zone":"Europe/London","cadence":"weekly"}',
      '{"kind":"since-previous-run"}', 5, 'active', ${instant('2026-06-08T08:00:00Z')},
      ${instant('2026-06-01T08:00:00Z')}, ${instant('2026-06-01T08:00:00Z')}
    FROM n`;
}

describe('the claim statement on SQLite', () => {
  let folder: string | undefined;
  afterEach(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it.each(forms)('walks an index in claim order for %s', async (_name, options) => {
    folder = mkdtempSync(join(tmpdir(), 'digests-plan-'));
    const path = join(folder, 'digests.sqlite');
    const store = openSqliteDatabase({ path });
    await store.migrate();
    await store.close();
    const db = new DatabaseSync(path);
    try {
      db.exec(fillSql((iso) => String(Date.parse(iso))));
      db.exec('ANALYZE');
      const params = claimParams(now, options).map((value) =>
        value instanceof Date ? value.getTime() : (value as string | number),
      );
      const plan = (
        db
          .prepare(`EXPLAIN QUERY PLAN ${sqliteClaimSql(options).replace(/\$(\d+)/g, '?$1')}`)
          .all(...params) as { detail: string }[]
      ).map((row) => row.detail);
      const walks = plan.filter((line) => line.startsWith('SEARCH digests USING INDEX'));
      expect(walks.length).toBe(1);
      expect(walks[0]).toMatch(claimIndex);
      expect(plan.filter((line) => perRowWork.test(line))).toEqual([]);
    } finally {
      db.close();
    }
  });
});

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('the claim statement on PostgreSQL', () => {
  let database: TestPostgres | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it.each(forms)('walks an index in claim order for %s', async (_name, options) => {
    database = new TestPostgres();
    await database.open().migrate();
    const client = new pg.Client({
      connectionString: testDatabaseUrl,
      options: `-c search_path=${database.schema}`,
    });
    await client.connect();
    try {
      await client.query(fillSql((iso) => `'${iso}'::timestamptz`));
      await client.query(
        "INSERT INTO digest_outages VALUES ('T4', 'analytics_unavailable', now(), now(), 0)",
      );
      await client.query('ANALYZE digests');
      const explained = await client.query(
        `EXPLAIN ${postgresClaimSql(options)}`,
        claimParams(now, options),
      );
      const plan = explained.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']);
      const walk = plan.find((line) => / Scan .*on digests (?!d )/.test(line));
      expect(walk).toMatch(/-> {2}Index Scan using /);
      expect(walk).toMatch(claimIndex);
      expect(plan.filter((line) => perRowWork.test(line))).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
