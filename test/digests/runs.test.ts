/**
 * The runner's run history on both adapters: each settled slot recorded once with its window, top
 * N and who came and went, also when two instances race for the same slot, and for digests that
 * choose their people here.
 */
import { expect, it } from 'vitest';
import { AccessDeniedError } from '../../src/errors.ts';
import { describeEachStore, digestInput, influencers } from './helpers.ts';

// Monday 8 June 2026, 09:00 in London is 08:00 UTC.
const slot = new Date('2026-06-08T08:00:00Z');
const nextWeek = new Date('2026-06-15T08:00:00Z');

describeEachStore('DigestRunner run history', '2026-06-08T08:00:20Z', (world) => {
  it('records each posted run with its window, top N and who entered and left', async () => {
    const { db, clock, analytics } = world();
    const digest = await db.store.digests.create(
      digestInput({ nextRunAt: slot, top: 2 }),
      clock.now(),
    );
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
    await world()
      .runner({ options: { owner: 'runner-a' } })
      .runDue(clock.now());
    analytics.answer = async () => influencers('carol', 'alice');
    clock.set(new Date(nextWeek.getTime() + 20_000));
    await world()
      .runner({ options: { owner: 'runner-a' } })
      .runDue(clock.now());
    expect(await db.store.runs.recent(digest.id, 12)).toMatchObject([
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
    const { db, clock, analytics } = world();
    const quiet = await db.store.digests.create(
      digestInput({ nextRunAt: slot, postWhen: 'new', channelId: 'C1' }),
      clock.now(),
    );
    const failing = await db.store.digests.create(
      digestInput({ nextRunAt: slot, databases: ['#gone'], channelId: 'C2' }),
      clock.now(),
    );
    analytics.answer = async (query) => {
      if (query.databases.includes('#gone')) throw new AccessDeniedError('#gone');
      return influencers('alice');
    };
    await world()
      .runner({ options: { owner: 'runner-a' } })
      .runDue(clock.now());
    expect(await db.store.runs.recent(quiet.id, 12)).toMatchObject([
      { outcome: 'skipped', skipReason: { kind: 'first_ranking' }, entries: [{ handle: 'alice' }] },
    ]);
    expect(await db.store.runs.recent(failing.id, 12)).toMatchObject([
      {
        outcome: 'failed',
        errorCode: 'access_denied',
        window: { end: '2026-06-08T09:00:00+01:00' },
        entries: [],
      },
    ]);
  });

  it('records a slot once when two instances race for it', async () => {
    const { db, clock, poster } = world();
    const digests = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.store.digests.create(digestInput({ nextRunAt: slot, channelId: `C${i}` }), clock.now()),
      ),
    );
    const sibling = await db.sibling();
    await Promise.all([
      world()
        .runner({ options: { owner: 'runner-a' } })
        .runDue(clock.now()),
      world()
        .runner({ db: sibling, options: { owner: 'runner-b' } })
        .runDue(clock.now()),
    ]);
    expect(poster.posts).toHaveLength(20);
    for (const digest of digests) {
      expect(await db.store.runs.recent(digest.id, 12)).toMatchObject([
        { slot, outcome: 'posted' },
      ]);
    }
  });

  it('asks for the top 500 for a digest of doctors, and records the doctors it showed', async () => {
    const { db, clock, analytics } = world();
    const digest = await db.store.digests.create(
      digestInput({ nextRunAt: slot, top: 2, stakeholders: { include: ['Doctor'], exclude: [] } }),
      clock.now(),
    );
    analytics.answer = async () => {
      const answer = influencers('a', 'b', 'c', 'd');
      return {
        influencers: answer.influencers.map((person, i) => ({
          ...person,
          stakeholderCategories: i % 2 === 1 ? [{ name: 'Doctor' }] : [],
        })),
      };
    };
    await world()
      .runner({ options: { owner: 'runner-a' } })
      .runDue(clock.now());
    expect(analytics.calls.map((call) => call.limit)).toEqual([500]);
    expect((await db.store.runs.recent(digest.id, 1))[0]?.entries).toEqual([
      { rank: 1, handle: 'b' },
      { rank: 2, handle: 'd' },
    ]);
  });
});
