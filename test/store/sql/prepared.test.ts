/**
 * The delivery record statements PostgreSQL prepares once per connection: they name every column
 * of a record, and keep working when another instance's migration adds a column meanwhile.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/store/database.ts';
import { deliveryColumns, openPostgresDatabase } from '../../../src/store/sql/postgres.ts';
import { announcePostgresSkip, digestInput, testDatabaseUrl } from '../../digests/helpers.ts';

announcePostgresSkip();

const slot = new Date('2026-06-08T08:00:00Z');
const now = new Date('2026-06-08T08:00:10Z');

describe.skipIf(!testDatabaseUrl)('the prepared delivery statements on PostgreSQL', () => {
  let store: Database | undefined;
  let admin: pg.Client;
  let schema: string;

  afterEach(async () => {
    await store?.close();
    store = undefined;
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  /** One connection, so every statement runs where the one before it was prepared. */
  async function open(): Promise<Database> {
    schema = `digests_prepared_${randomBytes(6).toString('hex')}`;
    admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    store = openPostgresDatabase({
      connectionString: testDatabaseUrl ?? '',
      schema,
      maxConnections: 1,
    });
    await store.migrate();
    return store;
  }

  it('name every column of a delivery record', async () => {
    await open();
    const { rows } = await admin.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = 'digest_deliveries'`,
      [schema],
    );
    expect(rows.map((row) => row.column_name).sort()).toEqual([...deliveryColumns].sort());
  });

  it('keep working when a column is added while they are prepared', async () => {
    const opened = await open();
    const digest = await opened.digests.create(digestInput({ nextRunAt: slot }), now);
    expect(
      await opened.runs.beginDeliveries([{ digestId: digest.id, slot, owner: 'a', now }]),
    ).toEqual([{ kind: 'started' }]);
    await admin.query(`ALTER TABLE ${schema}.digest_deliveries ADD COLUMN added_later TEXT`);

    const [again] = await opened.runs.beginDeliveries([
      { digestId: digest.id, slot, owner: 'b', now },
    ]);
    expect(again).toMatchObject({ kind: 'already', delivery: { status: 'posting', owner: 'a' } });
    await opened.runs.completeMany([
      {
        digestId: digest.id,
        slot,
        completion: { owner: 'a', outcome: 'posted', at: now, messageTs: '1.1' },
      },
    ]);
    expect(await opened.runs.getDelivery(digest.id, slot)).toMatchObject({
      status: 'posted',
      messageTs: '1.1',
    });
  });
});
