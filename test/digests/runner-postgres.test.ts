import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyTeam } from '../../src/digests/per-team.ts';
import { DigestRunner } from '../../src/digests/runner.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digests/digest-post.ts';
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

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('DigestRunner on PostgreSQL', () => {
  const postgres = reusedPostgres();
  let database: TestPostgres;

  beforeEach(async () => {
    database = postgres();
    await database.open().migrate();
  });
  afterEach(async () => {
    await database.drop();
  });

  it('posts 200 digests due in the same minute exactly once across three instances', async () => {
    const clock = new FakeClock('2026-06-08T08:00:05Z');
    const setup = database.open();
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const digest = await setup.digests.create(
        digestInput({
          channelId: `C${i}`,
          databases: [`#topic${i % 20}`],
          nextRunAt: new Date('2026-06-08T08:00:00Z'),
        }),
        clock.now(),
      );
      ids.add(digest.id);
    }
    const poster = new FakePoster(clock);
    const analytics = new FakeAnalytics();
    // No question is answered before every instance has claimed a batch: on a loaded machine, one
    // instance could otherwise still be connecting when the others had posted all 200.
    const names = ['a', 'b', 'c'];
    const claimers = new Set<string>();
    let everyoneClaimed = () => {};
    const allClaimed = new Promise<void>((resolve) => {
      everyoneClaimed = resolve;
    });
    analytics.answer = async () => {
      await allClaimed;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return influencers('alice', 'bob');
    };
    const runners = names.map((name) => {
      const store = database.open();
      const claimDue = store.digests.claimDue.bind(store.digests);
      store.digests.claimDue = async (...args) => {
        const claims = await claimDue(...args);
        if (claims.length > 0) claimers.add(name);
        if (claimers.size === names.length) everyoneClaimed();
        return claims;
      };
      return new DigestRunner({
        db: store,
        analytics,
        posters: everyTeam(poster),
        clock,
        renderDigest: (digest) => ({ text: digest.id, blocks: [] }),
        renderPauseNotice: renderDigestPaused,
        options: { owner: `runner-${name}`, claimBatchSize: 25, channelIntervalMs: 0 },
      });
    });
    const reports = await Promise.all(runners.map((runner) => runner.runDue(clock.now())));
    const posted = poster.posts.map((post) => post.message.text);
    expect(posted).toHaveLength(200);
    expect(new Set(posted)).toEqual(ids);
    expect(reports.reduce((sum, report) => sum + report.claimed, 0)).toBe(200);
    expect(reports.every((report) => report.claimed > 0)).toBe(true);
    expect(await Promise.all(runners.map((runner) => runner.runDue(clock.now())))).toEqual(
      runners.map(() => expect.objectContaining({ claimed: 0 })),
    );
    for (const id of ids) {
      expect(await setup.runs.hasDelivered(id, new Date('2026-06-08T08:00:00Z'))).toBe(true);
    }
  });

  it('lets another instance post once after one crashed between claim and post', async () => {
    const clock = new FakeClock('2026-06-08T08:00:05Z');
    const store = database.open();
    const digest = await store.digests.create(
      digestInput({ nextRunAt: new Date('2026-06-08T08:00:00Z') }),
      clock.now(),
    );
    await store.digests.claimDue(clock.now(), { limit: 10, leaseMs: 5 * 60_000, owner: 'crashed' });
    const poster = new FakePoster(clock);
    const runner = new DigestRunner({
      db: database.open(),
      analytics: new FakeAnalytics(),
      posters: everyTeam(poster),
      clock,
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
    });
    expect(await runner.runDue(clock.now())).toMatchObject({ claimed: 0 });
    clock.advance(5 * 60_000);
    expect(await runner.runDue(clock.now())).toMatchObject({ claimed: 1, posted: 1 });
    expect(poster.posts).toHaveLength(1);
    expect((await store.digests.get(digest.id))?.lastRun?.outcome).toBe('posted');
  });
});
