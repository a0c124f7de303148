/**
 * What the logs say when PostgreSQL drops the app's connection (a restart, a failover, an admin
 * ending sessions): one line with the server's code, never the connection or client objects.
 */
import { Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { openPostgresDatabase } from '../../src/store/sql/postgres.ts';
import { announcePostgresSkip, testDatabaseUrl } from '../digests/helpers.ts';

announcePostgresSkip();

describe.skipIf(!testDatabaseUrl)('PostgreSQL connection lost (PostgreSQL)', () => {
  it('logs one line with the code when the server ends an idle connection', async () => {
    const url = testDatabaseUrl ?? '';
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const applicationName = `influencers-test-${process.pid}-${Date.now()}`;
    const database = openPostgresDatabase({
      connectionString: url,
      applicationName,
      logger: createLogger({ level: 'debug', destination }),
    });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await database.ping();
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      await vi.waitFor(() => expect(lines.length).toBeGreaterThan(0));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
      expect(line).toMatchObject({ msg: 'idle PostgreSQL connection failed', code: '57P01' });
      expect(lines[0]).not.toMatch(/"client"|"_connection"|"connectionParameters"|"stream"/);
      // The pool opens a new connection on the next call.
      await database.ping();
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
