import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { type LookupRequest, type ParseContext, parseLookup } from '../../src/parsing/index.ts';

/** Saturday 21 Nov 2026, 15:30 UTC: the reference instant. */
const saturday = new Date('2026-11-21T15:30:00Z');

function lookup(
  text: string,
  zone = 'UTC',
  now = saturday,
  defaults?: ParseContext['defaults'],
): LookupRequest {
  const result = parseLookup(
    text,
    defaults === undefined ? { now, zone } : { now, zone, defaults },
  );
  if (result instanceof ParseError)
    throw new Error(`expected a request for "${text}", got: ${result.message}`);
  return result;
}

function failure(text: string, zone = 'UTC', now = saturday): ParseError {
  const result = parseLookup(text, { now, zone });
  if (!(result instanceof ParseError))
    throw new Error(`expected an error for "${text}", got ${JSON.stringify(result)}`);
  return result;
}

const window = (text: string, zone = 'UTC', now = saturday): [string, string] => {
  const r = lookup(text, zone, now);
  return [r.start, r.end];
};

describe('parseLookup', () => {
  describe('the examples of the command grammar', () => {
    it.each([
      [
        '#pharma past 48 hours',
        'UTC',
        ['#pharma'],
        '2026-11-19T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
        'UTC',
      ],
      [
        '"rare disease", group:12 since Oct 3',
        'UTC',
        ['rare disease', 'group:12'],
        '2026-10-03T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
        'UTC',
      ],
      [
        '#x from 2026-09-01 to 2026-09-08 tz Asia/Tokyo',
        'UTC',
        ['#x'],
        '2026-09-01T00:00:00+09:00',
        '2026-09-08T00:00:00+09:00',
        'Asia/Tokyo',
      ],
      [
        '#x last quarter',
        'America/Chicago',
        ['#x'],
        '2026-07-01T00:00:00-05:00',
        '2026-10-01T00:00:00-05:00',
        'America/Chicago',
      ],
      [
        '#x tuesday',
        'UTC',
        ['#x'],
        '2026-11-17T00:00:00+00:00',
        '2026-11-18T00:00:00+00:00',
        'UTC',
      ],
    ])('reads %s (%s)', (text, zone, databases, start, end, timezone) => {
      expect(lookup(text, zone)).toEqual({ databases, start, end, timezone, top: 10 });
    });
  });

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

  describe('rule 2: a date without a time is midnight in the zone', () => {
    it('ends "to" at the start of the end date, excluding it', () => {
      expect(window('#x from Sep 1 to Sep 8')).toEqual([
        '2026-09-01T00:00:00+00:00',
        '2026-09-08T00:00:00+00:00',
      ]);
    });

    it.each(['through', 'thru'])('makes the end date inclusive with "%s"', (word) => {
      expect(window(`#x Sep 1 ${word} Sep 8`, 'Europe/London')).toEqual([
        '2026-09-01T00:00:00+01:00',
        '2026-09-09T00:00:00+01:00',
      ]);
    });
  });

  describe('rule 3: ranges', () => {
    it.each([
      ['#x 2026-09-01 to 2026-09-08'],
      ['#x from 2026-09-01 to 2026-09-08'],
      ['#x 2026-09-01 - 2026-09-08'],
      ['#x 2026-09-01 – 2026-09-08'],
      ['#x 2026-09-01–2026-09-08'],
      ['#x between 2026-09-01 and 2026-09-08'],
      ['#x from 2026-09-01 until 2026-09-08'],
    ])('reads %s as Sep 1 to Sep 8', (text) => {
      expect(window(text, 'Asia/Kolkata')).toEqual([
        '2026-09-01T00:00:00+05:30',
        '2026-09-08T00:00:00+05:30',
      ]);
    });

    it('reads "since A" and a bare "N unit ago" as A to now', () => {
      expect(window('#x since Oct 3')).toEqual([
        '2026-10-03T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ]);
      expect(window('#x 2 weeks ago')).toEqual([
        '2026-11-07T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ]);
      expect(window('#x 2 weeks ago to now')).toEqual([
        '2026-11-07T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ]);
    });

    it('reads a range of times of day as the same day', () => {
      expect(window('#x from 9am to 11am')).toEqual([
        '2026-11-21T09:00:00+00:00',
        '2026-11-21T11:00:00+00:00',
      ]);
      expect(window('#x from 10pm to 2am')).toEqual([
        '2026-11-20T22:00:00+00:00',
        '2026-11-21T02:00:00+00:00',
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

  describe('rule 5 at the end of a range: read forward from the start', () => {
    it.each([
      [
        'Nov 15 to Dec 5',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-11-15T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        'Nov 15 to Dec 5',
        'Asia/Kolkata',
        '2026-12-10T06:30:00Z',
        '2026-11-15T00:00:00+05:30',
        '2026-12-05T00:00:00+05:30',
      ],
      [
        'Dec 20 to Jan 5',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2025-12-20T00:00:00+00:00',
        '2026-01-05T00:00:00+00:00',
      ],
      [
        'Dec 20 to Jan 5',
        'Europe/London',
        '2026-01-02T12:00:00Z',
        '2025-12-20T00:00:00+00:00',
        '2026-01-02T12:00:00+00:00',
      ],
      [
        'between Dec 20 and Jan 5',
        'Asia/Kolkata',
        '2026-01-02T12:00:00Z',
        '2025-12-20T00:00:00+05:30',
        '2026-01-02T17:30:00+05:30',
      ],
      [
        'Dec 20 10am - Jan 5 2pm',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2025-12-20T10:00:00+00:00',
        '2026-01-05T14:00:00+00:00',
      ],
      [
        'Oct 20 to Nov 5 (across the US fall-back)',
        'America/New_York',
        '2026-11-02T15:00:00Z',
        '2026-10-20T00:00:00-04:00',
        '2026-11-02T10:00:00-05:00',
      ],
      [
        'Mar 30 through Apr 9 (across the end of Sydney DST)',
        'Australia/Sydney',
        '2026-04-06T02:00:00Z',
        '2026-03-30T00:00:00+11:00',
        '2026-04-06T12:00:00+10:00',
      ],
      [
        'friday to monday',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-11-20T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        'friday to monday',
        'America/New_York',
        '2026-11-24T15:00:00Z',
        '2026-11-20T00:00:00-05:00',
        '2026-11-23T00:00:00-05:00',
      ],
      [
        'friday to monday (across the end of Sydney DST)',
        'Australia/Sydney',
        '2026-04-06T02:00:00Z',
        '2026-04-03T00:00:00+11:00',
        '2026-04-06T00:00:00+10:00',
      ],
      [
        'friday through friday',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-11-20T00:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ],
      [
        'December through February',
        'Europe/London',
        '2026-11-21T15:30:00Z',
        '2025-12-01T00:00:00+00:00',
        '2026-03-01T00:00:00+00:00',
      ],
      [
        'Nov 15 through November',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-11-15T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        'Q4 2024 through Q1',
        'Europe/London',
        '2026-11-21T15:30:00Z',
        '2024-10-01T00:00:00+01:00',
        '2025-04-01T00:00:00+01:00',
      ],
      [
        'Sep 8 2024 to Sep 1',
        'Asia/Kolkata',
        '2026-11-21T15:30:00Z',
        '2024-09-08T00:00:00+05:30',
        '2025-09-01T00:00:00+05:30',
      ],
      [
        '2 weeks ago to Dec 5',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-11-07T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        'from Sep 8 to Sep 1',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-09-08T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
    ])('reads "%s" in %s at %s as %s to %s', (phrase, zone, now, start, end) => {
      const text = `#x ${phrase.split(' (')[0] as string}`;
      expect(window(text, zone, new Date(now))).toEqual([start, end]);
    });

    it('keeps the past bias of the start', () => {
      expect(window('#x Dec 5 to Dec 20')).toEqual([
        '2025-12-05T00:00:00+00:00',
        '2025-12-20T00:00:00+00:00',
      ]);
    });

    it('leaves explicit years and words tied to today where they are', () => {
      expect(failure('#x Sep 8 to Sep 1 2026').reason).toBe('inverted_window');
      expect(window('#x Sep 8 2025 to Sep 1 2026')).toEqual([
        '2025-09-08T00:00:00+00:00',
        '2026-09-01T00:00:00+00:00',
      ]);
      expect(failure('#x saturday to last monday').reason).toBe('inverted_window');
      expect(failure('#x today to yesterday').reason).toBe('inverted_window');
    });

    it('refuses an end on the same day, month or quarter as the start as empty', () => {
      expect(failure('#x Nov 15 to Nov 15').reason).toBe('empty_window');
      expect(failure('#x friday to friday').reason).toBe('empty_window');
      expect(failure('#x Q3 to Q3').reason).toBe('empty_window');
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
      ['#x from 2026-09-08 to 2026-09-08', 'empty_window'],
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

  describe('rule 8: DST', () => {
    it.each([
      [
        'yesterday on the Monday after the US fall-back is 25 hours',
        'America/New_York',
        '2026-11-02T15:00:00Z',
        '2026-11-01T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
      ],
      [
        'yesterday on the Monday after the US spring-forward is 23 hours',
        'America/New_York',
        '2026-03-09T15:00:00Z',
        '2026-03-08T00:00:00-05:00',
        '2026-03-09T00:00:00-04:00',
      ],
      [
        'yesterday on the Monday after the UK clocks go forward is 23 hours',
        'Europe/London',
        '2026-03-30T12:00:00Z',
        '2026-03-29T00:00:00+00:00',
        '2026-03-30T00:00:00+01:00',
      ],
      [
        'yesterday on the Monday after the UK clocks go back is 25 hours',
        'Europe/London',
        '2026-10-26T12:00:00Z',
        '2026-10-25T00:00:00+01:00',
        '2026-10-26T00:00:00+00:00',
      ],
      [
        'yesterday on the Monday after Sydney DST ends is 25 hours',
        'Australia/Sydney',
        '2026-04-06T02:00:00Z',
        '2026-04-05T00:00:00+11:00',
        '2026-04-06T00:00:00+10:00',
      ],
      [
        'yesterday on the Monday after Sydney DST starts is 23 hours',
        'Australia/Sydney',
        '2026-10-05T02:00:00Z',
        '2026-10-04T00:00:00+10:00',
        '2026-10-05T00:00:00+11:00',
      ],
      [
        'last week across the US fall-back starts and ends at local midnight',
        'America/New_York',
        '2026-11-04T15:00:00Z',
        '2026-10-26T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
      ],
      [
        'past 48 hours across the US fall-back is exactly 48 hours',
        'America/New_York',
        '2026-11-02T15:00:00Z',
        '2026-10-31T11:00:00-04:00',
        '2026-11-02T10:00:00-05:00',
      ],
      [
        'yesterday in Kolkata (no DST) is 24 hours at +05:30',
        'Asia/Kolkata',
        '2026-11-02T15:00:00Z',
        '2026-11-01T00:00:00+05:30',
        '2026-11-02T00:00:00+05:30',
      ],
    ])('%s', (title, zone, now, start, end) => {
      const phrase = title
        .split(' on the ')[0]
        ?.split(' across ')[0]
        ?.split(' in Kolkata')[0] as string;
      expect(window(`#x ${phrase}`, zone, new Date(now))).toEqual([start, end]);
    });

    it('moves a wall-clock time in the spring-forward gap forward, as luxon does', () => {
      expect(
        window(
          '#x since 2026-03-08 2:30am',
          'America/New_York',
          new Date('2026-03-09T15:00:00Z'),
        )[0],
      ).toBe('2026-03-08T03:30:00-04:00');
    });
  });

  describe('databases', () => {
    it('keeps order and case, drops exact duplicates, joins plain words into one phrase', () => {
      expect(
        lookup('#HCSM breast cancer, 4711 group:Oncology "patient safety", #HCSM #hcsm last week')
          .databases,
      ).toEqual(['#HCSM', 'breast cancer', '4711', 'group:Oncology', 'patient safety', '#hcsm']);
    });

    it('reads groups by ID, name and quoted name, with the keyword in any case', () => {
      expect(lookup('group:12 GROUP:Oncology Group:"Rare  Diseases"').databases).toEqual([
        'group:12',
        'group:Oncology',
        'group:Rare Diseases',
      ]);
    });

    it('accepts Unicode hashtags', () => {
      expect(lookup('#santé #日本 #x_1').databases).toEqual(['#santé', '#日本', '#x_1']);
    });

    it('leaves time-like words inside quotes alone', () => {
      expect(lookup('"today show" "last week tonight"').databases).toEqual([
        'today show',
        'last week tonight',
      ]);
    });

    it('refuses abbreviations of days and months in an unquoted phrase, and reads them as times where something marks them', () => {
      expect(failure('sun safety').message).toBe(
        'I can\'t read “sun safety”: “sun” is a word I read as a time, a schedule or an option, and it makes none here. If “sun safety” is a database, put it in quotes: "sun safety". Try: /influencers "sun safety" last week',
      );
      expect(lookup('"sun safety"').databases).toEqual(['sun safety']);
      expect(window('#x on sun')).toEqual([
        '2026-11-15T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
      ]);
    });

    it.each([
      ['type 2 diabetes last week', ['type 2 diabetes']],
      ['covid 19 vaccine', ['covid 19 vaccine']],
      ['stage 4 breast cancer, #bcsm', ['stage 4 breast cancer', '#bcsm']],
      ['covid 19 2024 booster', ['covid 19 2024 booster']],
      ['vaccine 1763000000 trial', ['vaccine 1763000000 trial']],
      ['tweets 2 doctors', ['tweets 2 doctors']],
      ['type 2 diabetes 2 weeks ago', ['type 2 diabetes']],
    ])('joins a number between two words of a phrase into it: %s', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it.each([
      ['4711', ['4711']],
      ['#hcsm 4711', ['#hcsm', '4711']],
      ['4711, #hcsm', ['4711', '#hcsm']],
      ['breast cancer, 4711', ['breast cancer', '4711']],
      ['cancer 4711', ['cancer', '4711']],
      ['4711 cancer', ['4711', 'cancer']],
      ['type 2 last week', ['type', '2']],
      ['covid 19 in Europe/Paris', ['covid', '19']],
      ['type 2, diabetes', ['type', '2', 'diabetes']],
      ['type 2 "diabetes"', ['type', '2', 'diabetes']],
      ['#hcsm 2 diabetes', ['#hcsm', '2', 'diabetes']],
      ['type 2 diabetes 4711 #x', ['type 2 diabetes', '4711', '#x']],
      ['"type 2" last week', ['type 2']],
    ])('keeps a number at the edge of a phrase or alone as an ID: %s', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it('counts the numbers split off a phrase towards the maximum, naming the one over it', () => {
      expect(
        parseLookup('#a #b breast cancer 4711', {
          now: saturday,
          zone: 'UTC',
          defaults: { maxDatabases: 3 },
        }),
      ).toMatchObject({ reason: 'too_many_databases', fragment: '4711' });
    });

    it('refuses "to" and "from" in an unquoted phrase and takes them in quotes', () => {
      expect(failure('access to care, tweets from doctors')).toMatchObject({
        reason: 'unrecognised',
        fragment: 'access to care',
      });
      expect(failure('#x tweets from doctors').fragment).toBe('tweets from doctors');
      expect(lookup('"access to care", "tweets from doctors"').databases).toEqual([
        'access to care',
        'tweets from doctors',
      ]);
    });

    it('allows the configured maximum and no more', () => {
      expect(lookup('#a #b #c', 'UTC', saturday, { maxDatabases: 3 }).databases).toHaveLength(3);
      expect(
        parseLookup('#a #b #c #d', { now: saturday, zone: 'UTC', defaults: { maxDatabases: 3 } }),
      ).toMatchObject({
        reason: 'too_many_databases',
        fragment: '#d',
      });
    });
  });

  describe('options', () => {
    it.each([
      ['#x in europe/paris', 'Europe/Paris'],
      ['#x tz Asia/Kolkata', 'Asia/Kolkata'],
      ['#x tz:america/new_york', 'America/New_York'],
      ['#x TIMEZONE Australia/Sydney', 'Australia/Sydney'],
      ['#x in UTC', 'UTC'],
      ['#x tz asia/calcutta', 'Asia/Kolkata'],
      ['#x tz US/Eastern', 'America/New_York'],
    ])('reads the zone in %s as %s', (text, zone) => {
      expect(lookup(text, 'Europe/London').timezone).toBe(zone);
    });

    it('uses the caller zone without an option, and UTC when the caller has none', () => {
      expect(lookup('#x', 'asia/kolkata').timezone).toBe('Asia/Kolkata');
      expect(lookup('#x', '').timezone).toBe('UTC');
    });

    it('evaluates the window in a zone named after it', () => {
      expect(window('#x yesterday in America/New_York')).toEqual([
        '2026-11-20T00:00:00-05:00',
        '2026-11-21T00:00:00-05:00',
      ]);
    });

    it.each([
      ['#x top 1', 1],
      ['#x top 50', 50],
      ['#x LIMIT 20', 20],
      ['#x top:7', 7],
      ['#x', 10],
    ])('reads %s as top %i', (text, top) => {
      expect(lookup(text).top).toBe(top);
    });
  });

  describe('Slack input', () => {
    it.each([
      ['&lt;#C0123ABC|hcsm&gt;', ['#hcsm']],
      ['<#C0123ABC|hcsm> <#C0456|bcsm>', ['#hcsm', '#bcsm']],
      ['“patient safety”, ‘rare disease’', ['patient safety', 'rare disease']],
      ['"women’s health"', ["women's health"]],
      ['A&amp;E waits', ['A&E waits']],
      ['  #hcsm\u00a0\u00a0  #bcsm  ', ['#hcsm', '#bcsm']],
    ])('reads %s', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it('matches keywords in any case but keeps the case of names', () => {
      expect(lookup('Breast Cancer LAST WEEK In EUROPE/LONDON TOP 5')).toEqual({
        databases: ['Breast Cancer'],
        start: '2026-11-09T00:00:00+00:00',
        end: '2026-11-16T00:00:00+00:00',
        timezone: 'Europe/London',
        top: 5,
      });
    });
  });

  describe('errors', () => {
    it.each([
      [
        '',
        'empty',
        undefined,
        'The command is empty: name at least one database (a #hashtag, a "quoted phrase", an ID or group:<name>) and, if you like, a time. Try: /influencers #hcsm last week',
      ],
      [
        ' , ',
        'empty',
        undefined,
        'The command is empty: name at least one database (a #hashtag, a "quoted phrase", an ID or group:<name>) and, if you like, a time. Try: /influencers #hcsm last week',
      ],
      [
        'last week',
        'no_database',
        'last week',
        'No database in “last week”: name at least one #hashtag, "quoted phrase", ID or group:<name>. Try: /influencers #hcsm last week',
      ],
      [
        '#a #b #c #d #e #f #g #h #i #j #k',
        'too_many_databases',
        '#k',
        'Too many databases: 11 given, at most 10 per request (“#k” is one too many). Try: /influencers #hcsm, #bcsm last week',
      ],
      [
        '#x tz Mars/Base',
        'unknown_zone',
        'Mars/Base',
        'Unknown time zone “Mars/Base”: use an IANA name such as Europe/London or America/New_York, or UTC. Try: /influencers #hcsm last week in Europe/London',
      ],
      [
        '#x in Europe/Pariss',
        'unknown_zone',
        'Europe/Pariss',
        'Unknown time zone “Europe/Pariss”: use an IANA name such as Europe/London or America/New_York, or UTC. Try: /influencers #hcsm last week in Europe/London',
      ],
      [
        '#x since 9am EST',
        'unknown_zone',
        'EST',
        'Unknown time zone “EST”: use an IANA name such as Europe/London or America/New_York, or UTC. Try: /influencers #hcsm last week in Europe/London',
      ],
      [
        '#x tz',
        'unknown_zone',
        'tz',
        '“tz” needs a time zone after it, such as Europe/London or UTC. Try: /influencers #hcsm last week tz Europe/London',
      ],
      [
        '#x top 0',
        'bad_top',
        'top 0',
        '“top 0” is not a valid count: top and limit take a whole number from 1 to 50. Try: /influencers #hcsm last week top 20',
      ],
      [
        '#x top 51',
        'bad_top',
        'top 51',
        '“top 51” is not a valid count: top and limit take a whole number from 1 to 50. Try: /influencers #hcsm last week top 20',
      ],
      [
        '#x limit ten',
        'bad_top',
        'limit ten',
        '“limit ten” is not a valid count: top and limit take a whole number from 1 to 50. Try: /influencers #hcsm last week top 20',
      ],
      [
        '#x top',
        'bad_top',
        'top',
        '“top” is not a valid count: top and limit take a whole number from 1 to 50. Try: /influencers #hcsm last week top 20',
      ],
      [
        '#x yesterdy',
        'bad_time',
        'yesterdy',
        "I can't read “yesterdy” as a time. Dates look like 2026-09-01, 9/1/26 or Sep 1; windows like yesterday, last week, last 7 days or 2 weeks ago. Try: /influencers #hcsm since Sep 1",
      ],
      [
        '#x lst week',
        'bad_time',
        'lst week',
        "I can't read “lst week” as a time. Dates look like 2026-09-01, 9/1/26 or Sep 1; windows like yesterday, last week, last 7 days or 2 weeks ago. Try: /influencers #hcsm since Sep 1",
      ],
      [
        '#x 2 wekks ago',
        'bad_time',
        '2 wekks ago',
        "I can't read “2 wekks ago” as a time. Dates look like 2026-09-01, 9/1/26 or Sep 1; windows like yesterday, last week, last 7 days or 2 weeks ago. Try: /influencers #hcsm since Sep 1",
      ],
      [
        '#x since whenever',
        'bad_time',
        'since whenever',
        "I can't read “since whenever” as a time. Dates look like 2026-09-01, 9/1/26 or Sep 1; windows like yesterday, last week, last 7 days or 2 weeks ago. Try: /influencers #hcsm since Sep 1",
      ],
      [
        '#x 2026-13-45',
        'bad_time',
        '2026-13-45',
        '“2026-13-45” is not a real date or time. Try: /influencers #hcsm from 2026-09-01 to 2026-09-08',
      ],
      [
        '#x 32/11/26',
        'bad_time',
        '32/11/26',
        '“32/11/26” is not a real date or time. Try: /influencers #hcsm from 2026-09-01 to 2026-09-08',
      ],
      [
        '#x Feb 30',
        'bad_time',
        'Feb 30',
        '“Feb 30” is not a real date or time. Try: /influencers #hcsm from 2026-09-01 to 2026-09-08',
      ],
      [
        '#x since 25:00',
        'bad_time',
        '25:00',
        '“25:00” is not a real date or time. Try: /influencers #hcsm from 2026-09-01 to 2026-09-08',
      ],
      [
        '#x 01.09.2026',
        'bad_time',
        '01.09.2026',
        "“01.09.2026” is a date format I don't read. Write dates as 2026-09-01, 9/1/2026, Sep 1 or 1 Sep 2026, and ranges of days as Sep 1-8. Try: /influencers #hcsm from 2026-09-01 to 2026-09-08",
      ],
      [
        '#x 1-8 Sep',
        'bad_time',
        '1-8 Sep',
        "“1-8 Sep” is a date format I don't read. Write dates as 2026-09-01, 9/1/2026, Sep 1 or 1 Sep 2026, and ranges of days as Sep 1-8. Try: /influencers #hcsm from 2026-09-01 to 2026-09-08",
      ],
      [
        '#x since 1790000000000',
        'bad_time',
        'since 1790000000000',
        '“since 1790000000000” looks like a unix time in milliseconds: unix times here are seconds, 9 to 11 digits (drop the last three digits). Try: /influencers #hcsm since 1790000000',
      ],
      [
        '#x 1790000000000 to 1791000000000',
        'bad_time',
        '1790000000000',
        '“1790000000000” looks like a unix time in milliseconds: unix times here are seconds, 9 to 11 digits (drop the last three digits). Try: /influencers #hcsm since 1790000000',
      ],
      [
        '#x yesterday 3pm',
        'bad_time',
        'yesterday 3pm',
        '“yesterday 3pm” is a single moment, not a window: say where it starts or ends. Try: /influencers #hcsm since yesterday 3pm',
      ],
      [
        '#x last week yesterday',
        'bad_time',
        'yesterday',
        'Two time windows given, “last week” and “yesterday”: give one, or join them with "to". Try: /influencers #hcsm from Sep 1 to Sep 8',
      ],
      [
        '#x last 99999 years',
        'bad_time',
        'last 99999 years',
        '“last 99999 years” reaches outside the years 1 to 9999. Try: /influencers #hcsm last week',
      ],
      [
        '#x now',
        'empty_window',
        'now',
        'The window “now” is empty: it starts and ends at 2026-11-21T15:30:00+00:00. Try: /influencers #hcsm last week',
      ],
      [
        '#x from Sep 8 2026 to Sep 1 2026',
        'inverted_window',
        'from Sep 8 2026 to Sep 1 2026',
        'The window “from Sep 8 2026 to Sep 1 2026” ends before it starts (2026-09-08T00:00:00+00:00 to 2026-09-01T00:00:00+00:00): put the earlier time first. Try: /influencers #hcsm from Sep 1 to Sep 8',
      ],
      [
        '#x friday 3pm to friday',
        'inverted_window',
        'friday 3pm to friday',
        'The window “friday 3pm to friday” ends before it starts (2026-11-20T15:00:00+00:00 to 2026-11-20T00:00:00+00:00): put the earlier time first. Try: /influencers #hcsm from Sep 1 to Sep 8',
      ],
      [
        '#x tomorrow',
        'future_start',
        'tomorrow',
        'The window “tomorrow” starts in the future (2026-11-22T00:00:00+00:00): there is no data yet. Try: /influencers #hcsm yesterday',
      ],
      [
        '#x <@U123|ann>',
        'unrecognised',
        '<@U123|ann>',
        "I don't understand “<@U123|ann>”: mentions and links are not databases. Try: /influencers #hcsm last week",
      ],
      [
        '#x <#C0123|>',
        'unrecognised',
        '<#C0123|>',
        "I don't understand “<#C0123|>”: Slack sent a channel without its name; type the hashtag as #name. Try: /influencers #hcsm last week",
      ],
      [
        '#x - #y',
        'unrecognised',
        '-',
        "I don't understand “-”: a dash only joins two times, as in Sep 1 - Sep 8. Try: /influencers #hcsm last week",
      ],
      [
        '#foo-bar',
        'unrecognised',
        '#foo-bar',
        "I don't understand “#foo-bar”: a hashtag is # followed by letters, digits or underscores; quote a phrase instead. Try: /influencers #hcsm last week",
      ],
      [
        '#x ???',
        'unrecognised',
        '???',
        "I don't understand “???”: it is neither a database nor a time. Try: /influencers #hcsm last week",
      ],
      [
        '#x ""',
        'unrecognised',
        '""',
        'I don\'t understand “""”: the quotes are empty. Try: /influencers #hcsm last week',
      ],
      [
        '"patient safety',
        'unrecognised',
        '"patient safety',
        'The quote in “"patient safety” is never closed: end a phrase with a second quote. Try: /influencers "patient safety" last week',
      ],
      [
        '#x top 5 limit 6',
        'unrecognised',
        'limit 6',
        'The number of results is given twice (again in “limit 6”): give it once. Try: /influencers #hcsm last week',
      ],
      [
        '#x tz UTC in Europe/Paris',
        'unrecognised',
        'in Europe/Paris',
        'The time zone is given twice (again in “in Europe/Paris”): give it once. Try: /influencers #hcsm last week',
      ],
    ])('refuses %j with %s', (text, reason, fragment, message) => {
      const error = failure(text);
      expect(error).toBeInstanceOf(ParseError);
      expect({ reason: error.reason, fragment: error.fragment, message: error.message }).toEqual({
        reason,
        fragment,
        message,
      });
    });

    it('returns errors rather than throwing them', () => {
      expect(() => parseLookup('#x tomorrow', { now: saturday, zone: 'UTC' })).not.toThrow();
    });
  });
});
