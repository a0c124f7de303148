import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { periodSpan, recentPeriods, trendPeriods } from '../../src/time/periods.ts';

const now = new Date('2026-11-21T15:00:00Z');
const newYork = 'America/New_York';

const at = (iso: string, zone = newYork) => DateTime.fromISO(iso, { zone });

describe('recentPeriods', () => {
  it('gives the current ISO week so far and the seven before it for 8 weeks', () => {
    const weeks = recentPeriods('week', 8, now, newYork);
    expect(weeks.map((week) => week.start)).toEqual([
      '2026-09-28T00:00:00-04:00',
      '2026-10-05T00:00:00-04:00',
      '2026-10-12T00:00:00-04:00',
      '2026-10-19T00:00:00-04:00',
      '2026-10-26T00:00:00-04:00',
      '2026-11-02T00:00:00-05:00',
      '2026-11-09T00:00:00-05:00',
      '2026-11-16T00:00:00-05:00',
    ]);
    expect(weeks.at(-1)).toEqual({
      start: '2026-11-16T00:00:00-05:00',
      end: '2026-11-21T10:00:00-05:00',
      partial: true,
    });
    expect(weeks.slice(0, -1).every((week) => !week.partial)).toBe(true);
    // Each period ends where the next begins.
    for (let i = 1; i < weeks.length; i++) expect(weeks[i]?.start).toBe(weeks[i - 1]?.end);
  });

  it('ends the current period at the minute, so a repeat within it asks the same', () => {
    const later = new Date('2026-11-21T15:00:59.900Z');
    expect(recentPeriods('day', 3, later, newYork)).toEqual(recentPeriods('day', 3, now, newYork));
  });

  it('leaves out a period that has not run a minute yet: on Monday at 00:00:30 the weeks are whole', () => {
    const monday = at('2026-11-23T00:00:30').toJSDate();
    const weeks = recentPeriods('week', 8, monday, newYork);
    expect(weeks).toHaveLength(8);
    expect(weeks.at(-1)).toEqual({
      start: '2026-11-16T00:00:00-05:00',
      end: '2026-11-23T00:00:00-05:00',
      partial: false,
    });
  });

  it('gives the DST day in New York its 25 hours', () => {
    const days = recentPeriods('day', 3, at('2026-11-02T12:00:00').toJSDate(), newYork);
    expect(days[1]).toEqual({
      start: '2026-11-01T00:00:00-04:00',
      end: '2026-11-02T00:00:00-05:00',
      partial: false,
    });
  });

  it('starts a day at 01:00 where the zone skips its midnight (Santiago, DST begins)', () => {
    const zone = 'America/Santiago';
    const days = recentPeriods('day', 4, at('2026-09-08T12:00:00', zone).toJSDate(), zone);
    expect(days.map((day) => day.start)).toEqual([
      '2026-09-05T00:00:00-04:00',
      '2026-09-06T01:00:00-03:00',
      '2026-09-07T00:00:00-03:00',
      '2026-09-08T00:00:00-03:00',
    ]);
  });

  it('gives calendar months in the zone, the current one so far', () => {
    expect(recentPeriods('month', 3, now, 'Europe/Paris')).toEqual([
      { start: '2026-09-01T00:00:00+02:00', end: '2026-10-01T00:00:00+02:00', partial: false },
      { start: '2026-10-01T00:00:00+02:00', end: '2026-11-01T00:00:00+01:00', partial: false },
      { start: '2026-11-01T00:00:00+01:00', end: '2026-11-21T16:00:00+01:00', partial: true },
    ]);
  });
});

describe('periodSpan', () => {
  const zoned = at('2026-11-21T10:00:00');

  it('holds the units that begin within a calendar window, whole, even past its end', () => {
    // October 2026: Thursday 1 to Saturday 31; its ISO weeks begin on the 5th, 12th, 19th, 26th.
    const span = periodSpan(
      { start: at('2026-10-01T00:00:00'), end: at('2026-11-01T00:00:00') },
      'week',
      zoned,
    );
    expect(span.count).toBe(4);
    expect(span.start.toISO()).toBe('2026-10-05T00:00:00.000-04:00');
    expect(span.end.toISO()).toBe('2026-11-02T00:00:00.000-05:00');
  });

  it('holds no period when no unit begins within the window', () => {
    const span = periodSpan(
      { start: at('2026-11-17T00:00:00'), end: at('2026-11-21T10:00:00') },
      'week',
      zoned,
    );
    expect(span.count).toBe(0);
  });

  it('stops counting one past the most periods a trend may hold', () => {
    const span = periodSpan(
      { start: at('2025-11-21T00:00:00'), end: at('2026-11-21T10:00:00') },
      'day',
      zoned,
    );
    expect(span.count).toBe(21);
  });
});

describe('trendPeriods', () => {
  it('reads the periods back from the window a trend asks for', () => {
    const periods = trendPeriods(
      { start: '2026-10-05T00:00:00-04:00', end: '2026-11-02T00:00:00-05:00', timezone: newYork },
      'week',
    );
    expect(periods).toHaveLength(4);
    expect(periods.every((period) => !period.partial)).toBe(true);
    expect(periods.at(-1)?.end).toBe('2026-11-02T00:00:00-05:00');
  });

  it('holds at most 20 periods, and none for an unreadable zone', () => {
    const year = { start: '2026-01-01T00:00:00+00:00', end: '2026-11-01T00:00:00+00:00' };
    expect(trendPeriods({ ...year, timezone: 'UTC' }, 'day')).toHaveLength(20);
    expect(trendPeriods({ ...year, timezone: 'Not/AZone' }, 'day')).toEqual([]);
  });
});
