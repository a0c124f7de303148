/** Fakes and builders shared by the digest tests. */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import type {
  AnalyticsApi,
  InfluencersQuery,
  InfluencersResult,
} from '../../src/analytics/types.ts';
import { everyTeam } from '../../src/digests/per-team.ts';
import {
  type Clock,
  type DigestPoster,
  DigestRunner,
  type DigestRunnerDeps,
} from '../../src/digests/runner.ts';
import type { NewDigest } from '../../src/model/digest.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import { digestActionIds, digestNoticeBlockPrefix } from '../../src/render/ids.ts';
import { toDigestError } from '../../src/slack/web-api/poster.ts';
import type { Database } from '../../src/store/database.ts';
import { openPostgresDatabase } from '../../src/store/sql/postgres.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';

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

/**
 * A poster whose posts to `dying` channels never return: the instance was killed mid-post, after
 * the slot's `posting` record and before Slack's answer.
 */
export class DyingPoster extends FakePoster {
  readonly hung: string[] = [];
  readonly #dying: ReadonlySet<string>;

  constructor(clock: Clock, dying: readonly string[]) {
    super(clock);
    this.#dying = new Set(dying);
  }

  /** How many channels' posts never return. */
  get dying(): number {
    return this.#dying.size;
  }

  override post(channelId: string, message: SlackMessage): Promise<{ ts: string }> {
    if (!this.#dying.has(channelId)) return super.post(channelId, message);
    this.hung.push(channelId);
    return new Promise(() => undefined);
  }
}

/** Lets other work (another runner, real I/O) go on until `done` holds, for a few seconds at most. */
export async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 2_000; turn++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('condition never met');
}

/**
 * Waits until a runner that is being killed mid-post has recorded every post it confirmed: its
 * posts to the other channels are written `posted` in batches a little after Slack answered.
 */
export async function untilKilledMidPost(
  store: Database,
  poster: DyingPoster,
  due: readonly { readonly id: string }[],
  slot: Date,
): Promise<void> {
  const confirmed = due.length - poster.dying;
  await until(async () => {
    if (poster.hung.length < poster.dying || poster.posts.length < confirmed) return false;
    const posted = await Promise.all(due.map((digest) => store.runs.hasDelivered(digest.id, slot)));
    return posted.filter(Boolean).length === confirmed;
  });
}

/** Runs `work` with a connection of its own to the test database. */
async function onTestDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Deletes every row of `schema` but its migration records, tables that reference others before
 * the tables they reference.
 */
async function emptySchema(schema: string): Promise<void> {
  await onTestDatabase(async (client) => {
    const tables = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables
        WHERE schemaname = $1 AND tablename <> 'schema_migrations'`,
      [schema],
    );
    const references = await client.query<{ from: string; to: string }>(
      `SELECT c.conrelid::regclass::text AS from, c.confrelid::regclass::text AS to
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE c.contype = 'f' AND n.nspname = $1`,
      [schema],
    );
    const bare = (name: string) => name.slice(name.lastIndexOf('.') + 1);
    let left = tables.rows.map((row) => row.name);
    const ordered: string[] = [];
    while (left.length > 0) {
      const referenced = new Set(
        references.rows
          .filter((row) => left.includes(bare(row.from)) && bare(row.from) !== bare(row.to))
          .map((row) => bare(row.to)),
      );
      const next = left.filter((name) => !referenced.has(name));
      if (next.length === 0) throw new Error(`tables of ${schema} reference each other in a cycle`);
      ordered.push(...next);
      left = left.filter((name) => referenced.has(name));
    }
    await client.query(ordered.map((name) => `DELETE FROM ${schema}.${name}`).join(';\n'));
  });
}

/**
 * A PostgreSQL schema for one test, dropped after it; or, from {@link reusedPostgres}, emptied
 * for the next test.
 */
export class TestPostgres {
  readonly schema: string;
  readonly #stores: Database[] = [];
  readonly #release: ((schema: string) => Promise<void>) | undefined;

  constructor(
    reuse: { schema?: string; release(schema: string): Promise<void> } | undefined = undefined,
  ) {
    this.schema = reuse?.schema ?? `digests_test_${randomBytes(6).toString('hex')}`;
    this.#release = reuse?.release;
  }

  open(): Database {
    if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
    const store = openPostgresDatabase({ connectionString: testDatabaseUrl, schema: this.schema });
    this.#stores.push(store);
    return store;
  }

  /** Closes every store opened on the schema, then drops it (or empties it for the next test). */
  async drop(): Promise<void> {
    await Promise.all(this.#stores.splice(0).map((store) => store.close().catch(() => undefined)));
    if (this.#release !== undefined) {
      await this.#release(this.schema);
      return;
    }
    await dropSchemas([this.schema]);
  }
}

async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  await onTestDatabase(async (client) => {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });
}

/**
 * Schemas for the tests of one describe, reused: a test gets the schema an earlier test migrated
 * and then emptied (a DELETE per table takes a few ms; a new schema, its migrations and its drop
 * take about 150 ms), and every one is dropped after the describe's last test. Call it in the
 * describe's body; tests still migrate what they open, which finds a reused schema up to date.
 */
export function reusedPostgres(): () => TestPostgres {
  const made: string[] = [];
  const free: string[] = [];
  afterAll(async () => {
    free.length = 0;
    await dropSchemas(made.splice(0));
  });
  const release = async (schema: string) => {
    await emptySchema(schema);
    free.push(schema);
  };
  return () => {
    const schema = free.pop();
    const database = new TestPostgres(schema === undefined ? { release } : { schema, release });
    if (schema === undefined) made.push(database.schema);
    return database;
  };
}

export function announcePostgresSkip(): void {
  if (!testDatabaseUrl) console.log('PostgreSQL tests skipped: TEST_DATABASE_URL is not set');
}

/** A store of one adapter for one test, and how to open more connections to it. */
export interface StoreUnderTest {
  readonly store: Database;
  /** Another connection to the same database (a second instance). */
  sibling(): Promise<Database>;
  close(): Promise<void>;
}

/**
 * The adapters a runner test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
 * Each `open()` gives a fresh, migrated database (PostgreSQL: a schema from `postgres`, by
 * default a new one).
 */
export const storesUnderTest: readonly {
  readonly name: string;
  readonly enabled: boolean;
  open(postgres?: () => TestPostgres): Promise<StoreUnderTest>;
}[] = [
  {
    name: 'SQLite',
    enabled: true,
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'digests-runner-'));
      const path = join(folder, 'digests.sqlite');
      const opened = [openSqliteDatabase({ path })];
      await opened[0]?.migrate();
      return {
        store: opened[0] as Database,
        sibling: async () => {
          const sibling = openSqliteDatabase({ path });
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
    async open(postgres = () => new TestPostgres()) {
      const database = postgres();
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
      const postgres = reusedPostgres();
      let world: RunnerWorld | undefined;
      beforeEach(async () => {
        const db = await adapter.open(postgres);
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
              db: db.store,
              analytics,
              posters: everyTeam(poster),
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

/** 09:00 London on 8 to 12 June 2026: a daily digest's slots through a week. */
export const juneWeek = ['2026-06-08', '2026-06-09', '2026-06-10', '2026-06-11', '2026-06-12'].map(
  (day) => new Date(`${day}T08:00:00Z`),
);

/** `ms` after `slot`. */
export const at = (slot: Date | undefined, ms: number) => new Date((slot?.getTime() ?? 0) + ms);

/** The digest ids of the "Run now" buttons of a notice, each in a notice block of its own. */
export function runNowButtons(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) =>
    block.type === 'actions' && block.block_id?.startsWith(digestNoticeBlockPrefix)
      ? block.elements.flatMap((element) =>
          element.type === 'button' && element.action_id === digestActionIds.runNow
            ? [element.value ?? '']
            : [],
        )
      : [],
  );
}
