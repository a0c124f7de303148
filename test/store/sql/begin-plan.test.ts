/**
 * How PostgreSQL runs the statement that writes each post's `posting` records, with the plan it
 * keeps for a connection's prepared statement: a plan made while the delivery records were few
 * must not read all of them at every post once there are many (which is what a tick of 100,000
 * digests met, its records growing while the plan stayed).
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { beginDeliveriesSql } from '../../../src/store/sql/postgres.ts';
import { announcePostgresSkip, TestPostgres, testDatabaseUrl } from '../../digests/helpers.ts';

const records = 5_000;
const slot = '2026-06-08T08:00:00Z';

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Actual Loops': number;
  readonly 'Actual Rows': number;
  readonly Plans?: readonly PlanNode[];
}

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

/** Digests D1..Dn due at the slot, in one statement. */
function digestsSql(count: number): string {
  return `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO digests (id, team_id, channel_id, creator_id, databases, schedule, run_window,
      top, status, next_run_at, created_at, updated_at)
    SELECT 'D' || i, 'T1', 'C' || i, 'U1', '["#hcsm"]',
      '{"kind":"cron","expression":"0 9 * * 1","zone":"Europe/London","cadence":"weekly"}',
      '{"kind":"since-previous-run"}', 5, 'active', '${slot}', '${slot}', '${slot}'
    FROM n`;
}

/** Posted records of the slot for digests D1..Dn. */
function recordsSql(count: number): string {
  return `INSERT INTO digest_deliveries (digest_id, slot, status, owner, started_at, finished_at)
    SELECT 'D' || i, '${slot}', 'posted', 'a', '${slot}', '${slot}'
    FROM generate_series(1, ${count}) AS i`;
}

/** The prepared begin statement's arguments for digests `ids` at the slot, as SQL literals. */
function startsSql(ids: readonly string[]): string {
  const each = (value: string) => `'{${ids.map(() => value).join(',')}}'`;
  return `'{${ids.join(',')}}', ${each(slot)}, ${each('b')}, ${each(slot)}`;
}

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('the posting records statement on PostgreSQL', () => {
  let database: TestPostgres | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('reads no delivery record it did not need, with a plan made while they were few', async () => {
    database = new TestPostgres();
    await database.open().migrate();
    const client = new pg.Client({
      connectionString: testDatabaseUrl,
      options: `-c search_path=${database.schema} -c plan_cache_mode=force_generic_plan`,
    });
    await client.connect();
    try {
      await client.query(digestsSql(records + 10));
      await client.query('ANALYZE');
      // Prepared and planned while there is no record, as a connection's first post of a tick.
      await client.query(
        `PREPARE begin_posting (text[], timestamptz[], text[], timestamptz[]) AS ${beginDeliveriesSql}`,
      );
      await client.query('BEGIN');
      await client.query(`EXECUTE begin_posting (${startsSql(['D1'])})`);
      await client.query('ROLLBACK');
      await client.query(recordsSql(records));

      const explain = async (ids: readonly string[]) => {
        await client.query('BEGIN');
        try {
          const { rows } = await client.query(
            `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE begin_posting (${startsSql(ids)})`,
          );
          return nodes((rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]?.Plan as PlanNode);
        } finally {
          await client.query('ROLLBACK');
        }
      };
      const readsOfRecords = (plan: PlanNode[]) =>
        plan
          .filter((node) => node['Relation Name'] === 'digest_deliveries')
          .filter((node) => node['Node Type'] !== 'ModifyTable')
          .reduce((rows, node) => rows + node['Actual Rows'] * node['Actual Loops'], 0);
      const seqScans = (plan: PlanNode[]) =>
        plan.filter(
          (node) =>
            node['Node Type'] === 'Seq Scan' &&
            node['Relation Name'] === 'digest_deliveries' &&
            node['Actual Loops'] > 0,
        );

      // Every record new: none is read.
      const fresh = await explain([`D${records + 1}`, `D${records + 2}`, `D${records + 3}`]);
      expect(seqScans(fresh)).toEqual([]);
      expect(readsOfRecords(fresh)).toBe(0);
      // Records that exist are read one by one, not with every other record.
      const existing = await explain(['D1', 'D2', `D${records + 4}`]);
      expect(readsOfRecords(existing)).toBeLessThanOrEqual(2);
    } finally {
      await client.end();
    }
  });
});
