import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  type PeriodUnit,
  periodShape,
  previousPeriod,
} from '../../../src/parsing/time/previous-period.ts';

const at = (iso: string, zone = 'America/New_York') => DateTime.fromISO(iso, { zone });
const window = (start: string, end: string, zone?: string) => ({
  start: at(start, zone),
  end: at(end, zone),
});
const iso = (w: { start: DateTime; end: DateTime }) => [
  w.start.toISO({ suppressMilliseconds: true }),
  w.end.toISO({ suppressMilliseconds: true }),
];

describe('previousPeriod', () => {
  it.each<[string, string, string, PeriodUnit | undefined, string, string]>([
    // A calendar unit: the unit before.
    [
      'last month',
      '2026-10-01T00:00',
      '2026-11-01T00:00',
      'month',
      '2026-09-01T00:00:00-04:00',
      '2026-10-01T00:00:00-04:00',
    ],
    [
      'a quarter',
      '2026-07-01T00:00',
      '2026-10-01T00:00',
      'quarter',
      '2026-04-01T00:00:00-04:00',
      '2026-07-01T00:00:00-04:00',
    ],
    [
      'a half',
      '2026-01-01T00:00',
      '2026-07-01T00:00',
      undefined,
      '2025-07-01T00:00:00-04:00',
      '2026-01-01T00:00:00-05:00',
    ],
    [
      'a year',
      '2025-01-01T00:00',
      '2026-01-01T00:00',
      'year',
      '2024-01-01T00:00:00-05:00',
      '2025-01-01T00:00:00-05:00',
    ],
    [
      'an ISO week',
      '2026-11-16T00:00',
      '2026-11-23T00:00',
      'week',
      '2026-11-09T00:00:00-05:00',
      '2026-11-16T00:00:00-05:00',
    ],
    [
      'a day',
      '2026-11-25T00:00',
      '2026-11-26T00:00',
      'day',
      '2026-11-24T00:00:00-05:00',
      '2026-11-25T00:00:00-05:00',
    ],
    // To date: the same elapsed part of the unit before.
    [
      'month to date',
      '2026-11-01T00:00',
      '2026-11-26T10:28',
      'month',
      '2026-10-01T00:00:00-04:00',
      '2026-10-26T10:28:00-04:00',
    ],
    [
      'month to date on Mar 31, clamped to February',
      '2026-03-01T00:00',
      '2026-03-31T10:00',
      'month',
      '2026-02-01T00:00:00-05:00',
      '2026-03-01T00:00:00-05:00',
    ],
    [
      'month to date on Mar 31 of a leap year',
      '2028-03-01T00:00',
      '2028-03-31T10:00',
      'month',
      '2028-02-01T00:00:00-05:00',
      '2028-03-01T00:00:00-05:00',
    ],
    [
      'quarter to date, named',
      '2026-10-01T00:00',
      '2026-10-15T09:00',
      'quarter',
      '2026-07-01T00:00:00-04:00',
      '2026-07-15T09:00:00-04:00',
    ],
    [
      'year to date',
      '2026-01-01T00:00',
      '2026-11-26T10:28',
      'year',
      '2025-01-01T00:00:00-05:00',
      '2025-11-26T10:28:00-05:00',
    ],
    [
      'today so far',
      '2026-11-26T00:00',
      '2026-11-26T10:28',
      undefined,
      '2026-11-25T00:00:00-05:00',
      '2026-11-25T10:28:00-05:00',
    ],
    // Anything else: the equal span just before.
    [
      'the last 30 days',
      '2026-10-27T10:28',
      '2026-11-26T10:28',
      undefined,
      '2026-09-27T10:28:00-04:00',
      '2026-10-27T10:28:00-04:00',
    ],
    [
      'seven whole days not a week',
      '2026-11-19T00:00',
      '2026-11-26T00:00',
      undefined,
      '2026-11-12T00:00:00-05:00',
      '2026-11-19T00:00:00-05:00',
    ],
  ])('%s', (_name, start, end, hint, previousStart, previousEnd) => {
    expect(iso(previousPeriod(window(start, end), hint))).toEqual([previousStart, previousEnd]);
  });

  it('reads a month to date as the month without a hint, and as the quarter with one', () => {
    const w = window('2026-10-01T00:00', '2026-10-15T09:00');
    expect(periodShape(w)).toEqual({ unit: 'month', toDate: true });
    expect(periodShape(w, 'quarter')).toEqual({ unit: 'quarter', toDate: true });
  });

  it('ignores a hint the window does not fit', () => {
    expect(periodShape(window('2026-10-05T00:00', '2026-10-12T00:00'), 'month')).toEqual({
      unit: 'week',
      toDate: false,
    });
  });

  it('keeps the wall clock across the DST change: the week before the end of summer time', () => {
    // Europe/Paris leaves summer time on Sunday Oct 25, 2026: that week is 169 hours long.
    const after = window('2026-11-02T00:00', '2026-11-09T00:00', 'Europe/Paris');
    expect(iso(previousPeriod(after))).toEqual([
      '2026-10-26T00:00:00+01:00',
      '2026-11-02T00:00:00+01:00',
    ]);
    const across = window('2026-10-26T00:00', '2026-11-02T00:00', 'Europe/Paris');
    expect(iso(previousPeriod(across))).toEqual([
      '2026-10-19T00:00:00+02:00',
      '2026-10-26T00:00:00+01:00',
    ]);
  });

  it('keeps the time of day of a day so far on the day summer time begins (DST)', () => {
    // America/New_York springs forward at 02:00 on Sunday Mar 8, 2026.
    const today = window('2026-03-09T00:00', '2026-03-09T10:00');
    expect(iso(previousPeriod(today))).toEqual([
      '2026-03-08T00:00:00-05:00',
      '2026-03-08T10:00:00-04:00',
    ]);
  });
});
