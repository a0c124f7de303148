import { describe, expect, it } from 'vitest';
import { manualRunWindow, runWindow } from '../../src/digests/run-window.ts';
import type { CronSchedule, DigestWindow } from '../../src/model/digest.ts';
import { nextRuns } from '../../src/time/schedule.ts';

function cron(
  expression: string,
  zone: string,
  cadence: CronSchedule['cadence'] = 'custom',
): CronSchedule {
  return { kind: 'cron', expression, zone, cadence };
}

describe('runWindow', () => {
  const cases: {
    name: string;
    schedule: CronSchedule;
    window: DigestWindow;
    slot: string;
    start: string;
    end: string;
  }[] = [
    {
      name: 'daily covers 24 hours',
      schedule: cron('0 9 * * *', 'Europe/London', 'daily'),
      window: { kind: 'since-previous-run' },
      slot: '2026-06-10T08:00:00Z',
      start: '2026-06-09T09:00:00+01:00',
      end: '2026-06-10T09:00:00+01:00',
    },
    {
      name: 'daily over spring forward covers 23 real hours, 09:00 to 09:00',
      schedule: cron('0 9 * * *', 'America/New_York', 'daily'),
      window: { kind: 'since-previous-run' },
      slot: '2026-03-08T13:00:00Z',
      start: '2026-03-07T09:00:00-05:00',
      end: '2026-03-08T09:00:00-04:00',
    },
    {
      name: 'weekly covers 7 days',
      schedule: cron('0 9 * * 1', 'Europe/London', 'weekly'),
      window: { kind: 'since-previous-run' },
      slot: '2026-06-08T08:00:00Z',
      start: '2026-06-01T09:00:00+01:00',
      end: '2026-06-08T09:00:00+01:00',
    },
    {
      name: 'weekdays on Monday covers the weekend',
      schedule: cron('30 8 * * 1-5', 'Australia/Sydney'),
      window: { kind: 'since-previous-run' },
      slot: '2026-06-07T22:30:00Z',
      start: '2026-06-05T08:30:00+10:00',
      end: '2026-06-08T08:30:00+10:00',
    },
    {
      name: 'monthly covers the previous calendar month',
      schedule: cron('0 10 1 * *', 'Europe/London', 'monthly'),
      window: { kind: 'since-previous-run' },
      slot: '2026-04-01T09:00:00Z',
      start: '2026-03-01T00:00:00+00:00',
      end: '2026-04-01T00:00:00+01:00',
    },
    {
      name: 'last 24 hours ends at the slot',
      schedule: cron('30 8 * * 1-5', 'America/New_York'),
      window: { kind: 'last', amount: 24, unit: 'hours' },
      slot: '2026-06-08T12:30:00Z',
      start: '2026-06-07T08:30:00-04:00',
      end: '2026-06-08T08:30:00-04:00',
    },
    {
      name: 'last 2 weeks counts calendar weeks in the zone',
      schedule: cron('0 9 * * 1', 'Europe/London', 'weekly'),
      window: { kind: 'last', amount: 2, unit: 'weeks' },
      slot: '2026-04-06T08:00:00Z',
      start: '2026-03-23T09:00:00+00:00',
      end: '2026-04-06T09:00:00+01:00',
    },
    {
      name: 'a UTC digest writes the numeric offset the spec lists, as lookups do',
      schedule: cron('0 10 1 * *', 'UTC', 'monthly'),
      window: { kind: 'since-previous-run' },
      slot: '2026-04-01T10:00:00Z',
      start: '2026-03-01T00:00:00+00:00',
      end: '2026-04-01T00:00:00+00:00',
    },
  ];

  it.each(cases)('$name', ({ schedule, window, slot, start, end }) => {
    const result = runWindow({ schedule, window }, new Date(slot));
    expect(result).toEqual({ start, end, timezone: schedule.zone });
  });

  it.each([
    [
      'on the 31st after a month without one covers that month and this one so far',
      '0 10 31 * *',
      '2026-03-31T09:00:00Z',
      '2026-02-01T00:00:00+00:00',
      '2026-03-31T10:00:00+01:00',
    ],
    [
      'on the 31st in January covers January so far',
      '0 10 31 * *',
      '2026-01-31T10:00:00Z',
      '2026-01-01T00:00:00+00:00',
      '2026-01-31T10:00:00+00:00',
    ],
    [
      'on the 31st in May covers April, which had none, and May so far',
      '0 10 31 * *',
      '2026-05-31T09:00:00Z',
      '2026-04-01T00:00:00+01:00',
      '2026-05-31T10:00:00+01:00',
    ],
    [
      'on the 30th in March covers February, which had none, and March so far',
      '0 10 30 * *',
      '2026-03-30T09:00:00Z',
      '2026-02-01T00:00:00+00:00',
      '2026-03-30T10:00:00+01:00',
    ],
    [
      'on the last day covers that month so far',
      '0 10 L * *',
      '2026-03-31T09:00:00Z',
      '2026-03-01T00:00:00+00:00',
      '2026-03-31T10:00:00+01:00',
    ],
    [
      'on the last day of February covers February so far',
      '0 17 L * *',
      '2026-02-28T17:00:00Z',
      '2026-02-01T00:00:00+00:00',
      '2026-02-28T17:00:00+00:00',
    ],
    [
      'on the 28th covers the previous calendar month, even in February',
      '0 10 28 * *',
      '2026-02-28T10:00:00Z',
      '2026-01-01T00:00:00+00:00',
      '2026-02-01T00:00:00+00:00',
    ],
  ])('monthly %s', (_name, expression, slot, start, end) => {
    const schedule = cron(expression, 'Europe/London', 'monthly');
    expect(runWindow({ schedule, window: { kind: 'since-previous-run' } }, new Date(slot))).toEqual(
      {
        start,
        end,
        timezone: 'Europe/London',
      },
    );
  });

  it.each(['0 10 29 * *', '0 10 30 * *', '0 10 31 * *', '0 10 1 * *', '0 10 L * *'])(
    'reports every month exactly once over two years for monthly %s',
    (expression) => {
      const schedule = cron(expression, 'America/New_York', 'monthly');
      const slots = nextRuns(schedule, new Date('2026-01-01T00:00:00Z'), 24).filter(
        (slot) => slot < new Date('2028-01-01T00:00:00Z'),
      );
      const windows = slots.map((slot) =>
        runWindow({ schedule, window: { kind: 'since-previous-run' } }, slot),
      );
      // Months in the zone's own calendar, as the ISO texts write them.
      const monthsOf = (window: { start: string; end: string }) => {
        const months: string[] = [];
        const endsAtMonthStart = window.end.slice(8, 19) === '01T00:00:00';
        const endMonth = new Date(`${window.end.slice(0, 7)}-15T00:00:00Z`);
        if (endsAtMonthStart) endMonth.setUTCMonth(endMonth.getUTCMonth() - 1);
        const last = endMonth.toISOString().slice(0, 7);
        const cursor = new Date(`${window.start.slice(0, 7)}-15T00:00:00Z`);
        for (;;) {
          const month = cursor.toISOString().slice(0, 7);
          months.push(month);
          if (month >= last) return months;
          cursor.setUTCMonth(cursor.getUTCMonth() + 1);
        }
      };
      const reported = windows.flatMap(monthsOf);
      expect(new Set(reported).size).toBe(reported.length);
      for (let i = 1; i < windows.length; i++) {
        expect(Date.parse(windows[i]?.start ?? '')).toBeGreaterThanOrEqual(
          Date.parse(windows[i - 1]?.end ?? ''),
        );
        expect(windows[i]?.start).toMatch(/-01T00:00:00/);
      }
      const months = reported.slice(1);
      for (let i = 1; i < months.length; i++) {
        const next = new Date(`${months[i - 1]}-15T00:00:00Z`);
        next.setUTCMonth(next.getUTCMonth() + 1);
        expect(months[i]).toBe(next.toISOString().slice(0, 7));
      }
    },
  );

  it('covers 23 hours on the spring-forward day for a daily digest since the previous run', () => {
    const schedule = cron('0 9 * * *', 'America/New_York', 'daily');
    const { start, end } = runWindow(
      { schedule, window: { kind: 'since-previous-run' } },
      new Date('2026-03-08T13:00:00Z'),
    );
    expect([start, end]).toEqual(['2026-03-07T09:00:00-05:00', '2026-03-08T09:00:00-04:00']);
    expect(Date.parse(end) - Date.parse(start)).toBe(23 * 3_600_000);
  });
});

describe('manualRunWindow', () => {
  it('covers this month so far for a digest on the last day of the month', () => {
    const schedule = cron('0 17 L * *', 'Europe/London', 'monthly');
    expect(
      manualRunWindow(
        { schedule, window: { kind: 'since-previous-run' } },
        new Date('2026-03-15T12:00:00Z'),
      ),
    ).toEqual({
      start: '2026-03-01T00:00:00+00:00',
      end: '2026-03-15T12:00:00+00:00',
      timezone: 'Europe/London',
    });
  });

  it('covers the previous calendar month for a monthly digest on the 15th', () => {
    const schedule = cron('0 10 15 * *', 'Europe/London', 'monthly');
    expect(
      manualRunWindow(
        { schedule, window: { kind: 'since-previous-run' } },
        new Date('2026-03-15T12:00:00Z'),
      ),
    ).toEqual({
      start: '2026-02-01T00:00:00+00:00',
      end: '2026-03-01T00:00:00+00:00',
      timezone: 'Europe/London',
    });
  });
});
