/**
 * Issue 18, item 9: once an outage that held a workspace's digests is over, each creator whose
 * digests skipped slots meanwhile gets one DM (not one per slot) listing those digests and slots,
 * with "Run now" for each digest. The same for digests that resume once the app works again in a
 * workspace it had left.
 */
import { beforeEach, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/errors.ts';
import type { Digest } from '../../src/model/digest.ts';
import {
  renderDigestsResumed,
  renderOutageNotice,
} from '../../src/render/digests/digest-outages.ts';
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

announcePostgresSkip();
describeEachStore('creators told what an outage skipped', at(days[0], 10_000), (world) => {
  let db: StoreUnderTest;
  let clock: FakeClock;
  let analytics: FakeAnalytics;
  let poster: FakePoster;
  beforeEach(() => {
    ({ db, clock, analytics, poster } = world());
  });

  const runner = () =>
    world().runner({
      renderOutageNotice,
      renderResumeNotice: (digests, now, details) =>
        renderDigestsResumed(digests, { now, ...details }),
      options: { channelIntervalMs: 0, backoffMs: 10 },
    });

  async function create(creatorId: string, channelId: string): Promise<Digest> {
    return db.store.digests.create(
      digestInput({ creatorId, channelId, schedule: dailyLondon, nextRunAt: days[0] as Date }),
      clock.now(),
    );
  }

  it('sends each creator one DM listing their digests’ skipped slots, with Run now for each', async () => {
    const [a, b, c] = [
      await create('U1', 'C1'),
      await create('U1', 'C2'),
      await create('U2', 'C3'),
    ];
    analytics.answer = async () => {
      throw new ServiceUnavailableError(503, 3);
    };
    const running = runner();
    for (const day of days.slice(0, 4)) {
      clock.set(at(day, 10_000));
      expect(await running.runDue(clock.now())).toMatchObject({ posted: 0, failed: 0 });
    }
    expect(poster.notices).toEqual([]);

    analytics.answer = async () => influencers('alice', 'bob');
    clock.set(at(days[4], 10_000));
    expect(await running.runDue(clock.now())).toMatchObject({ posted: 3 });
    expect(poster.notices.map((notice) => notice.userId).sort()).toEqual(['U1', 'U2']);
    const noticeTo = (creator: string) =>
      poster.notices.find((notice) => notice.userId === creator)?.message;
    const [toU1, toU2] = [noticeTo('U1'), noticeTo('U2')];
    if (toU1 === undefined || toU2 === undefined) throw new Error('two notices');
    // Digests created at the same instant come in id order.
    const [first, second] = [a.id, b.id].sort();
    expect(runNowButtons(toU1)).toEqual([first, second]);
    expect(runNowButtons(toU2)).toEqual([c.id]);
    const words = toPlainText(toU1);
    expect(words).toContain(
      'Your digests run again: scheduled digests in this workspace were on hold because the analytics service was unavailable or could not be reached.',
    );
    expect(words).toContain(
      'skipped 4 runs: Mon Jun 8, 09:00 GMT+1, Tue Jun 9, 09:00 GMT+1, Wed Jun 10, 09:00 GMT+1, Thu Jun 11, 09:00 GMT+1',
    );
    expect(toU1.text).toBe(
      `Your digests ${first}, ${second} run again. Runs of ${first}, ${second} were skipped meanwhile: run them now from this message.`,
    );

    clock.set(at(days[4], 60_000));
    await running.runDue(clock.now());
    expect(poster.notices).toHaveLength(2);
  });

  it('tells nobody when the outage skipped nothing', async () => {
    await create('U1', 'C1');
    analytics.answer = async () => {
      throw new ServiceUnavailableError(503, 3);
    };
    const running = runner();
    await running.runDue(clock.now());
    analytics.answer = async () => influencers('alice');
    clock.set(at(days[0], 20 * 60_000));
    expect(await running.runDue(clock.now())).toMatchObject({ posted: 1 });
    expect(await db.store.outages.list()).toEqual([]);
    expect(poster.notices).toEqual([]);
  });

  it('lists the slots a digest skipped while the app had left the workspace', async () => {
    const digest = await create('U1', 'C1');
    const later = await db.store.digests.create(
      digestInput({
        creatorId: 'U1',
        channelId: 'C2',
        schedule: dailyLondon,
        nextRunAt: days[3] as Date,
      }),
      clock.now(),
    );
    const running = runner();
    await running.workspaces.left('T1', 'app_uninstalled');
    clock.set(at(days[2], 3 * 60 * 60_000));
    await running.workspaces.back('T1');
    const [notice] = poster.notices;
    expect(notice?.userId).toBe('U1');
    // The other one owed nothing yet: it skipped nothing.
    expect(runNowButtons(notice?.message ?? { text: '', blocks: [] })).toEqual([digest.id]);
    expect(toPlainText(notice?.message ?? { text: '', blocks: [] })).toContain(later.id);
    expect(toPlainText(notice?.message ?? { text: '', blocks: [] })).toContain(
      'skipped 3 runs: Mon Jun 8, 09:00 GMT+1, Tue Jun 9, 09:00 GMT+1, Wed Jun 10, 09:00 GMT+1',
    );
  });
});
