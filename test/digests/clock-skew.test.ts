/**
 * Due-ness and leases use each instance's own clock. Three instances whose clocks differ by up to
 * 30 seconds, ticking every 30 seconds over three hours of hourly digests, still post each slot
 * exactly once and lose none.
 */
import { expect, it } from 'vitest';
import { everyTeam } from '../../src/digests/per-team.ts';
import { DigestRunner } from '../../src/digests/runner.ts';
import { renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import { nextRuns } from '../../src/time/schedule.ts';
import {
  announcePostgresSkip,
  describeEachStore,
  digestInput,
  FakeClock,
  FakePoster,
} from './helpers.ts';

const start = new Date('2026-06-08T07:58:00Z');
const end = new Date('2026-06-08T11:05:00Z');
const tickMs = 30_000;
const hourly = { kind: 'cron', expression: '0 * * * *', zone: 'UTC', cadence: 'custom' } as const;
const everyTwoHours = {
  kind: 'cron',
  expression: '30 */2 * * *',
  zone: 'UTC',
  cadence: 'custom',
} as const;

announcePostgresSkip();
describeEachStore('instances whose clocks differ by up to 30 s', start, (world) => {
  it('post each slot once and lose none', async () => {
    const { db, analytics } = world();
    const schedules = [hourly, everyTwoHours];
    const digests = [];
    for (let i = 0; i < 12; i++) {
      const schedule = schedules[i % 2] ?? hourly;
      const [first] = nextRuns(schedule, start, 1);
      digests.push(
        await db.store.digests.create(
          digestInput({ channelId: `C${i}`, schedule, nextRunAt: first as Date }),
          start,
        ),
      );
    }
    const master = new FakeClock(start);
    const poster = new FakePoster(master);
    const offsets = [-30_000, 0, 30_000];
    const instances = await Promise.all(
      offsets.map(async (offset, index) => {
        const clock = new FakeClock(new Date(start.getTime() + offset));
        const runner = new DigestRunner({
          db: index === 0 ? db.store : await db.sibling(),
          analytics,
          posters: everyTeam(poster),
          clock,
          renderDigest: (digest, query) => ({ text: `${digest.id}@${query.end}`, blocks: [] }),
          renderPauseNotice: renderDigestPaused,
          options: { owner: `instance-${index}`, channelIntervalMs: 0, tickMs },
        });
        return { clock, offset, runner };
      }),
    );

    for (let t = start.getTime(); t <= end.getTime(); t += tickMs) {
      master.set(new Date(t));
      await Promise.all(
        instances.map(({ clock, offset, runner }) => {
          clock.set(new Date(t + offset));
          return runner.runDue(clock.now());
        }),
      );
    }

    const posted = poster.posts.map((post) => post.message.text);
    expect(new Set(posted).size).toBe(posted.length);
    const expected = digests.flatMap((digest) =>
      nextRuns(digest.schedule, new Date(start.getTime() - 1), 10)
        .filter((slot) => slot.getTime() <= end.getTime() - 30_000)
        .map((slot) => `${digest.id}@${slot.toISOString().slice(0, 19)}+00:00`),
    );
    expect(expected.length).toBeGreaterThan(30);
    expect([...posted].sort()).toEqual([...expected].sort());
    for (const digest of digests) {
      expect((await db.store.digests.get(digest.id))?.lastRun?.outcome).toBe('posted');
    }
  });
});
