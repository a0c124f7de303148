/** Fakes and builders shared by the digest tests. */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe } from 'vitest';
import type {
  AnalyticsApi,
  InfluencersQuery,
  InfluencersResult,
} from '../../src/analytics/types.ts';
import {
  type Clock,
  type DigestPoster,
  DigestRunner,
  type DigestRunnerDeps,
} from '../../src/digests/runner.ts';
import { openPostgresStore } from '../../src/digests/store/postgres.ts';
import { openSqliteStore } from '../../src/digests/store/sqlite.ts';
import type { DigestStore } from '../../src/digests/store/store.ts';
import type { NewDigest } from '../../src/model/digest.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digest-post.ts';
import { toDigestError } from '../../src/slack/web-api/poster.ts';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/** Time moves only when told to, or by the amount a sleeper asked for. */
export class FakeClock implements Clock {
  #ms: number;
  readonly sleeps: number[] = [];

  constructor(start: string | Date) {
    this.#ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  set(instant: string | Date): void {
    this.#ms = new Date(instant).getTime();
  }

  advance(ms: number): void {
    this.#ms += ms;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.#ms += ms;
  }
}

/** Every day at 09:00 London: the schedule of the runner tests that step a day at a time. */
export const dailyLondon = {
  kind: 'cron',
  expression: '0 9 * * *',
  zone: 'Europe/London',
  cadence: 'daily',
} as const;

export function digestInput(overrides: Partial<NewDigest> = {}): NewDigest {
  return {
    teamId: 'T1',
    channelId: 'C1',
    creatorId: 'U1',
    databases: ['#hcsm'],
    schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'Europe/London', cadence: 'weekly' },
    window: { kind: 'since-previous-run' },
    top: 5,
    nextRunAt: new Date('2026-06-08T08:00:00Z'),
    ...overrides,
  };
}

export function influencers(...names: string[]): InfluencersResult {
  return {
    influencers: names.map((screenName, index) => ({
      rank: index + 1,
      screenName,
      stakeholderCategories: [],
      metrics: {},
    })),
  };
}

/** Records every question; answers with `answer(query)` (default: three accounts). */
export class FakeAnalytics implements AnalyticsApi {
  readonly calls: InfluencersQuery[] = [];
  answer: (query: InfluencersQuery) => Promise<InfluencersResult> = async () =>
    influencers('alice', 'bob', 'carol');

  getInfluencers(query: InfluencersQuery): Promise<InfluencersResult> {
    this.calls.push(query);
    return this.answer(query);
  }
}

export interface Post {
  readonly channelId: string;
  readonly message: SlackMessage;
  readonly at: number;
  readonly ts: string;
}

/**
 * Captures posts; `failWith(channelId)` decides an error to throw for a channel, if any. Slack's
 * own errors reach the runner as the Slack poster hands them on, through `toDigestError`.
 */
export class FakePoster implements DigestPoster {
  readonly posts: Post[] = [];
  readonly attempts: { channelId: string; at: number }[] = [];
  readonly notices: { userId: string; message: SlackMessage }[] = [];
  /** Outage notices: who the runner asked to tell (the Slack poster keeps only admins). */
  readonly adminNotices: { userIds: readonly string[]; message: SlackMessage }[] = [];
  failWith: (channelId: string, attempt: number) => unknown = () => undefined;
  delayMs = 0;
  readonly #clock: Clock | undefined;
  #next = 1;

  constructor(clock?: Clock) {
    this.#clock = clock;
  }

  async post(channelId: string, message: SlackMessage): Promise<{ ts: string }> {
    const at = this.#clock?.now().getTime() ?? Date.now();
    this.attempts.push({ channelId, at });
    const attempt = this.attempts.filter((item) => item.channelId === channelId).length;
    const error = this.failWith(channelId, attempt);
    if (error) throw toDigestError(channelId, error, message);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const ts = `1700000000.${String(this.#next++).padStart(6, '0')}`;
    this.posts.push({ channelId, message, at, ts });
    return { ts };
  }

  async notifyCreator(userId: string, message: SlackMessage): Promise<void> {
    this.notices.push({ userId, message });
  }

  async notifyAdmins(userIds: readonly string[], message: SlackMessage): Promise<void> {
    this.adminNotices.push({ userIds, message });
  }

  /** What `auth.test` says: the workspace the token works for, or undefined when refused. */
  workingFor: string | undefined = 'T1';
  readonly authTests: number[] = [];

  async workspace(): Promise<string | undefined> {
    this.authTests.push(this.#clock?.now().getTime() ?? Date.now());
    return this.workingFor;
  }
}

/** A PostgreSQL schema of its own per test file run, dropped at the end. */
export class TestPostgres {
  readonly schema = `digests_test_${randomBytes(6).toString('hex')}`;
  readonly #stores: DigestStore[] = [];

  open(): DigestStore {
    if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
    const store = openPostgresStore({ connectionString: testDatabaseUrl, schema: this.schema });
    this.#stores.push(store);
    return store;
  }

  async drop(): Promise<void> {
    await Promise.all(this.#stores.splice(0).map((store) => store.close().catch(() => undefined)));
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
    } finally {
      await client.end();
    }
  }
}

export function announcePostgresSkip(): void {
  if (!testDatabaseUrl) console.log('PostgreSQL tests skipped: TEST_DATABASE_URL is not set');
}

/** A store of one adapter for one test, and how to open more connections to it. */
export interface StoreUnderTest {
  readonly store: DigestStore;
  /** Another connection to the same database (a second instance). */
  sibling(): Promise<DigestStore>;
  close(): Promise<void>;
}

/**
 * The adapters a runner test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
 * Each `open()` gives a fresh, migrated database.
 */
export const storesUnderTest: readonly {
  readonly name: string;
  readonly enabled: boolean;
  open(): Promise<StoreUnderTest>;
}[] = [
  {
    name: 'SQLite',
    enabled: true,
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'digests-runner-'));
      const path = join(folder, 'digests.sqlite');
      const opened = [openSqliteStore({ path })];
      await opened[0]?.migrate();
      return {
        store: opened[0] as DigestStore,
        sibling: async () => {
          const sibling = openSqliteStore({ path });
          opened.push(sibling);
          return sibling;
        },
        close: async () => {
          await Promise.all(opened.map((store) => store.close()));
          rmSync(folder, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    enabled: testDatabaseUrl !== undefined,
    async open() {
      const database = new TestPostgres();
      const store = database.open();
      await store.migrate();
      return { store, sibling: async () => database.open(), close: () => database.drop() };
    },
  },
];

/** What each test of a `describeEachStore` suite gets afresh: a store, a clock, fakes, a runner. */
export interface RunnerWorld {
  readonly db: StoreUnderTest;
  readonly clock: FakeClock;
  readonly analytics: FakeAnalytics;
  readonly poster: FakePoster;
  /** A runner over the world's store (or `store`), its fakes and the real renderers. */
  runner(overrides?: Partial<DigestRunnerDeps>): DigestRunner;
}

/**
 * `describe` once per adapter in `storesUnderTest`, skipping PostgreSQL without a database; each
 * test gets a fresh world whose clock starts at `start`, closed after it.
 */
export function describeEachStore(
  title: string,
  start: string | Date,
  suite: (world: () => RunnerWorld) => void,
): void {
  for (const adapter of storesUnderTest) {
    describe.skipIf(!adapter.enabled)(`${title} (${adapter.name})`, () => {
      let world: RunnerWorld | undefined;
      beforeEach(async () => {
        const db = await adapter.open();
        const clock = new FakeClock(start);
        const analytics = new FakeAnalytics();
        const poster = new FakePoster(clock);
        world = {
          db,
          clock,
          analytics,
          poster,
          runner: (overrides = {}) =>
            new DigestRunner({
              store: db.store,
              analytics,
              poster,
              clock,
              renderDigest: renderDigestMessage,
              renderPauseNotice: renderDigestPaused,
              ...overrides,
            }),
        };
      });
      afterEach(async () => {
        await world?.db.close();
        world = undefined;
      });
      suite(() => {
        if (world === undefined) throw new Error('the world exists only inside a test');
        return world;
      });
    });
  }
}
