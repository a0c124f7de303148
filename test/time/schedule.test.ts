import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import type { CronSchedule } from '../../src/model/digest.ts';
import {
  describeSchedule,
  describeWindow,
  monthDayOf,
  shortMonthSkipDay,
} from '../../src/render/digests/schedule.ts';
import {
  countRunsBetween,
  inferCadence,
  latestRunAtOrBefore,
  nextRunAfter,
  nextRuns,
  previousRun,
  validateSchedule,
} from '../../src/time/schedule.ts';

function cron(
  expression: string,
  zone: string,
  cadence: CronSchedule['cadence'] = 'custom',
): CronSchedule {
  return { kind: 'cron', expression, zone, cadence };
}

const iso = (dates: readonly Date[]) => dates.map((date) => date.toISOString());

describe('nextRuns', () => {
  it.each([
    // zone, from (UTC), expected UTC instants: 09:00 local on both sides of the change
    {
      name: 'America/New_York spring forward (8 March 2026)',
      zone: 'America/New_York',
      from: '2026-03-06T12:00:00Z',
      expected: [
        '2026-03-06T14:00:00.000Z',
        '2026-03-07T14:00:00.000Z',
        '2026-03-08T13:00:00.000Z',
        '2026-03-09T13:00:00.000Z',
      ],
    },
    {
      name: 'America/New_York fall back (1 November 2026)',
      zone: 'America/New_York',
      from: '2026-10-30T12:00:00Z',
      expected: [
        '2026-10-30T13:00:00.000Z',
        '2026-10-31T13:00:00.000Z',
        '2026-11-01T14:00:00.000Z',
        '2026-11-02T14:00:00.000Z',
      ],
    },
    {
      name: 'Europe/London spring forward (29 March 2026)',
      zone: 'Europe/London',
      from: '2026-03-27T12:00:00Z',
      expected: [
        '2026-03-28T09:00:00.000Z',
        '2026-03-29T08:00:00.000Z',
        '2026-03-30T08:00:00.000Z',
        '2026-03-31T08:00:00.000Z',
      ],
    },
    {
      name: 'Europe/London fall back (25 October 2026)',
      zone: 'Europe/London',
      from: '2026-10-23T12:00:00Z',
      expected: [
        '2026-10-24T08:00:00.000Z',
        '2026-10-25T09:00:00.000Z',
        '2026-10-26T09:00:00.000Z',
        '2026-10-27T09:00:00.000Z',
      ],
    },
    {
      name: 'Australia/Sydney clocks forward in October (4 October 2026)',
      zone: 'Australia/Sydney',
      from: '2026-10-02T12:00:00Z',
      expected: [
        '2026-10-02T23:00:00.000Z',
        '2026-10-03T22:00:00.000Z',
        '2026-10-04T22:00:00.000Z',
        '2026-10-05T22:00:00.000Z',
      ],
    },
    {
      name: 'Australia/Sydney clocks back in April (5 April 2026)',
      zone: 'Australia/Sydney',
      from: '2026-04-02T12:00:00Z',
      expected: [
        '2026-04-02T22:00:00.000Z',
        '2026-04-03T22:00:00.000Z',
        '2026-04-04T23:00:00.000Z',
        '2026-04-05T23:00:00.000Z',
      ],
    },
  ])('fires at 09:00 local across $name', ({ zone, from, expected }) => {
    expect(iso(nextRuns(cron('0 9 * * *', zone, 'daily'), new Date(from), 4))).toEqual(expected);
  });

  it('runs a time skipped by spring forward once, at the end of the gap, on the same day', () => {
    const schedule = cron('30 2 * * *', 'America/New_York', 'daily');
    expect(iso(nextRuns(schedule, new Date('2026-03-07T12:00:00Z'), 3))).toEqual([
      '2026-03-08T07:00:00.000Z', // 03:00 EDT: 02:30 does not exist that day
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  it('runs a time repeated by fall back once, at its first occurrence', () => {
    const schedule = cron('30 1 * * *', 'Europe/London', 'daily');
    expect(iso(nextRuns(schedule, new Date('2026-10-24T12:00:00Z'), 3))).toEqual([
      '2026-10-25T00:30:00.000Z', // 01:30 BST; the 01:30 GMT an hour later does not run
      '2026-10-26T01:30:00.000Z',
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('runs an hourly schedule on both occurrences of the repeated hour', () => {
    const schedule = cron('0 * * * *', 'Europe/London');
    expect(iso(nextRuns(schedule, new Date('2026-10-24T23:30:00Z'), 3))).toEqual([
      '2026-10-25T00:00:00.000Z', // 01:00 BST
      '2026-10-25T01:00:00.000Z', // 01:00 GMT
      '2026-10-25T02:00:00.000Z',
    ]);
  });

  it('skips months without a 31st for day 31', () => {
    const schedule = cron('0 10 31 * *', 'Europe/London', 'monthly');
    expect(iso(nextRuns(schedule, new Date('2026-01-01T00:00:00Z'), 4))).toEqual([
      '2026-01-31T10:00:00.000Z',
      '2026-03-31T09:00:00.000Z',
      '2026-05-31T09:00:00.000Z',
      '2026-07-31T09:00:00.000Z',
    ]);
  });

  it('runs on the last day of every month for L, February included', () => {
    const schedule = cron('0 10 L * *', 'Europe/London', 'monthly');
    expect(iso(nextRuns(schedule, new Date('2028-01-01T00:00:00Z'), 3))).toEqual([
      '2028-01-31T10:00:00.000Z',
      '2028-02-29T10:00:00.000Z',
      '2028-03-31T09:00:00.000Z',
    ]);
  });

  it('runs weekdays only for 1-5', () => {
    const schedule = cron('30 8 * * 1-5', 'America/New_York');
    // Friday 2026-06-05 after 08:30 -> Monday, Tuesday
    expect(iso(nextRuns(schedule, new Date('2026-06-05T13:00:00Z'), 2))).toEqual([
      '2026-06-08T12:30:00.000Z',
      '2026-06-09T12:30:00.000Z',
    ]);
  });

  it('matches day-of-month OR day-of-week when both are restricted, AND with +', () => {
    const from = new Date('2026-06-01T12:00:00Z'); // a Monday, after 09:00 UTC
    expect(iso(nextRuns(cron('0 9 1 * 1', 'UTC'), from, 3))).toEqual([
      '2026-06-08T09:00:00.000Z',
      '2026-06-15T09:00:00.000Z',
      '2026-06-22T09:00:00.000Z',
    ]);
    expect(iso(nextRuns(cron('0 9 1 * +1', 'UTC'), from, 1))).toEqual(['2027-02-01T09:00:00.000Z']);
  });

  it('does not depend on the process time zone', () => {
    expect(process.env.TZ).toBe('Europe/Paris');
    const next = nextRunAfter(cron('0 9 * * *', 'Asia/Tokyo'), new Date('2026-05-31T12:00:00Z'));
    expect(next?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
  });
});

describe('previousRun and latestRunAtOrBefore', () => {
  const schedule = cron('0 9 * * 1', 'Europe/London', 'weekly');

  it('excludes the reference for previousRun and includes it for latestRunAtOrBefore', () => {
    const slot = new Date('2026-06-08T08:00:00Z');
    expect(previousRun(schedule, slot)?.toISOString()).toBe('2026-06-01T08:00:00.000Z');
    expect(latestRunAtOrBefore(schedule, slot)?.toISOString()).toBe('2026-06-08T08:00:00.000Z');
    expect(latestRunAtOrBefore(schedule, new Date('2026-06-08T07:59:59Z'))?.toISOString()).toBe(
      '2026-06-01T08:00:00.000Z',
    );
  });

  it('counts slots between two instants, end excluded, up to a limit', () => {
    const daily = cron('0 9 * * *', 'UTC', 'daily');
    const from = new Date('2026-06-01T09:00:00Z');
    expect(countRunsBetween(daily, from, new Date('2026-06-06T09:00:00Z'))).toBe(5);
    expect(countRunsBetween(daily, from, from)).toBe(0);
    expect(countRunsBetween(daily, from, new Date('2030-01-01T00:00:00Z'), 100)).toBe(100);
  });
});

describe('describeSchedule', () => {
  it.each([
    ['0 9 * * 1', 'Europe/London', 'Mondays at 09:00 Europe/London'],
    ['30 8 * * 1-5', 'America/New_York', 'Weekdays at 08:30 America/New_York'],
    ['30 8 * * MON-FRI', 'America/New_York', 'Weekdays at 08:30 America/New_York'],
    ['0 9 * * *', 'UTC', 'Every day at 09:00 UTC'],
    ['0 9 * * 1,4', 'UTC', 'Mondays and Thursdays at 09:00 UTC'],
    ['0 9 * * 1,3,5', 'UTC', 'Mondays, Wednesdays and Fridays at 09:00 UTC'],
    ['0 18 * * 0,6', 'UTC', 'Weekends at 18:00 UTC'],
    ['0 10 1 * *', 'Europe/London', 'On the 1st of every month at 10:00 Europe/London'],
    ['0 10 22 * *', 'UTC', 'On the 22nd of every month at 10:00 UTC'],
    [
      '0 10 31 * *',
      'UTC',
      'On the 31st of every month at 10:00 UTC (skipped in months without a 31st)',
    ],
    ['0 10 L * *', 'UTC', 'On the last day of every month at 10:00 UTC'],
    ['0 */6 * * *', 'UTC', 'Every 6 hours at :00 UTC'],
    ['0 * * * *', 'Asia/Kolkata', 'Every hour at :00 Asia/Kolkata'],
    ['0 */5 9 * *', 'UTC', 'cron "0 */5 9 * *" in UTC'],
    ['0 9 1 * 1', 'UTC', 'cron "0 9 1 * 1" in UTC'],
  ])('describes %s in %s as "%s"', (expression, zone, expected) => {
    expect(describeSchedule({ expression, zone })).toBe(expected);
  });

  it('describes windows', () => {
    expect(describeWindow({ kind: 'since-previous-run' }, 'daily')).toBe('the day before each run');
    expect(describeWindow({ kind: 'since-previous-run' }, 'weekly')).toBe(
      'the 7 days before each run',
    );
    expect(describeWindow({ kind: 'since-previous-run' }, 'monthly')).toBe(
      'the previous calendar month',
    );
    expect(
      describeWindow({ kind: 'since-previous-run' }, 'monthly', { expression: '0 10 1 * *' }),
    ).toBe('the previous calendar month');
    expect(
      describeWindow({ kind: 'since-previous-run' }, 'monthly', { expression: '0 10 31 * *' }),
    ).toBe(
      'the month so far, from the 1st at 00:00 to the run, and the month before it too after a month without a 31st',
    );
    expect(
      describeWindow({ kind: 'since-previous-run' }, 'monthly', { expression: '0 17 L * *' }),
    ).toBe('the month so far, from the 1st at 00:00 to the run');
    expect(describeWindow({ kind: 'since-previous-run' }, 'custom')).toBe(
      'the time since the previous scheduled run',
    );
    expect(describeWindow({ kind: 'last', amount: 24, unit: 'hours' }, 'custom')).toBe(
      'the 24 hours before each run',
    );
    expect(describeWindow({ kind: 'last', amount: 1, unit: 'weeks' }, 'daily')).toBe(
      'the week before each run',
    );
  });
});

describe('monthDayOf', () => {
  it.each([
    ['0 10 1 * *', 1, undefined],
    ['0 10 28 * *', 28, undefined],
    ['0 10 29 * *', 29, 29],
    ['0 10 31 * *', 31, 31],
    ['0 10 L * *', 'last', undefined],
    ['0 10 31 * 1', undefined, undefined],
    ['0 10 31 1 *', undefined, undefined],
    ['0 10 1,15 * *', undefined, undefined],
    ['0 10 * * *', undefined, undefined],
    ['0 10 31 * * 2026', undefined, undefined],
  ] as const)('reads %s as day %s, skipped in short months: %s', (expression, day, skipped) => {
    expect(monthDayOf(expression)).toBe(day);
    expect(shortMonthSkipDay(expression)).toBe(skipped);
  });
});

describe('inferCadence', () => {
  it.each([
    ['0 9 * * *', 'daily'],
    ['0 9 * * 1', 'weekly'],
    ['0 10 1 * *', 'monthly'],
    ['0 10 L * *', 'monthly'],
    ['30 8 * * 1-5', 'custom'],
    ['0 */6 * * *', 'custom'],
  ])('reads %s as %s', (expression, cadence) => {
    expect(inferCadence(expression)).toBe(cadence);
  });
});

describe('validateSchedule', () => {
  const now = new Date('2026-06-01T12:00:00Z');

  it('accepts an ordinary schedule', () => {
    expect(() =>
      validateSchedule({ expression: '0 9 * * 1', zone: 'Europe/London' }, now),
    ).not.toThrow();
  });

  it.each([
    [
      '0 9 * * 1',
      'Mars/Olympus',
      'unknown_zone',
      'Unknown time zone "Mars/Olympus". Use an IANA name such as Europe/London or America/New_York.',
    ],
    [
      '0 9 * *',
      'UTC',
      'bad_schedule',
      'Cannot read the cron expression "0 9 * *": it needs five fields (minute hour day-of-month month day-of-week), for example cron "0 9 * * 1" for Mondays at 09:00.',
    ],
    [
      '0 0 9 * * 1',
      'UTC',
      'bad_schedule',
      'Cannot read the cron expression "0 0 9 * * 1": it needs five fields (minute hour day-of-month month day-of-week), for example cron "0 9 * * 1" for Mondays at 09:00.',
    ],
    ['0 9 31 2 *', 'UTC', 'bad_schedule', 'The schedule "0 9 31 2 *" never runs.'],
    [
      '*/5 * * * *',
      'UTC',
      'bad_schedule',
      'The schedule "*/5 * * * *" runs more often than once every 60 minutes; a digest can run at most that often.',
    ],
  ])('rejects %s in %s', (expression, zone, reason, message) => {
    let caught: unknown;
    try {
      validateSchedule({ expression, zone }, now);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ParseError);
    expect((caught as ParseError).reason).toBe(reason);
    expect((caught as ParseError).message).toBe(message);
  });
});
