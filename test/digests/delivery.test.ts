/**
 * Delivery guarantees that rest on the runner and the store together, on both adapters: crashes
 * while a digest waits to be posted, ambiguous Slack failures, late runners, long ticks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InfluencersResult } from '../../src/analytics/types.ts';
import { everyTeam } from '../../src/digests/per-team.ts';
import {
  type Clock,
  type DigestPoster,
  DigestRunner,
  type DigestRunnerOptions,
} from '../../src/digests/runner.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import type { Database } from '../../src/store/database.ts';
import { openDatabase } from '../../src/store/open.ts';
import {
  announcePostgresSkip,
  digestInput,
  FakeAnalytics,
  FakeClock,
  FakePoster,
  influencers,
  reusedPostgres,
  type TestPostgres,
  testDatabaseUrl,
} from './helpers.ts';

// Monday 8 June 2026, 09:00 in London is 08:00 UTC.
const slot = new Date('2026-06-08T08:00:00Z');
const nextWeek = new Date('2026-06-15T08:00:00Z');

interface Adapter {
  readonly name: string;
  readonly skip: boolean;
  open(postgres: () => TestPostgres): Promise<{ store: Database; close(): Promise<void> }>;
}

const adapters: Adapter[] = [
  {
    name: 'SQLite',
    skip: false,
    open: async () => {
      const store = await openDatabase({ sqlitePath: ':memory:' });
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !testDatabaseUrl,
    open: async (postgres) => {
      const database = postgres();
      const store = database.open();
      await store.migrate();
      return { store, close: () => database.drop() };
    },
  },
];

/** Lets pending promise callbacks and I/O run until `done` holds (or gives up). */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 500; turn++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('condition never met');
}

/** A process that dies in its first wait: every sleep of more than 0 ms never returns. */
function dyingInFirstWait(clock: FakeClock): Clock & { stuck: boolean } {
  const dying = {
    stuck: false,
    now: () => clock.now(),
    sleep: async (ms: number) => {
      if (ms <= 0) return;
      dying.stuck = true;
      await new Promise<void>(() => undefined);
    },
  };
  return dying;
}

/** A poster whose posts stay in flight until `release()`. */
class HeldPoster implements DigestPoster {
  readonly inFlight: string[] = [];
  readonly #releases: (() => void)[] = [];
  #next = 1;

  async post(channelId: string): Promise<{ ts: string }> {
    this.inFlight.push(channelId);
    await new Promise<void>((resolve) => this.#releases.push(resolve));
    return { ts: `1700000000.${String(this.#next++).padStart(6, '0')}` };
  }

  async notifyCreator(_userId: string, _message: SlackMessage): Promise<void> {}

  async notifyAdmins(_userIds: readonly string[], _message: SlackMessage): Promise<void> {}

  async workspace(): Promise<string | undefined> {
    return 'T1';
  }

  release(): void {
    for (const release of this.#releases.splice(0)) release();
  }
}

announcePostgresSkip();
for (const adapter of adapters) {
  describe.skipIf(adapter.skip)(`DigestRunner delivery on ${adapter.name}`, () => {
    const postgres = reusedPostgres();
    let store: Database;
    let close: () => Promise<void>;

    function runner(
      owner: string,
      clock: Clock,
      poster: DigestPoster,
      analytics = new FakeAnalytics(),
      options: DigestRunnerOptions = {},
    ): DigestRunner {
      return new DigestRunner({
        db: store,
        analytics,
        posters: everyTeam(poster),
        clock,
        renderDigest: (digest) => ({ text: digest.id, blocks: [] }),
        renderPauseNotice: renderDigestPaused,
        options: { owner, ...options },
      });
    }

    beforeEach(async () => {
      ({ store, close } = await adapter.open(postgres));
    });
    afterEach(async () => {
      await close();
    });

    it('leaves a digest waiting for channel pacing to the next runner when the first dies there', async () => {
      const first = await store.digests.create(digestInput({ channelId: 'C1' }), slot);
      const second = await store.digests.create(digestInput({ channelId: 'C1', top: 7 }), slot);
      const clock = new FakeClock('2026-06-08T08:00:05Z');
      const dying = dyingInFirstWait(clock);
      const posterA = new FakePoster(clock);
      void runner('runner-a', dying, posterA).runDue(clock.now());
      await until(() => dying.stuck);
      expect(posterA.posts).toHaveLength(1);
      const waiting = posterA.posts[0]?.message.text === first.id ? second : first;
      // Nothing was sent for the waiting digest, so nothing says it was.
      expect(await store.runs.getDelivery(waiting.id, slot)).toBeUndefined();
      // The slot posted is recorded by a batch that may still be in flight when the other digest
      // starts waiting for its turn: the runner dies once it is written.
      const posted = waiting === first ? second : first;
      await until(async () => (await store.digests.get(posted.id))?.lastRun?.outcome === 'posted');

      const later = new FakeClock('2026-06-08T08:05:06Z');
      const posterB = new FakePoster(later);
      expect(await runner('runner-b', later, posterB).runDue(later.now())).toMatchObject({
        claimed: 1,
        posted: 1,
        unconfirmed: 0,
      });
      expect(posterB.posts.map((post) => post.message.text)).toEqual([waiting.id]);
      expect(await store.digests.get(waiting.id)).toMatchObject({
        nextRunAt: nextWeek,
        lastRun: { slot, outcome: 'posted' },
      });
    });

    it('writes a posting record only for the posts being sent', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        ids.push((await store.digests.create(digestInput({ channelId: `C${i}` }), slot)).id);
      }
      const clock = new FakeClock('2026-06-08T08:00:05Z');
      const poster = new HeldPoster();
      let done = false;
      const tick = runner('runner-a', clock, poster)
        .runDue(clock.now())
        .finally(() => {
          done = true;
        });
      await until(() => poster.inFlight.length === 4);
      const statuses = await Promise.all(
        ids.map(async (id) => (await store.runs.getDelivery(id, slot))?.status),
      );
      // Four posts at once by default: the six others wait without a record.
      expect(statuses.filter((status) => status === 'posting')).toHaveLength(4);
      expect(statuses.filter((status) => status === undefined)).toHaveLength(6);
      await until(() => {
        poster.release();
        return done;
      });
      expect(await tick).toMatchObject({ claimed: 10, posted: 10 });
    });

    it('holds no record while it waits out a 429, then posts once', async () => {
      const digest = await store.digests.create(digestInput(), slot);
      const clock = new FakeClock('2026-06-08T08:00:05Z');
      const recordsDuringWaits: (string | undefined)[] = [];
      const watching: Clock = {
        now: () => clock.now(),
        sleep: async (ms) => {
          recordsDuringWaits.push((await store.runs.getDelivery(digest.id, slot))?.status);
          await clock.sleep(ms);
        },
      };
      const poster = new FakePoster(clock);
      poster.failWith = (_channel, attempt) =>
        attempt === 1 ? { code: 'slack_webapi_rate_limited_error', retryAfter: 7 } : undefined;
      expect(await runner('runner-a', watching, poster).runDue(clock.now())).toMatchObject({
        posted: 1,
        unconfirmed: 0,
      });
      expect(recordsDuringWaits).toEqual([undefined]);
      expect(clock.sleeps).toEqual([7000]);
      expect(poster.posts).toHaveLength(1);
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({ status: 'posted' });
    });

    it('records a post that may have reached Slack as unconfirmed and never sends it again', async () => {
      const digest = await store.digests.create(digestInput(), slot);
      const clock = new FakeClock('2026-06-08T08:00:05Z');
      const poster = new FakePoster(clock);
      poster.failWith = () => ({ code: 'slack_webapi_http_error', statusCode: 503 });
      expect(await runner('runner-a', clock, poster).runDue(clock.now())).toMatchObject({
        posted: 0,
        failed: 0,
        unconfirmed: 1,
      });
      expect(poster.attempts).toHaveLength(1);
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({ status: 'posting' });
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
        lastRun: { slot, outcome: 'unconfirmed', errorCode: 'slack_call_failed' },
      });
      expect(await runner('runner-b', clock, poster).runDue(clock.now())).toMatchObject({
        claimed: 0,
      });
      expect(poster.attempts).toHaveLength(1);
    });

    it('leaves a slot another runner skipped while it was slow skipped', async () => {
      const digest = await store.digests.create(digestInput(), slot);
      const slowAnalytics = new FakeAnalytics();
      let answer: (result: InfluencersResult) => void = () => undefined;
      slowAnalytics.answer = () =>
        new Promise((resolve) => {
          answer = resolve;
        });
      const clockA = new FakeClock('2026-06-08T08:59:00Z');
      const posterA = new FakePoster(clockA);
      const tickA = runner('runner-a', clockA, posterA, slowAnalytics).runDue(clockA.now());
      await until(() => slowAnalytics.calls.length === 1);
      // A's lease ran out; B comes past the grace window and skips the slot.
      const clockB = new FakeClock('2026-06-08T09:04:30Z');
      const posterB = new FakePoster(clockB);
      expect(await runner('runner-b', clockB, posterB).runDue(clockB.now())).toMatchObject({
        claimed: 1,
        skipped: 1,
      });
      clockA.set('2026-06-08T09:04:40Z');
      answer(influencers('alice', 'bob'));
      expect(await tickA).toMatchObject({ posted: 0, failed: 0, unconfirmed: 0 });
      expect(posterA.posts.length + posterB.posts.length).toBe(0);
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'skipped',
        owner: 'runner-b',
      });
      const after = await store.digests.get(digest.id);
      expect(after).toMatchObject({ nextRunAt: nextWeek, lastRun: { slot, outcome: 'skipped' } });
      expect(after?.lastRun?.messageTs).toBeUndefined();
    });

    it('renews its leases during a long tick so that no other runner takes its digests', async () => {
      const ids = new Set<string>();
      for (let top = 1; top <= 4; top++)
        ids.add((await store.digests.create(digestInput({ top }), slot)).id);
      const clock = new FakeClock('2026-06-08T08:00:05Z');
      // Pacing waits take real time too, so that renewals run during the tick.
      const slow: Clock = {
        now: () => clock.now(),
        sleep: async (ms) => {
          clock.advance(ms);
          await new Promise((resolve) => setTimeout(resolve, 25));
        },
      };
      const poster = new FakePoster(clock);
      const tick = runner('runner-a', slow, poster, new FakeAnalytics(), {
        leaseMs: 2_000,
        leaseRenewalMs: 5,
        channelIntervalMs: 1_500,
      }).runDue(clock.now());
      // Three posts 1.5 s apart: the first lease (2 s) is long gone.
      await until(() => poster.posts.length >= 3);
      const other = new FakePoster(clock);
      expect(await runner('runner-b', clock, other).runDue(clock.now())).toMatchObject({
        claimed: 0,
      });
      expect(await tick).toMatchObject({ claimed: 4, posted: 4 });
      expect(other.posts).toHaveLength(0);
      expect(new Set(poster.posts.map((post) => post.message.text))).toEqual(ids);
    });
  });
}
