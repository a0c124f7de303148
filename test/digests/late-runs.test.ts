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
  it('tells on its first tick what a runner that stopped before telling skipped, once', async () => {
    const digest = await create('U1', 'C1');
    // A runner came back after the app was down, recorded Monday and Tuesday as skipped, and
    // stopped before it could tell anyone.
    await db.store.runs.recordSkipped(digest.id, days[0] as Date, {
      owner: 'runner-gone',
      at: at(days[2], 0),
      reason: { kind: 'missed' },
      count: 2,
      nextRunAt: days[2] as Date,
    });
    clock.set(at(days[1], 4 * hour));
    expect(await runner('runner-a').runDue(clock.now())).toMatchObject({ claimed: 0 });
    expect(poster.notices.map((notice) => notice.userId)).toEqual(['U1']);
    const [notice] = poster.notices;
    expect(runNowButtons(notice?.message ?? { text: '', blocks: [] })).toEqual([digest.id]);
    expect(toPlainText(notice?.message ?? { text: '', blocks: [] })).toContain(
      'skipped 2 runs: Mon Jun 8, 09:00 GMT+1, Tue Jun 9, 09:00 GMT+1',
    );
    // Another instance starting, or this one restarting, says nothing again.
    await Promise.all([runner('runner-b').runDue(clock.now()), runner().runDue(clock.now())]);
    expect(poster.notices).toHaveLength(1);
  });

  it('tells once when two instances start together after the app was down', async () => {
    await create('U1', 'C1');
    await create('U2', 'C2');
    clock.set(at(days[2], 4 * hour));
    await Promise.all([
      runner('runner-a').runDue(clock.now()),
      runner('runner-b').runDue(clock.now()),
    ]);
    expect(poster.notices.map((notice) => notice.userId).sort()).toEqual(['U1', 'U2']);
  });

  it('tells a creator who could not be told at the next start', async () => {
    const digest = await create('U1', 'C1');
    clock.set(at(days[2], 4 * hour));
    const notify = poster.notifyCreator.bind(poster);
    poster.notifyCreator = async () => {
      throw new Error('Slack could not be reached');
    };
    await runner('runner-a').runDue(clock.now());
    expect(poster.notices).toEqual([]);
    poster.notifyCreator = notify;
    clock.set(at(days[2], 5 * hour));
    await runner('runner-b').runDue(clock.now());
    expect(poster.notices.map((notice) => notice.userId)).toEqual(['U1']);
    expect(runNowButtons(poster.notices[0]?.message ?? { text: '', blocks: [] })).toEqual([
      digest.id,
    ]);
  });

  it('looks again at the next tick when the store could not say what was left untold', async () => {
    const digest = await create('U1', 'C1');
    await db.store.runs.recordSkipped(digest.id, days[0] as Date, {
      owner: 'runner-gone',
      at: at(days[2], 0),
      reason: { kind: 'missed' },
      count: 2,
      nextRunAt: days[2] as Date,
    });
    let failures = 1;
    const store = db.store.runs;
    const runs = new Proxy(store, {
      get(target, property) {
        if (property === 'lateCreators') {
          return () =>
            failures-- > 0
              ? Promise.reject(new Error('the store did not answer'))
              : target.lateCreators();
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const flaky = world().runner({
      db: { ...db.store, runs },
      renderResumeNotice: (digests, now, details) =>
        renderDigestsResumed(digests, { now, ...details }),
      options: { channelIntervalMs: 0, owner: 'runner-a' },
    });
    clock.set(at(days[1], 4 * hour));
    await flaky.runDue(clock.now());
    expect(poster.notices).toEqual([]);
    clock.set(at(days[1], 4 * hour + 60_000));
    await flaky.runDue(clock.now());
    expect(poster.notices.map((notice) => notice.userId)).toEqual(['U1']);
  });

  it('names the slots in local time across the spring DST change (London, 2026-03-29)', async () => {
    // Down from Friday 27 March until Monday 30 March 12:00 BST: the 09:00 runs of Saturday (GMT),
    // Sunday and Monday (BST, after the clocks went forward at 01:00 GMT on Sunday) were missed.
    const digest = await create('U1', 'C1', new Date('2026-03-28T09:00:00Z'));
    clock.set(new Date('2026-03-30T11:00:00Z'));
    expect(await runner().runDue(clock.now())).toMatchObject({ skipped: 1 });
    const [notice] = poster.notices;
    expect(runNowButtons(notice?.message ?? { text: '', blocks: [] })).toEqual([digest.id]);
    expect(toPlainText(notice?.message ?? { text: '', blocks: [] })).toContain(
      'skipped 3 runs: Sat Mar 28, 09:00 GMT, Sun Mar 29, 09:00 GMT+1, Mon Mar 30, 09:00 GMT+1',
    );
  });
});

describeEachStore('the records of runs that came too late', at(days[0], 10_000), (world) => {
  it('are taken once, whoever recorded them, and leave out runs an outage skipped', async () => {
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
    const u1 = { teamId: x.teamId, creatorId: 'U1' };
    const u2 = { teamId: y.teamId, creatorId: 'U2' };
    expect(await db.store.runs.lateCreators()).toEqual([u1, u2]);
    const told = at(clock.now(), 60_000);
    const [first, again] = await Promise.all([
      db.store.runs.takeLateSkips(u1, told),
      db.store.runs.takeLateSkips(u1, told),
    ]);
    const taken = [...(first ?? []), ...(again ?? [])];
    expect(taken.map((s) => [s.digest.id, s.runs])).toEqual([
      [x.id, [{ from: days[0], count: 2 }]],
    ]);
    expect(await db.store.runs.takeLateSkips(u1, told)).toEqual([]);
    expect(await db.store.runs.lateCreators()).toEqual([u2]);
    expect((await db.store.runs.getDelivery(x.id, days[0] as Date))?.noticedAt).toEqual(told);
    // A creator who could not be told is given back, for the next runner to start.
    await db.store.runs.untakeLateSkips([{ digestId: x.id, slot: days[0] as Date }]);
    expect(await db.store.runs.lateCreators()).toEqual([u1, u2]);
  });
});
