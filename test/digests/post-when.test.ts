/** `only when changed` and `only new`: a run posts only when the ranking moved as asked. */
import { expect, it } from 'vitest';
import type { Digest, PostWhen } from '../../src/model/digest.ts';
import { renderDigestList } from '../../src/render/management/digest-management.ts';
import { toPlainText } from '../../src/render/text.ts';
import {
  announcePostgresSkip,
  dailyLondon,
  describeEachStore,
  digestInput,
  influencers,
} from './helpers.ts';

const day = (n: number) => new Date(Date.UTC(2026, 5, 8 + n, 8, 0, 10));

announcePostgresSkip();
describeEachStore('a digest that posts only when its ranking moved', day(0), (world) => {
  /** Runs one slot a day with these rankings; returns what each tick reported. */
  async function runDays(postWhen: PostWhen, rankings: string[][], account?: string) {
    const { db, clock, analytics } = world();
    const digest = await db.store.digests.create(
      digestInput({
        schedule: dailyLondon,
        postWhen,
        nextRunAt: new Date(day(0).getTime() - 10_000),
        ...(account === undefined ? {} : { account }),
      }),
      clock.now(),
    );
    const reports = [];
    for (const [n, names] of rankings.entries()) {
      clock.set(day(n));
      analytics.answer = async () => influencers(...names);
      reports.push(await world().runner().runDue(clock.now()));
    }
    return { digest, reports };
  }

  async function listed(digest: Digest): Promise<string> {
    const { db, clock } = world();
    const digests = await db.store.digests.listByChannel(digest.teamId, digest.channelId);
    return toPlainText(
      renderDigestList(digests, { now: clock.now(), channelId: digest.channelId, viewerId: 'U1' }),
    );
  }

  it('only when changed: posts the first run and runs whose top N moved, records the rest', async () => {
    const { db, poster } = world();
    const { digest, reports } = await runDays('changed', [
      ['alice', 'bob', 'carol'],
      ['alice', 'bob', 'carol'],
      ['bob', 'alice', 'carol'],
      ['bob', 'alice', 'carol'],
      ['bob', 'alice', 'dave'],
    ]);
    expect(reports.map((report) => [report.posted, report.quiet])).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    expect(poster.posts).toHaveLength(3);
    expect(
      await db.store.runs.getDelivery(digest.id, new Date('2026-06-09T08:00:00Z')),
    ).toMatchObject({
      status: 'skipped',
      skipReason: { kind: 'unchanged' },
    });
    const after = (await db.store.digests.get(digest.id)) as Digest;
    expect(after).toMatchObject({ lastRun: { outcome: 'posted' }, consecutiveFailures: 0 });
    expect(after.lastRanking?.map((account) => account.screenName)).toEqual([
      'bob',
      'alice',
      'dave',
    ]);
  });

  it('shows a quiet run in the list, with its time', async () => {
    const { digest } = await runDays('changed', [['alice'], ['alice']]);
    expect(await listed(digest)).toMatch(
      /Last run: Tue Jun 9, 09:00 \S+, skipped: no change in the top 5 since the previous run/,
    );
    expect(await listed(digest)).toContain(
      'posts only when the top 5 changes (who is in it, or their order)',
    );
  });

  it('only new: records the first ranking, then posts only when someone enters the top N', async () => {
    const { db, poster } = world();
    const { digest, reports } = await runDays('new', [
      ['alice', 'bob'],
      ['bob', 'alice'],
      ['bob', 'carol'],
      ['carol', 'bob'],
    ]);
    expect(reports.map((report) => [report.posted, report.quiet])).toEqual([
      [0, 1],
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
    expect(poster.posts).toHaveLength(1);
    expect(
      await db.store.runs.getDelivery(digest.id, new Date('2026-06-08T08:00:00Z')),
    ).toMatchObject({
      skipReason: { kind: 'first_ranking' },
    });
    expect(
      await db.store.runs.getDelivery(digest.id, new Date('2026-06-09T08:00:00Z')),
    ).toMatchObject({
      skipReason: { kind: 'no_newcomer' },
    });
    // The ranking of a quiet run is the one the next compares with.
    expect((await db.store.digests.get(digest.id))?.lastRanking?.map((a) => a.screenName)).toEqual([
      'carol',
      'bob',
    ]);
    expect(await listed(digest)).toContain('skipped: no one new entered the top 5');
  });

  it('watching one account: posts only when it enters or leaves the top N, whatever its case', async () => {
    const { db, poster } = world();
    const { digest, reports } = await runDays(
      'new',
      [
        ['alice', 'bob'],
        ['bob', 'carol'],
        ['bob', 'DrAna'],
        ['drana', 'bob'],
        ['dave', 'bob'],
        ['erin', 'frank'],
      ],
      'drana',
    );
    expect(reports.map((report) => [report.posted, report.quiet])).toEqual([
      [0, 1],
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
    expect(poster.posts).toHaveLength(2);
    expect(
      await db.store.runs.getDelivery(digest.id, new Date('2026-06-09T08:00:00Z')),
    ).toMatchObject({
      skipReason: { kind: 'account_steady' },
    });
    expect(await listed(digest)).toContain(
      'skipped: the account it watches neither entered nor left the top 5',
    );
  });

  it('posts when a person runs it now, whatever its condition', async () => {
    const { digest } = await runDays('new', [['alice']]);
    const { db, poster } = world();
    const result = await world()
      .runner()
      .runNow((await db.store.digests.get(digest.id)) as Digest);
    expect(result).toMatchObject({ outcome: 'posted' });
    expect(poster.posts).toHaveLength(1);
  });
});

describeEachStore('a digest ranked by a metric', day(0), (world) => {
  it('asks the service for that metric first, then the others, and shares no call with the plain one', async () => {
    const { db, clock, analytics } = world();
    const slot = new Date(day(0).getTime() - 10_000);
    await db.store.digests.create(
      digestInput({ metric: 'impressions', nextRunAt: slot }),
      clock.now(),
    );
    await db.store.digests.create(digestInput({ channelId: 'C2', nextRunAt: slot }), clock.now());
    await world().runner().runDue(clock.now());
    expect(analytics.calls.map((call) => call.metric)).toEqual(
      expect.arrayContaining([
        ['mentions', 'hsg_score', 'retweets', 'tweets', 'impressions', 'replies'],
        ['impressions', 'hsg_score', 'mentions', 'retweets', 'tweets', 'replies'],
      ]),
    );
    expect(analytics.calls).toHaveLength(2);
  });
});
