/**
 * Runs a runner came to too late to post (the app was not running, or fell behind) are skipped,
 * not posted late; each creator whose digests skipped some gets one DM (not one per slot) listing
 * those digests and runs, with "Run now" for each, as after an outage.
 */
import { beforeEach, expect, it } from 'vitest';
import type { Digest } from '../../src/model/digest.ts';
import { renderDigestsResumed } from '../../src/render/digests/digest-outages.ts';
import { toPlainText } from '../../src/render/text.ts';
import {
  announcePostgresSkip,
  at,
  dailyLondon,
  describeEachStore,
  digestInput,
  type FakeAnalytics,
  type FakeClock,
  type FakePoster,
  influencers,
  juneWeek,
  runNowButtons,
  type StoreUnderTest,
} from './helpers.ts';

const days = juneWeek;
const hour = 60 * 60_000;

announcePostgresSkip();
describeEachStore('creators told of runs that came too late', at(days[0], 10_000), (world) => {
  let db: StoreUnderTest;
  let clock: FakeClock;
  let analytics: FakeAnalytics;
  let poster: FakePoster;
  beforeEach(() => {
    ({ db, clock, analytics, poster } = world());
    analytics.answer = async () => influencers('alice', 'bob');
  });

  const runner = (owner?: string) =>
    world().runner({
      renderResumeNotice: (digests, now, details) =>
        renderDigestsResumed(digests, { now, ...details }),
      options: { channelIntervalMs: 0, ...(owner === undefined ? {} : { owner }) },
    });

  async function create(creatorId: string, channelId: string, first = days[0]): Promise<Digest> {
    return db.store.digests.create(
      digestInput({ creatorId, channelId, schedule: dailyLondon, nextRunAt: first as Date }),
      clock.now(),
    );
  }

  it('tells each creator once, after the app was down for days, what it skipped', async () => {
    const [a, b, c] = [
      await create('U1', 'C1'),
      await create('U1', 'C2'),
      await create('U2', 'C3'),
    ];
    // Down from before Monday's run until Thursday 09:30: Thursday's run is still inside the
    // grace window and is posted, Monday to Wednesday's are skipped.
    clock.set(at(days[3], 30 * 60_000));
    const running = runner();
    expect(await running.runDue(clock.now())).toMatchObject({ posted: 3, skipped: 0 });
    expect(poster.notices.map((notice) => notice.userId).sort()).toEqual(['U1', 'U2']);
    const noticeTo = (creator: string) =>
      poster.notices.find((notice) => notice.userId === creator)?.message;
    const [toU1, toU2] = [noticeTo('U1'), noticeTo('U2')];
    if (toU1 === undefined || toU2 === undefined) throw new Error('two notices');
    const [first, second] = [a.id, b.id].sort();
    expect(runNowButtons(toU1)).toEqual([first, second]);
    expect(runNowButtons(toU2)).toEqual([c.id]);
    const words = toPlainText(toU1);
    expect(words).toContain(
      'Some runs of your digests were skipped: the app was not running, or fell behind, when they were due, and a run found that late is not posted.',
    );
    expect(words).toContain(
      'skipped 3 runs: Mon Jun 8, 09:00 GMT+1, Tue Jun 9, 09:00 GMT+1, Wed Jun 10, 09:00 GMT+1',
    );
    expect(words).toContain('next run Fri Jun 12, 09:00 GMT+1');
    expect(toU1.text).toBe(
      `Runs of your digests ${first}, ${second} were skipped: the app could not post them on time. Run them now from this message.`,
    );

    // The next tick finds nothing late: nobody is told again.
    clock.set(at(days[4], 10_000));
    expect(await running.runDue(clock.now())).toMatchObject({ posted: 3 });
    expect(poster.notices).toHaveLength(2);
  });

  it('tells of a digest whose every owed run was too late, and not of one on time', async () => {
    const late = await create('U1', 'C1');
    await create('U1', 'C2', days[3]);
    // Wednesday 12:00: Monday to Wednesday's runs of the first are all past the grace window.
    clock.set(at(days[2], 4 * hour));
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 0, skipped: 1 });
    expect(poster.notices).toHaveLength(1);
    const [notice] = poster.notices;
    expect(notice?.userId).toBe('U1');
    expect(runNowButtons(notice?.message ?? { text: '', blocks: [] })).toEqual([late.id]);
    expect(toPlainText(notice?.message ?? { text: '', blocks: [] })).toContain(
      'skipped 3 runs: Mon Jun 8, 09:00 GMT+1, Tue Jun 9, 09:00 GMT+1, Wed Jun 10, 09:00 GMT+1',
    );
  });

  it('tells nobody when every run is on time', async () => {
    await create('U1', 'C1');
    clock.set(at(days[0], 10 * 60_000));
    expect(await runner().runDue(clock.now())).toMatchObject({ posted: 1 });
    expect(poster.notices).toEqual([]);
  });

  it('leaves to each runner the runs it skipped itself', async () => {
    const first = await create('U1', 'C1');
    clock.set(at(days[2], 4 * hour));
    await runner('runner-a').runDue(clock.now());
    expect(poster.notices).toHaveLength(1);
    // Another instance skips another digest of the same creator a minute later: its notice names
    // that one alone, not the first one's runs, which runner-a told of.
    const second = await create('U1', 'C2', days[2]);
    clock.set(at(days[2], 4 * hour + 60_000));
    await runner('runner-b').runDue(clock.now());
    expect(poster.notices).toHaveLength(2);
    expect(runNowButtons(poster.notices[0]?.message ?? { text: '', blocks: [] })).toEqual([
      first.id,
    ]);
    expect(runNowButtons(poster.notices[1]?.message ?? { text: '', blocks: [] })).toEqual([
      second.id,
    ]);
  });
});

describeEachStore('the records of runs that came too late', at(days[0], 10_000), (world) => {
  it('are each runner’s own, and leave out runs an outage skipped', async () => {
    const { db, clock } = world();
    const [x, y, z] = await Promise.all(
      ['U1', 'U2', 'U3'].map((creatorId, i) =>
        db.store.digests.create(
          digestInput({
            creatorId,
            channelId: `C${i}`,
            schedule: dailyLondon,
            nextRunAt: days[0] as Date,
          }),
          clock.now(),
        ),
      ),
    );
    if (x === undefined || y === undefined || z === undefined) throw new Error('three digests');
    const since = clock.now();
    const skip = (
      owner: string,
      reason: Parameters<typeof db.store.runs.recordSkipped>[2]['reason'],
    ) => ({
      owner,
      at: clock.now(),
      reason,
      count: 2,
      nextRunAt: days[2] as Date,
    });
    await db.store.runs.recordSkipped(x.id, days[0] as Date, skip('runner-a', { kind: 'missed' }));
    await db.store.runs.recordSkipped(y.id, days[0] as Date, skip('runner-b', { kind: 'missed' }));
    await db.store.runs.recordSkipped(
      z.id,
      days[0] as Date,
      skip('runner-a', { kind: 'outage', cause: 'analytics_unavailable' }),
    );
    expect(await db.store.runs.lateCreators('runner-a', since)).toEqual([
      { teamId: x.teamId, creatorId: 'U1' },
    ]);
    const skips = await db.store.runs.lateSkips('runner-a', since, {
      teamId: x.teamId,
      creatorId: 'U1',
    });
    expect(skips.map((s) => [s.digest.id, s.runs])).toEqual([
      [x.id, [{ from: days[0], count: 2 }]],
    ]);
    expect(await db.store.runs.lateCreators('runner-a', at(since, 1))).toEqual([]);
  });
});
