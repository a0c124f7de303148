import { expect, it } from 'vitest';
import { announcePostgresSkip, describeEachStore, digestInput } from './helpers.ts';

announcePostgresSkip();
describeEachStore('a monthly digest at the month’s end', '2026-03-31T16:00:10Z', (world) => {
  it.each([
    [
      'on the last day covers that month so far',
      '0 17 L * *',
      '2026-03-31T16:00:00Z',
      '2026-03-01T00:00:00+00:00',
      '2026-03-31T17:00:00+01:00',
    ],
    [
      'on the 1st covers the previous calendar month',
      '0 9 1 * *',
      '2026-04-01T08:00:00Z',
      '2026-03-01T00:00:00+00:00',
      '2026-04-01T00:00:00+01:00',
    ],
  ])('%s', async (_name, expression, slot, start, end) => {
    const { db, clock, analytics } = world();
    clock.set(new Date(Date.parse(slot) + 10_000));
    await db.store.digests.create(
      digestInput({
        schedule: { kind: 'cron', expression, zone: 'Europe/London', cadence: 'monthly' },
        nextRunAt: new Date(slot),
      }),
      clock.now(),
    );
    expect(await world().runner().runDue(clock.now())).toMatchObject({ posted: 1 });
    expect(analytics.calls.map((call) => [call.start, call.end])).toEqual([[start, end]]);
  });
});
