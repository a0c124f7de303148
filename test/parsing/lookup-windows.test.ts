import { describe, expect, it } from 'vitest';
import { failure, lookup, saturday, window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('rule 1: instants', () => {
    it.each([
      ['#x since 2026-11-20T10:00:00+02:00', 'America/New_York', '2026-11-20T03:00:00-05:00'],
      ['#x since 2026-11-20T10:00:00Z', 'Asia/Kolkata', '2026-11-20T15:30:00+05:30'],
      ['#x since 2026-11-20T10:00', 'Asia/Kolkata', '2026-11-20T10:00:00+05:30'],
      ['#x since 2026-11-20 10:00', 'Europe/London', '2026-11-20T10:00:00+00:00'],
      ['#x since 2026-09-01', 'Australia/Sydney', '2026-09-01T00:00:00+10:00'],
      ['#x since 9/1/26', 'UTC', '2026-09-01T00:00:00+00:00'],
      ['#x since 9/1/2026', 'UTC', '2026-09-01T00:00:00+00:00'],
      ['#x since Sep 9', 'UTC', '2026-09-09T00:00:00+00:00'],
      ['#x since September 9, 2026', 'UTC', '2026-09-09T00:00:00+00:00'],
      ['#x since 9 Sep 2026', 'UTC', '2026-09-09T00:00:00+00:00'],
      ['#x since Sep 9 14:05', 'America/New_York', '2026-09-09T14:05:00-04:00'],
      ['#x since 9/1/26 2pm', 'UTC', '2026-09-01T14:00:00+00:00'],
      ['#x since 9 Sep 2026 7:45 am', 'UTC', '2026-09-09T07:45:00+00:00'],
      ['#x since September 9, 2026 at 7:45pm', 'UTC', '2026-09-09T19:45:00+00:00'],
      ['#x since yesterday 14:05', 'UTC', '2026-11-20T14:05:00+00:00'],
      ['#x since monday', 'UTC', '2026-11-16T00:00:00+00:00'],
      ['#x since yesterday', 'UTC', '2026-11-20T00:00:00+00:00'],
      ['#x since today', 'UTC', '2026-11-21T00:00:00+00:00'],
      ['#x since 1763000000', 'UTC', '2025-11-13T02:13:20+00:00'],
      ['#x since 30 minutes ago', 'UTC', '2026-11-21T15:00:00+00:00'],
      ['#x since an hour ago', 'UTC', '2026-11-21T14:30:00+00:00'],
      ['#x since 3 days ago', 'UTC', '2026-11-18T15:30:00+00:00'],
      ['#x since a week ago', 'UTC', '2026-11-14T15:30:00+00:00'],
      ['#x since 2 months ago', 'UTC', '2026-09-21T15:30:00+00:00'],
      ['#x since a year ago', 'UTC', '2025-11-21T15:30:00+00:00'],
    ])('%s in %s starts at %s', (text, zone, start) => {
      expect(lookup(text, zone).start).toBe(start);
    });

    it('keeps the clock time when stepping back whole days across a DST change', () => {
      // 7 calendar days before Monday 2 Nov 2026 10:00 EST is 26 Oct 10:00 EDT: 169 hours.
      expect(window('#x 7 days ago', 'America/New_York', new Date('2026-11-02T15:00:00Z'))).toEqual(
        ['2026-10-26T10:00:00-04:00', '2026-11-02T10:00:00-05:00'],
      );
    });

    it('reads unix seconds only where a range endpoint is expected; elsewhere it is an ID', () => {
      expect(window('#x from 1763000000 to 1763500000')).toEqual([
        '2025-11-13T02:13:20+00:00',
        '2025-11-18T21:06:40+00:00',
      ]);
      expect(lookup('#x 1763000000').databases).toEqual(['#x', '1763000000']);
    });
  });

  describe('rule 2: a date without a time starts at midnight in the zone', () => {
    it('starts "since" at the start of the day and ends a range with the end of its day', () => {
      expect(window('#x from Sep 1 to Sep 8')).toEqual([
        '2026-09-01T00:00:00+00:00',
        '2026-09-09T00:00:00+00:00',
      ]);
    });

    it.each(['through', 'thru'])('reads "%s" as "to"', (word) => {
      expect(window(`#x Sep 1 ${word} Sep 8`, 'Europe/London')).toEqual([
        '2026-09-01T00:00:00+01:00',
        '2026-09-09T00:00:00+01:00',
      ]);
    });
  });

  describe('rule 4: periods', () => {
    it.each([
      ['today', '2026-11-21T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['yesterday', '2026-11-20T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
      ['this week', '2026-11-16T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['last week', '2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
      ['this month', '2026-11-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['last month', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ['this quarter', '2026-10-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['last quarter', '2026-07-01T00:00:00+00:00', '2026-10-01T00:00:00+00:00'],
      ['Q1', '2026-01-01T00:00:00+00:00', '2026-04-01T00:00:00+00:00'],
      ['Q2 2025', '2025-04-01T00:00:00+00:00', '2025-07-01T00:00:00+00:00'],
      ['q4', '2026-10-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['this year', '2026-01-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['ytd', '2026-01-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['year to date', '2026-01-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['last year', '2025-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00'],
      ['last 7 days', '2026-11-14T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['past 48 hours', '2026-11-19T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['last 2 weeks', '2026-11-07T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['past 3 months', '2026-08-21T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['last 90 minutes', '2026-11-21T14:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['48h', '2026-11-19T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['10d', '2026-11-11T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['3w', '2026-10-31T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['2026-11-03', '2026-11-03T00:00:00+00:00', '2026-11-04T00:00:00+00:00'],
      ['Sep 9', '2026-09-09T00:00:00+00:00', '2026-09-10T00:00:00+00:00'],
      ['wednesday', '2026-11-18T00:00:00+00:00', '2026-11-19T00:00:00+00:00'],
      ['September', '2026-09-01T00:00:00+00:00', '2026-10-01T00:00:00+00:00'],
      ['September 2025', '2025-09-01T00:00:00+00:00', '2025-10-01T00:00:00+00:00'],
    ])('reads "%s" as %s to %s', (phrase, start, end) => {
      expect(window(`#x ${phrase}`)).toEqual([start, end]);
    });

    it('starts ISO weeks on Monday in the zone, not in UTC', () => {
      // Monday 16 Nov 00:30 in Sydney is still Sunday in UTC.
      expect(window('#x this week', 'Australia/Sydney', new Date('2026-11-15T13:30:00Z'))).toEqual([
        '2026-11-16T00:00:00+11:00',
        '2026-11-16T00:30:00+11:00',
      ]);
    });
  });

  describe('rule 5: past bias', () => {
    it.each([
      ['December', '2025-12-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00'],
      ['November', '2026-11-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['Nov 3', '2026-11-03T00:00:00+00:00', '2026-11-04T00:00:00+00:00'],
      ['Dec 3', '2025-12-03T00:00:00+00:00', '2025-12-04T00:00:00+00:00'],
      ['12/25', '2025-12-25T00:00:00+00:00', '2025-12-26T00:00:00+00:00'],
      ['friday', '2026-11-20T00:00:00+00:00', '2026-11-21T00:00:00+00:00'],
      ['saturday', '2026-11-21T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['sunday', '2026-11-15T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
      ['Q4', '2026-10-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['Feb 29', '2024-02-29T00:00:00+00:00', '2024-03-01T00:00:00+00:00'],
    ])(
      'on Saturday 21 Nov 2026 reads "%s" as the most recent one that has started',
      (phrase, start, end) => {
        expect(window(`#x ${phrase}`)).toEqual([start, end]);
      },
    );

    it('applies past bias in the zone: Friday evening in New York is already Saturday in Kolkata', () => {
      const fridayEvening = new Date('2026-11-21T01:00:00Z');
      expect(window('#x saturday', 'Asia/Kolkata', fridayEvening)[0]).toBe(
        '2026-11-21T00:00:00+05:30',
      );
      expect(window('#x saturday', 'America/New_York', fridayEvening)[0]).toBe(
        '2026-11-14T00:00:00-05:00',
      );
    });
  });

  describe('rule 6: clamping and impossible windows', () => {
    it('clamps an end after now to now', () => {
      expect(window('#x from Nov 1 to Dec 31 2026')).toEqual([
        '2026-11-01T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ]);
      expect(window('#x Nov 21 through Nov 22 2026')[1]).toBe('2026-11-21T15:30:00+00:00');
    });

    it.each([
      ['#x tomorrow', 'future_start'],
      ['#x since 2027-01-01', 'future_start'],
      ['#x next week', 'future_start'],
      ['#x from Sep 8 2026 to Sep 1 2026', 'inverted_window'],
      ['#x 2026-09-08 to 2026-09-01', 'inverted_window'],
      ['#x 9/8/2026 through 9/1/2026', 'inverted_window'],
      ['#x from 9am to 9am', 'empty_window'],
      ['#x now', 'empty_window'],
      ['#x since now', 'empty_window'],
    ])('refuses %s with %s', (text, reason) => {
      expect(failure(text).reason).toBe(reason);
    });

    it('refuses "today" at the zone midnight as empty', () => {
      expect(failure('#x today', 'Asia/Kolkata', new Date('2026-11-20T18:30:00Z')).reason).toBe(
        'empty_window',
      );
    });
  });

  describe('rule 7: the default window', () => {
    it('is the last 7 days when the text names no time', () => {
      expect(window('#x', 'Europe/London')).toEqual([
        '2026-11-14T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ]);
    });

    it('follows the configured number of days and top', () => {
      const r = lookup('#x', 'UTC', saturday, { windowDays: 30, top: 25 });
      expect([r.start, r.top]).toEqual(['2026-10-22T15:30:00+00:00', 25]);
    });

    it('counts calendar days in the zone across a DST change', () => {
      expect(window('#x', 'Europe/London', new Date('2026-10-27T12:00:00Z'))).toEqual([
        '2026-10-20T12:00:00+01:00',
        '2026-10-27T12:00:00+00:00',
      ]);
    });
  });
});
