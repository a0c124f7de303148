import { afterEach, beforeEach, describe, expect, it } from 'vitest';

function fail(): never {
  throw new Error('expected a value');
}

import type { InfluencersQuery } from '../../src/analytics/types.ts';
import { configDefaults } from '../../src/config/sections.ts';
import { everyTeam } from '../../src/digests/per-team.ts';
import {
  type DigestPoster,
  DigestRunner,
  type DigestRunnerOptions,
  digestRunnerDefaults,
} from '../../src/digests/runner.ts';
import { AccessDeniedError, ChannelUnreachableError } from '../../src/errors.ts';
import type { Digest } from '../../src/model/digest.ts';
import type { RankChanges } from '../../src/model/rank-changes.ts';
import { pauseReasonWords } from '../../src/render/digests/digest-failures.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import type { Database } from '../../src/store/database.ts';
import { openDatabase } from '../../src/store/open.ts';
import { withRepositories } from '../helpers/repositories.ts';
import {
  digestInput,
  FakeAnalytics,
  FakeClock,
  FakePoster,
  influencers,
  until,
} from './helpers.ts';

type StoreCall = 'beginDelivery' | 'beginDeliveries' | 'complete' | 'completeMany';

/**
 * The database with its delivery writes counted (batch calls record their size), the batch forms
 * failing on request.
 */
function instrumented(
  store: Database,
  batches: 'present' | 'failing',
): { store: Database; calls: Record<StoreCall, number[]> } {
  const calls: Record<StoreCall, number[]> = {
    beginDelivery: [],
    beginDeliveries: [],
    complete: [],
    completeMany: [],
  };
  const runs = new Proxy(store.runs, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const name = String(property);
      if (name === 'beginDeliveries' || name === 'completeMany') {
        return (items: unknown[]) => {
          calls[name].push(items.length);
          if (batches === 'failing') return Promise.reject(new Error('batch refused'));
          return value.call(target, items);
        };
      }
      if (name === 'beginDelivery' || name === 'complete') {
        return (...args: unknown[]) => {
          calls[name].push(1);
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { store: withRepositories(store, { runs }), calls };
}

describe('digestRunnerDefaults', () => {
  it('matches the defaults of the app configuration', () => {
    expect(digestRunnerDefaults).toEqual({
      tickMs: configDefaults.digestTickMs,
      graceMs: configDefaults.digestGraceMs,
      maxConsecutiveFailures: configDefaults.digestMaxFailures,
    });
  });
});

// Monday 8 June 2026, 09:00 in London is 08:00 UTC.
const slot = new Date('2026-06-08T08:00:00Z');
const nextWeek = new Date('2026-06-15T08:00:00Z');

describe('DigestRunner', () => {
  let store: Database;
  let clock: FakeClock;
  let analytics: FakeAnalytics;
  let poster: FakePoster;
  let rendered: { digest: Digest; query: InfluencersQuery; changes: RankChanges }[];

  function runner(
    options: DigestRunnerOptions = {},
    owner = 'runner-a',
    using: Database = store,
  ): DigestRunner {
    return new DigestRunner({
      db: using,
      analytics,
      posters: everyTeam(poster),
      clock,
      renderDigest: (digest, query, _result, changes) => {
        rendered.push({ digest, query, changes });
        return { text: `digest ${digest.id}`, blocks: [] };
      },
      renderPauseNotice: renderDigestPaused,
      options: { owner, ...options },
    });
  }

  beforeEach(async () => {
    store = await openDatabase({ sqlitePath: ':memory:' });
    clock = new FakeClock('2026-06-08T08:00:20Z');
    analytics = new FakeAnalytics();
    poster = new FakePoster(clock);
    rendered = [];
  });
  afterEach(async () => {
    await store.close();
  });

  it('posts a due digest once, records it and moves to the next slot', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    const report = await runner().runDue(clock.now());
    expect(report).toMatchObject({ claimed: 1, posted: 1, failed: 0, analyticsCalls: 1 });
    expect(poster.posts.map((p) => [p.channelId, p.message.text])).toEqual([
      ['C1', `digest ${digest.id}`],
    ]);
    expect(analytics.calls).toEqual([
      {
        databases: ['#hcsm'],
        start: '2026-06-01T09:00:00+01:00',
        end: '2026-06-08T09:00:00+01:00',
        timezone: 'Europe/London',
        limit: 5,
        metric: ['mentions', 'hsg_score', 'retweets', 'tweets', 'impressions', 'replies'],
      },
    ]);
    const after = await store.digests.get(digest.id);
    expect(after).toMatchObject({
      nextRunAt: nextWeek,
      consecutiveFailures: 0,
      lastRun: { slot, outcome: 'posted', messageTs: poster.posts[0]?.ts },
    });
    expect(await store.runs.hasDelivered(digest.id, slot)).toBe(true);
    expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 0, posted: 0 });
    expect(poster.posts).toHaveLength(1);
  });

  it('asks each distinct question once per tick however many digests share it', async () => {
    for (const databases of [['#hcsm'], ['#hcsm'], ['#hcsm'], ['#bcsm'], ['#bcsm'], ['#hcsm']]) {
      await store.digests.create(
        digestInput({ databases, nextRunAt: slot, channelId: `C-${Math.random()}` }),
        clock.now(),
      );
    }
    await store.digests.create(digestInput({ top: 10, nextRunAt: slot }), clock.now());
    const report = await runner().runDue(clock.now());
    expect(report).toMatchObject({ claimed: 7, posted: 7, analyticsCalls: 3 });
    expect(
      analytics.calls.map((call) => `${call.databases.join()} top ${call.limit}`).sort(),
    ).toEqual(['#bcsm top 5', '#hcsm top 10', '#hcsm top 5']);
  });

  it('posts a slot missed by less than the grace window once', async () => {
    await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    clock.set('2026-06-08T08:59:00Z');
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 1, skipped: 0 });
    expect(poster.posts).toHaveLength(1);
  });

  it('skips and records slots older than the grace window without posting', async () => {
    const digest = await store.digests.create(
      digestInput({ nextRunAt: new Date('2026-05-18T08:00:00Z') }),
      clock.now(),
    );
    clock.set('2026-06-08T10:00:00Z'); // the 8 June slot is 2 hours old
    expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 1, posted: 0, skipped: 1 });
    expect(poster.posts).toEqual([]);
    expect(await store.runs.getDelivery(digest.id, new Date('2026-05-18T08:00:00Z'))).toMatchObject(
      {
        status: 'skipped',
        skippedCount: 4,
      },
    );
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: nextWeek,
      lastRun: { outcome: 'skipped' },
    });
  });

  it('posts only the latest of several missed slots when it is inside the grace window', async () => {
    const daily = {
      kind: 'cron' as const,
      expression: '0 9 * * *',
      zone: 'Europe/London',
      cadence: 'daily' as const,
    };
    const digest = await store.digests.create(
      digestInput({ schedule: daily, nextRunAt: new Date('2026-06-03T08:00:00Z') }),
      clock.now(),
    );
    clock.set('2026-06-08T08:30:00Z');
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 1 });
    expect(poster.posts).toHaveLength(1);
    expect(analytics.calls[0]?.end).toBe('2026-06-08T09:00:00+01:00');
    expect(await store.runs.getDelivery(digest.id, new Date('2026-06-03T08:00:00Z'))).toMatchObject(
      {
        status: 'skipped',
        skippedCount: 5,
      },
    );
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: new Date('2026-06-09T08:00:00Z'),
      lastRun: { slot, outcome: 'posted' },
    });
    expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 0 });
  });

  it('pauses after repeated failures and tells the creator why', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    poster.failWith = (channelId) => new ChannelUnreachableError(channelId, 'archived');
    for (const week of ['2026-06-08T08:00:10Z', '2026-06-15T08:00:10Z']) {
      clock.set(week);
      expect(await runner().runDue(clock.now())).toMatchObject({ failed: 1, paused: 0 });
    }
    expect((await store.digests.get(digest.id))?.consecutiveFailures).toBe(2);
    clock.set('2026-06-22T08:00:10Z');
    expect(await runner().runDue(clock.now())).toMatchObject({ failed: 1, paused: 1 });
    // Permanent: one attempt per slot, no retries.
    expect(poster.attempts).toHaveLength(3);
    const after = await store.digests.get(digest.id);
    expect(after).toMatchObject({
      status: 'paused',
      pauseReason: {
        kind: 'failures',
        failures: 3,
        code: 'channel_unreachable',
        detail: 'archived',
      },
      lastRun: { outcome: 'failed', errorCode: 'channel_unreachable', errorDetail: 'archived' },
    });
    expect(pauseReasonWords(after?.pauseReason ?? fail())).toBe(
      'the channel was archived (3 failed runs in a row)',
    );
    expect(poster.notices.map((n) => [n.userId, n.message.text])).toEqual([
      [
        'U1',
        `Your digest ${digest.id} was paused: the channel was archived. Resume it with /influencers digest resume ${digest.id}`,
      ],
    ]);
    clock.set('2026-06-29T08:00:10Z');
    expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 0 });
  });

  it('stores the pause reason as the failure’s code and detail, with no words', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    poster.failWith = (channelId) => new ChannelUnreachableError(channelId, 'archived');
    const wordless = new DigestRunner({
      db: store,
      analytics,
      posters: everyTeam(poster),
      clock,
      renderDigest: (each) => ({ text: `digest ${each.id}`, blocks: [] }),
      renderPauseNotice: renderDigestPaused,
      options: { maxConsecutiveFailures: 1 },
    });
    expect(await wordless.runDue(clock.now())).toMatchObject({ failed: 1, paused: 1 });
    expect(await store.digests.get(digest.id)).toMatchObject({
      status: 'paused',
      pauseReason: {
        kind: 'failures',
        failures: 1,
        code: 'channel_unreachable',
        detail: 'archived',
      },
    });
  });

  it('counts a failure of the digest’s own question and resets the count after a success', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    analytics.answer = async () => {
      throw new AccessDeniedError('#hcsm');
    };
    expect(await runner({ attempts: 2 }).runDue(clock.now())).toMatchObject({
      failed: 1,
      analyticsCalls: 1,
    });
    expect(await store.digests.get(digest.id)).toMatchObject({
      consecutiveFailures: 1,
      lastRun: { outcome: 'failed', errorCode: 'access_denied' },
    });
    analytics.answer = async () => influencers('alice');
    clock.set('2026-06-15T08:00:10Z');
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 1 });
    expect((await store.digests.get(digest.id))?.consecutiveFailures).toBe(0);
  });

  it.each([
    [
      'Slack said service_unavailable',
      { code: 'slack_webapi_platform_error', data: { error: 'service_unavailable' } },
    ],
    [
      'the connection was refused',
      {
        code: 'slack_webapi_request_error',
        original: new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), {
            code: 'ECONNREFUSED',
          }),
        }),
      },
    ],
    [
      'the name did not resolve',
      {
        code: 'slack_webapi_request_error',
        original: Object.assign(new Error('getaddrinfo ENOTFOUND slack.com'), {
          code: 'ENOTFOUND',
        }),
      },
    ],
  ])(
    'retries with backoff inside the tick when %s (certainly not posted)',
    async (_case, error) => {
      await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
      poster.failWith = (_channel, attempt) => (attempt === 1 ? error : undefined);
      expect(await runner().runDue(clock.now())).toMatchObject({ posted: 1, failed: 0 });
      expect(poster.attempts).toHaveLength(2);
      // The backoff, then what is left of the channel's pacing interval.
      expect(clock.sleeps).toEqual([1000, 100]);
    },
  );

  it.each([
    [
      'a timeout after sending',
      {
        code: 'slack_webapi_request_error',
        original: new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      },
      'slack_call_failed',
    ],
    [
      'a connection reset mid-request',
      {
        code: 'slack_webapi_request_error',
        original: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      },
      'slack_call_failed',
    ],
    ['a 502', { code: 'slack_webapi_http_error', statusCode: 502 }, 'slack_call_failed'],
    [
      'internal_error',
      { code: 'slack_webapi_platform_error', data: { error: 'internal_error' } },
      'slack_call_failed',
    ],
    [
      'fatal_error',
      { code: 'slack_webapi_platform_error', data: { error: 'fatal_error' } },
      'slack_call_failed',
    ],
    ['an unknown error', new Error('socket hang up'), 'unknown'],
  ])(
    'never sends a post again after %s, and records it unconfirmed',
    async (_case, error, code) => {
      const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
      poster.failWith = () => error;
      expect(await runner().runDue(clock.now())).toMatchObject({
        posted: 0,
        failed: 0,
        unconfirmed: 1,
      });
      expect(poster.attempts).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
        lastRun: { slot, outcome: 'unconfirmed', errorCode: code },
      });
    },
  );

  it('reports a manual run that may have posted as unconfirmed, records it so, and sends it once', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: nextWeek }), clock.now());
    poster.failWith = () => ({ code: 'slack_webapi_http_error', statusCode: 504 });
    expect(await runner().runNow(digest)).toMatchObject({
      outcome: 'unconfirmed',
      failure: { code: 'slack_call_failed' },
    });
    expect(poster.attempts).toHaveLength(1);
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: nextWeek,
      lastRun: { outcome: 'unconfirmed' },
    });
  });

  it('asks one question for digests that list the same databases in another order', async () => {
    await store.digests.create(
      digestInput({ databases: ['#hcsm', '#bcsm'], nextRunAt: slot }),
      clock.now(),
    );
    await store.digests.create(
      digestInput({ databases: ['#bcsm', '#hcsm'], channelId: 'C2', nextRunAt: slot }),
      clock.now(),
    );
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 2, analyticsCalls: 1 });
  });

  it('waits out a Slack 429 Retry-After before the next attempt', async () => {
    await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    poster.failWith = (_channel, attempt) =>
      attempt === 1 ? { code: 'slack_webapi_rate_limited_error', retryAfter: 7 } : undefined;
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 1 });
    const [first, second] = poster.attempts;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(7000);
  });

  it('keeps to about one post per second per channel', async () => {
    for (const channelId of ['C1', 'C1', 'C1', 'C2']) {
      await store.digests.create(digestInput({ channelId, nextRunAt: slot }), clock.now());
    }
    const start = clock.now().getTime();
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 4 });
    const inC1 = poster.posts.filter((p) => p.channelId === 'C1').map((p) => p.at - start);
    expect(inC1).toHaveLength(3);
    for (let i = 1; i < inC1.length; i++) {
      expect((inC1[i] ?? 0) - (inC1[i - 1] ?? 0)).toBeGreaterThanOrEqual(1100);
    }
    // Only C1 waited: the fake clock is shared, so C2's post time says nothing, its waits do.
    expect(clock.sleeps).toEqual([1100, 1100]);
  });

  it('posts once after a runner crashed between claim and post, when the lease expires', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    await store.digests.claimDue(clock.now(), { limit: 10, leaseMs: 5 * 60_000, owner: 'crashed' });
    clock.advance(60_000);
    expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 0 });
    clock.advance(4 * 60_000);
    expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 1, posted: 1 });
    expect(await runner({}, 'runner-b').runDue(clock.now())).toMatchObject({ claimed: 0 });
    expect(poster.posts).toHaveLength(1);
    expect(await store.runs.hasDelivered(digest.id, slot)).toBe(true);
  });

  it('does not post again a slot another runner started posting, and records it unconfirmed', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    await store.digests.claimDue(clock.now(), { limit: 10, leaseMs: 5 * 60_000, owner: 'slow' });
    await store.runs.beginDelivery(digest.id, slot, 'slow', clock.now());
    clock.advance(5 * 60_000);
    expect(await runner().runDue(clock.now())).toMatchObject({
      claimed: 1,
      posted: 0,
      unconfirmed: 1,
    });
    expect(poster.posts).toEqual([]);
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: nextWeek,
      lastRun: { outcome: 'unconfirmed' },
    });
    // The slow runner finishes after all: its completion turns the slot into a post.
    await store.runs.complete(digest.id, slot, {
      owner: 'slow',
      outcome: 'posted',
      at: clock.now(),
      messageTs: '9.9',
      nextRunAt: nextWeek,
    });
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: nextWeek,
      lastRun: { outcome: 'posted', messageTs: '9.9' },
    });
  });

  it('compares each run with the previous one', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    analytics.answer = async () => influencers('alice', 'bob', 'carol');
    await runner().runDue(clock.now());
    expect(rendered[0]?.changes.firstRun).toBe(true);
    analytics.answer = async () => influencers('carol', 'alice', 'dave');
    clock.set('2026-06-15T08:00:10Z');
    await runner().runDue(clock.now());
    expect(rendered[1]?.changes).toEqual({
      firstRun: false,
      newEntrants: [{ screenName: 'dave', rank: 3 }],
      movedUp: [{ screenName: 'carol', rank: 1, previousRank: 3, delta: 2 }],
      movedDown: [{ screenName: 'alice', rank: 2, previousRank: 1, delta: -1 }],
      droppedOut: [{ screenName: 'bob', rank: 2 }],
      unchanged: 0,
    });
    expect((await store.digests.get(digest.id))?.lastRanking).toEqual([
      { screenName: 'carol', rank: 1 },
      { screenName: 'alice', rank: 2 },
      { screenName: 'dave', rank: 3 },
    ]);
  });

  it('runs a digest now without moving its schedule', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: nextWeek }), clock.now());
    const result = await runner().runNow(digest);
    expect(result).toEqual({ outcome: 'posted', ts: poster.posts[0]?.ts });
    expect(analytics.calls[0]).toMatchObject({
      start: '2026-06-01T09:00:20+01:00',
      end: '2026-06-08T09:00:20+01:00',
    });
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: nextWeek,
      lastRun: { outcome: 'posted' },
    });
  });

  it('writes the delivery records of digests answered together in one batch each way', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push(
        (
          await store.digests.create(
            digestInput({ channelId: `C${i}`, nextRunAt: slot }),
            clock.now(),
          )
        ).id,
      );
    }
    const counted = instrumented(store, 'present');
    const statusAtPost: (string | undefined)[] = [];
    const checking: DigestPoster = {
      post: async (channelId, message) => {
        const id = message.text.replace('digest ', '');
        statusAtPost.push((await store.runs.getDelivery(id, slot))?.status);
        return poster.post(channelId, message);
      },
      notifyCreator: (userId, message) => poster.notifyCreator(userId, message),
      notifyAdmins: (userIds, message) => poster.notifyAdmins(userIds, message),
      workspace: () => poster.workspace(),
    };
    const batched = new DigestRunner({
      db: counted.store,
      analytics,
      posters: everyTeam(checking),
      clock,
      renderDigest: (digest) => ({ text: `digest ${digest.id}`, blocks: [] }),
      renderPauseNotice: renderDigestPaused,
    });
    expect(await batched.runDue(clock.now())).toMatchObject({ claimed: 30, posted: 30 });
    // The posting record of every digest had committed before its message went out.
    expect(statusAtPost).toEqual(ids.map(() => 'posting'));
    expect(counted.calls).toMatchObject({ beginDelivery: [], complete: [] });
    // Written as the posts start, four at once by default: never ahead of the post queue.
    const begun = counted.calls.beginDeliveries;
    expect(begun.reduce((sum, size) => sum + size, 0)).toBe(30);
    expect(Math.max(...begun)).toBeLessThanOrEqual(4);
    expect(begun.length).toBeLessThan(30);
    // Posts finish a few at a time (four at once by default), their completions with them.
    const completed = counted.calls.completeMany;
    expect(completed.reduce((sum, size) => sum + size, 0)).toBe(30);
    expect(completed.length).toBeLessThan(30);
    for (const id of ids) {
      expect(await store.runs.getDelivery(id, slot)).toMatchObject({ status: 'posted' });
      expect(await store.digests.get(id)).toMatchObject({ nextRunAt: nextWeek });
    }
  });

  it('posts each digest once, one write at a time, when the store refuses a batch', async () => {
    const ids: string[] = [];
    for (const channelId of ['C1', 'C2', 'C3']) {
      ids.push(
        (await store.digests.create(digestInput({ channelId, nextRunAt: slot }), clock.now())).id,
      );
    }
    const counted = instrumented(store, 'failing');
    const fallback = new DigestRunner({
      db: counted.store,
      analytics,
      posters: everyTeam(poster),
      clock,
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
    });
    expect(await fallback.runDue(clock.now())).toMatchObject({ claimed: 3, posted: 3, failed: 0 });
    expect(poster.posts.map((post) => post.channelId).sort()).toEqual(['C1', 'C2', 'C3']);
    expect(counted.calls).toMatchObject({ beginDelivery: [1, 1, 1], beginDeliveries: [3] });
    expect(counted.calls.complete).toEqual([1, 1, 1]);
    for (const id of ids) expect(await store.runs.hasDelivered(id, slot)).toBe(true);
  });

  it('keeps 16 analytics calls in flight by default', async () => {
    for (let top = 1; top <= 40; top++) {
      await store.digests.create(
        digestInput({ top, channelId: `C${top}`, nextRunAt: slot }),
        clock.now(),
      );
    }
    let inFlight = 0;
    let most = 0;
    analytics.answer = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      return influencers('alice');
    };
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 40, analyticsCalls: 40 });
    expect(most).toBe(16);
  });

  it('lets the event loop in between claim batches, also on a store that answers at once', async () => {
    for (let i = 0; i < 6; i++) {
      await store.digests.create(digestInput({ channelId: `C${i}`, nextRunAt: slot }), clock.now());
    }
    let claims = 0;
    const digests = new Proxy(store.digests, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        if (property !== 'claimDue') return value.bind(target);
        return async (...args: Parameters<Database['digests']['claimDue']>) => {
          const claimed = await target.claimDue(...args);
          claims++;
          return claimed;
        };
      },
    });
    const batched = runner({ claimBatchSize: 2 }, 'runner-a', withRepositories(store, { digests }));
    let claimsWhenIoRan: number | undefined;
    setImmediate(() => {
      claimsWhenIoRan = claims;
    });
    expect(await batched.runDue(clock.now())).toMatchObject({ claimed: 6, posted: 6 });
    // Three full batches and the empty one that ends the loop; I/O ran after the first.
    expect(claims).toBe(4);
    expect(claimsWhenIoRan).toBe(1);
  });

  it('renders the digests one answer wakes a few per loop iteration', async () => {
    for (let i = 0; i < 20; i++) {
      await store.digests.create(digestInput({ channelId: `C${i}`, nextRunAt: slot }), clock.now());
    }
    let rendersWhenIoRan: number | undefined;
    analytics.answer = async () => {
      // Queued before any digest woken by this answer continues.
      setImmediate(() => {
        rendersWhenIoRan = rendered.length;
      });
      return influencers('alice');
    };
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 20, analyticsCalls: 1 });
    expect(rendered).toHaveLength(20);
    expect(rendersWhenIoRan).toBeLessThan(20);
  });

  it('posts the digests of an answered question while another is still unanswered', async () => {
    for (const [i, databases] of [['#hcsm'], ['#bcsm'], ['#hcsm'], ['#hcsm']].entries()) {
      await store.digests.create(
        digestInput({ databases, channelId: `C${i}`, nextRunAt: slot }),
        clock.now(),
      );
    }
    let release: () => void = () => undefined;
    const slowAnswer = new Promise<void>((resolve) => {
      release = resolve;
    });
    analytics.answer = async (query) => {
      if (query.databases[0] === '#bcsm') await slowAnswer;
      return influencers('alice');
    };
    const tick = runner().runDue(clock.now());
    for (let turn = 0; turn < 100 && poster.posts.length < 3; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(poster.posts.map((post) => post.channelId).sort()).toEqual(['C0', 'C2', 'C3']);
    release();
    expect(await tick).toMatchObject({ posted: 4 });
    expect(poster.posts.at(-1)?.channelId).toBe('C1');
  });

  it('never posts a slot again when recording its post failed', async () => {
    const digest = await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    let refuse = true;
    const refusing = new Proxy(store.runs, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (property === 'complete' || property === 'completeMany') {
          return (...args: unknown[]) =>
            refuse ? Promise.reject(new Error('connection lost')) : value.apply(target, args);
        }
        return value.bind(target);
      },
    });
    const first = new DigestRunner({
      db: withRepositories(store, { runs: refusing }),
      analytics,
      posters: everyTeam(poster),
      clock,
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
    });
    expect(await first.runDue(clock.now())).toMatchObject({ claimed: 1, posted: 0, failed: 0 });
    expect(poster.posts).toHaveLength(1);
    expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({ status: 'posting' });
    refuse = false;
    // The lease was given back: the next tick takes the digest at once and does not post again.
    expect(await runner({}, 'runner-b').runDue(clock.now())).toMatchObject({
      claimed: 1,
      posted: 0,
      unconfirmed: 1,
    });
    expect(poster.posts).toHaveLength(1);
    expect(await store.digests.get(digest.id)).toMatchObject({
      nextRunAt: nextWeek,
      consecutiveFailures: 0,
      lastRun: { outcome: 'unconfirmed' },
    });
  });

  it('runs ticks on a timer and stops after the tick in flight', async () => {
    await store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    const timed = runner({ tickMs: 10 });
    timed.start();
    await until(() => poster.posts.length > 0);
    await timed.stop();
    expect(poster.posts).toHaveLength(1);
  });
});
