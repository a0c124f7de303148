import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DigestRunner } from '../../src/digests/runner.ts';
import { openDigestStore } from '../../src/digests/store/open.ts';
import type { DigestStore } from '../../src/digests/store/store.ts';
import { AccessDeniedError } from '../../src/errors.ts';
import { renderDigestPaused } from '../../src/render/digest-post.ts';
import { digestInput, FakeAnalytics, FakeClock, FakePoster, influencers } from './helpers.ts';

// Monday 8 June 2026, 09:00 in London is 08:00 UTC.
const slot = new Date('2026-06-08T08:00:00Z');
const nextWeek = new Date('2026-06-15T08:00:00Z');

describe('DigestRunner run history', () => {
  let store: DigestStore;
  let clock: FakeClock;
  let analytics: FakeAnalytics;
  let poster: FakePoster;

  const runner = () =>
    new DigestRunner({
      store,
      analytics,
      poster,
      clock,
      renderDigest: (digest) => ({ text: `digest ${digest.id}`, blocks: [] }),
      renderPauseNotice: renderDigestPaused,
      options: { owner: 'runner-a' },
    });

  beforeEach(async () => {
    store = await openDigestStore({ sqlitePath: ':memory:' });
    clock = new FakeClock('2026-06-08T08:00:20Z');
    analytics = new FakeAnalytics();
    poster = new FakePoster(clock);
  });
  afterEach(async () => {
    await store.close();
  });

  it('records each posted run with its window, top N and who entered and left', async () => {
    const digest = await store.create(digestInput({ nextRunAt: slot, top: 2 }), clock.now());
    analytics.answer = async () => {
      const answer = influencers('alice', 'bob', 'carol');
      return {
        influencers: answer.influencers.map((person, i) => ({
          ...person,
          displayName: person.screenName.toUpperCase(),
          metrics: { mentions: 100 - i },
        })),
      };
    };
    await runner().runDue(clock.now());
    analytics.answer = async () => influencers('carol', 'alice');
    clock.set(new Date(nextWeek.getTime() + 20_000));
    await runner().runDue(clock.now());
    const runs = await store.recentRuns(digest.id, 12);
    expect(runs).toMatchObject([
      {
        slot: nextWeek,
        outcome: 'posted',
        window: { start: '2026-06-08T09:00:00+01:00', end: '2026-06-15T09:00:00+01:00' },
        entries: [
          { rank: 1, handle: 'carol' },
          { rank: 2, handle: 'alice' },
        ],
        entered: ['carol'],
        left: ['bob'],
      },
      {
        slot,
        outcome: 'posted',
        window: { start: '2026-06-01T09:00:00+01:00', end: '2026-06-08T09:00:00+01:00' },
        metric: 'mentions',
        entries: [
          { rank: 1, handle: 'alice', name: 'ALICE', value: 100 },
          { rank: 2, handle: 'bob', name: 'BOB', value: 99 },
        ],
        entered: [],
        left: [],
      },
    ]);
  });

  it('records a run its condition kept quiet, and a failed one with its window', async () => {
    const quiet = await store.create(
      digestInput({ nextRunAt: slot, postWhen: 'new', channelId: 'C1' }),
      clock.now(),
    );
    const failing = await store.create(
      digestInput({ nextRunAt: slot, databases: ['#gone'], channelId: 'C2' }),
      clock.now(),
    );
    analytics.answer = async (query) => {
      if (query.databases.includes('#gone')) throw new AccessDeniedError('#gone');
      return influencers('alice');
    };
    await runner().runDue(clock.now());
    expect(await store.recentRuns(quiet.id, 12)).toMatchObject([
      { outcome: 'skipped', skipReason: { kind: 'first_ranking' }, entries: [{ handle: 'alice' }] },
    ]);
    expect(await store.recentRuns(failing.id, 12)).toMatchObject([
      {
        outcome: 'failed',
        errorCode: 'access_denied',
        window: { end: '2026-06-08T09:00:00+01:00' },
        entries: [],
      },
    ]);
  });
});
