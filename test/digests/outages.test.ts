/**
 * An outage of the app is not a digest's fault: failures that concern the whole workspace hold its
 * digests (a circuit per workspace), probe now and then, and resume by themselves.
 */
import { beforeEach, expect, it } from 'vitest';
import type { DigestRunnerOptions } from '../../src/digests/runner.ts';
import { CredentialsRejectedError, ServiceUnavailableError } from '../../src/errors.ts';
import type { Digest } from '../../src/model/digest.ts';
import { renderOutageNotice } from '../../src/render/digests/digest-outages.ts';
import { renderDigestList } from '../../src/render/management/digest-management.ts';
import { toPlainText } from '../../src/render/text.ts';
import type { Database } from '../../src/store/database.ts';
import {
  announcePostgresSkip,
  dailyLondon,
  describeEachStore,
  digestInput,
  type FakeAnalytics,
  type FakeClock,
  type FakePoster,
  influencers,
  type StoreUnderTest,
} from './helpers.ts';

/** 09:00 London on 8 to 11 June 2026. */
const days = ['2026-06-08', '2026-06-09', '2026-06-10', '2026-06-11'].map(
  (day) => new Date(`${day}T08:00:00Z`),
);
const at = (slot: Date | undefined, ms: number) => new Date((slot?.getTime() ?? 0) + ms);

announcePostgresSkip();
describeEachStore('a workspace’s digests during an outage', at(days[0], 10_000), (world) => {
  let db: StoreUnderTest;
  let clock: FakeClock;
  let analytics: FakeAnalytics;
  let poster: FakePoster;
  beforeEach(() => {
    ({ db, clock, analytics, poster } = world());
  });

  function runner(store: Database = db.store, options: DigestRunnerOptions = {}) {
    return world().runner({
      db: store,
      renderOutageNotice,
      options: { channelIntervalMs: 0, backoffMs: 10, ...options },
    });
  }

  async function createDaily(count: number, teamId = 'T1'): Promise<Digest[]> {
    const created: Digest[] = [];
    for (let i = 0; i < count; i++) {
      created.push(
        await db.store.digests.create(
          digestInput({
            teamId,
            channelId: `C${teamId}${i}`,
            creatorId: `U${i + 1}`,
            schedule: dailyLondon,
            nextRunAt: days[0] as Date,
          }),
          clock.now(),
        ),
      );
    }
    return created;
  }

  it('holds three failing slots, then posts each digest once in the healthy one, telling the admins once', async () => {
    const digests = await createDaily(3);
    const rejected = async () => {
      throw new CredentialsRejectedError(401);
    };
    analytics.answer = rejected;
    // Two instances meet the outage in the same tick.
    const runners = [runner(db.store), runner(await db.sibling())];

    const first = await Promise.all(runners.map((each) => each.runDue(clock.now())));
    expect(first.reduce((sum, report) => sum + report.held, 0)).toBe(3);
    expect(first.reduce((sum, report) => sum + report.failed, 0)).toBe(0);
    for (const day of days.slice(1, 3)) {
      clock.set(at(day, 10_000));
      const reports = await Promise.all(runners.map((each) => each.runDue(clock.now())));
      // One digest probes; the previous slots, too old now, are skipped for the outage.
      expect(reports.reduce((sum, report) => sum + report.probes, 0)).toBe(1);
      expect(reports.reduce((sum, report) => sum + report.posted, 0)).toBe(0);
    }
    expect(poster.attempts).toEqual([]);
    expect(analytics.calls).toHaveLength(3);

    analytics.answer = async () => influencers('alice', 'bob');
    clock.set(at(days[3], 10_000));
    const healthy = await Promise.all(runners.map((each) => each.runDue(clock.now())));
    expect(healthy.reduce((sum, report) => sum + report.posted, 0)).toBe(3);
    expect(poster.posts.map((post) => post.channelId).sort()).toEqual(['CT10', 'CT11', 'CT12']);
    for (const digest of digests) {
      const after = (await db.store.digests.get(digest.id)) as Digest;
      expect(after).toMatchObject({
        status: 'active',
        consecutiveFailures: 0,
        nextRunAt: at(days[3], 86_400_000),
        lastRun: { slot: days[3], outcome: 'posted' },
      });
      expect(await db.store.runs.getDelivery(digest.id, days[2] as Date)).toMatchObject({
        status: 'skipped',
        skipReason: { kind: 'outage', cause: 'analytics_credentials_rejected' },
      });
    }
    expect(await db.store.outages.list()).toEqual([]);

    expect(poster.adminNotices).toHaveLength(1);
    expect(poster.adminNotices[0]?.userIds).toEqual(['U1', 'U2', 'U3']);
    expect(poster.adminNotices[0]?.message.text).toContain(
      "Scheduled digests in this workspace are on hold: the analytics service rejected this app's credentials.",
    );
    expect(poster.notices).toEqual([]);
  });

  it('shows a slot skipped for the outage in the list, with its time and reason', async () => {
    const [digest] = await createDaily(1);
    analytics.answer = async () => {
      throw new ServiceUnavailableError(503, 4);
    };
    await runner().runDue(clock.now());
    clock.set(at(days[1], 10_000));
    await runner().runDue(clock.now());
    const listed = toPlainText(
      renderDigestList(await db.store.digests.listByChannel('T1', digest?.channelId ?? ''), {
        now: clock.now(),
        channelId: digest?.channelId ?? '',
        viewerId: 'U1',
      }),
    );
    expect(listed).toContain(
      'skipped: the analytics service was unavailable or could not be reached (an outage of the app, not of this digest)',
    );
  });

  it('costs at most one probe per workspace per tick, and no posts, while the outage lasts', async () => {
    await createDaily(40);
    const [other] = await createDaily(1, 'T2');
    poster.failWith = (channelId) =>
      channelId.startsWith('CT1')
        ? { code: 'slack_webapi_platform_error', data: { ok: false, error: 'invalid_auth' } }
        : undefined;
    const first = await runner().runDue(clock.now());
    expect(first).toMatchObject({ claimed: 41, posted: 1 });
    expect(poster.posts.map((post) => post.channelId)).toEqual([other?.channelId]);
    const attempts = poster.attempts.length;

    // Every tick within the backoff costs nothing.
    for (const ms of [30_000, 59_000]) {
      clock.set(at(days[0], 10_000 + ms));
      expect(await runner().runDue(clock.now())).toMatchObject({ claimed: 0, probes: 0 });
    }
    expect(poster.attempts.length).toBe(attempts);
    // Once it is due, one probe: Slack still refuses the token.
    clock.set(at(days[0], 10_000 + 70_000));
    expect(await runner().runDue(clock.now())).toMatchObject({ probes: 1, posted: 0, held: 1 });
    expect(poster.attempts.length).toBe(attempts + 1);
    expect((await db.store.outages.list())[0]).toMatchObject({
      teamId: 'T1',
      cause: 'slack_token_rejected',
      probes: 1,
    });
    // The next probe waits twice as long.
    clock.set(at(days[0], 10_000 + 70_000 + 90_000));
    expect(await runner().runDue(clock.now())).toMatchObject({ probes: 0 });
    clock.set(at(days[0], 10_000 + 70_000 + 130_000));
    expect(await runner().runDue(clock.now())).toMatchObject({ probes: 1, posted: 0 });
  });

  it('opens on Slack rate limiting that outlasts the retries, and probes no sooner than Retry-After', async () => {
    await createDaily(2);
    poster.failWith = () => ({ code: 'slack_webapi_rate_limited_error', retryAfter: 300 });
    const report = await runner(db.store, { attempts: 2 }).runDue(clock.now());
    expect(report).toMatchObject({ posted: 0, failed: 0, held: 2 });
    const [outage] = await db.store.outages.list();
    expect(outage).toMatchObject({ cause: 'slack_rate_limited' });
    expect(outage?.probeAt.getTime()).toBeGreaterThanOrEqual(
      (outage?.since.getTime() ?? 0) + 300_000,
    );
    poster.failWith = () => undefined;
    clock.set(at(days[0], 20 * 60_000));
    expect(await runner().runDue(clock.now())).toMatchObject({ probes: 1, posted: 2 });
  });

  it('never pauses a digest for an outage, only for failures of its own', async () => {
    const [digest] = await createDaily(1);
    analytics.answer = async () => {
      throw new ServiceUnavailableError(503, 4);
    };
    for (const day of days) {
      clock.set(at(day, 10_000));
      await runner().runDue(clock.now());
    }
    expect(await db.store.digests.get(digest?.id ?? '')).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
    });
    expect(poster.notices).toEqual([]);
  });
});
