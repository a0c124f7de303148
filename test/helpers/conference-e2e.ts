/**
 * What the conference end-to-end tests share: the app over a digest store on a clock the test
 * moves, against one sandbox, a slash command answered and its work finished, a tick at an
 * instant, and the two stores to run on (SQLite always, PostgreSQL where TEST_DATABASE_URL is set).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { TickReport } from '../../src/digests/tick.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';
import { TestPostgres, testDatabaseUrl, until } from '../digests/helpers.ts';
import type { SlackCall } from './fake-slack.ts';
import { type Harness, startHarness } from './harness.ts';
import { slashCommand } from './payloads.ts';

export interface StoreAdapter {
  readonly name: string;
  readonly enabled: boolean;
  open(): { store(): Promise<Database>; drop(): Promise<void> };
}

export interface ConferenceE2e {
  /** Sets the instant the app's clock reads. */
  setNow(at: Date): void;
  /** The app over `store`, on the test's clock, against the shared sandbox. */
  app(store: Database): Promise<Harness>;
  /** Runs a command and waits for its answer and for the work it started (a first leaderboard). */
  command(harness: Harness, text: string, channelId: string): Promise<string>;
  /** Moves the clock to `at` and runs what is due then. */
  tick(harness: Harness, at: string): Promise<TickReport>;
  readonly adapters: readonly StoreAdapter[];
}

/** One sandbox for the file, closed after it; `folderPrefix` names the SQLite files' folder. */
export async function conferenceE2e(folderPrefix: string): Promise<ConferenceE2e> {
  let current = new Date('2026-11-26T14:00:00Z');
  const now = () => current;
  const sleep = async () => undefined;
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    now: () => new Date('2027-01-01T00:00:00Z'),
  });
  afterAll(() => sandbox.close());

  const app = async (store: Database): Promise<Harness> => {
    const harness = await startHarness({
      env: { RESPONSE_CACHE_TTL_MS: '0' },
      sharedSandbox: sandbox,
      overrides: {
        now,
        digests: {
          database: store,
          clock: { now, sleep },
          runnerOptions: { backoffMs: 1, channelIntervalMs: 0 },
        },
      },
    });
    harness.slack.override('conversations.info', (args) => ({
      ok: true,
      channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
    }));
    return harness;
  };

  const command = async (harness: Harness, text: string, channelId: string): Promise<string> => {
    const payload = slashCommand({ text, channelId });
    const ack = await harness.send(payload);
    expect(ack.status).toBe(200);
    const answer = await harness.slack.waitForResponse(payload.responseUrl);
    await until(() => harness.running.deps.inFlight.size === 0);
    return String(answer.args.text);
  };

  const tick = (harness: Harness, at: string) => {
    current = new Date(at);
    // Every job's tick, as the timer and `jobs run-due` run them: the digests, then the conferences.
    return harness.running.digests.runDue(current).then((report) => report.digests);
  };

  const adapters: StoreAdapter[] = [
    {
      name: 'SQLite',
      enabled: true,
      open: () => {
        const folder = mkdtempSync(join(tmpdir(), folderPrefix));
        const path = join(folder, 'digests.sqlite');
        return {
          store: async () => {
            const store = openSqliteDatabase({ path });
            await store.migrate();
            return store;
          },
          drop: async () => rmSync(folder, { recursive: true, force: true }),
        };
      },
    },
    {
      name: 'PostgreSQL',
      enabled: testDatabaseUrl !== undefined,
      open: () => {
        const database = new TestPostgres();
        return {
          store: async () => {
            const store = database.open();
            await store.migrate();
            return store;
          },
          drop: () => database.drop(),
        };
      },
    },
  ];

  return {
    setNow: (at) => {
      current = at;
    },
    app,
    command,
    tick,
    adapters,
  };
}

export const inChannel = (harness: Harness, method: string, channel: string): SlackCall[] =>
  harness.slack.api(method).filter((call) => call.args.channel === channel);

export const blocksOf = (call: SlackCall | undefined) => JSON.stringify(call?.args.blocks);
