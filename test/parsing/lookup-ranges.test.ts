import { describe, expect, it } from 'vitest';
import { failure, window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('rule 3: ranges', () => {
    it.each([
      ['#x 2026-09-01 to 2026-09-08'],
      ['#x from 2026-09-01 to 2026-09-08'],
      ['#x 2026-09-01 - 2026-09-08'],
      ['#x 2026-09-01 – 2026-09-08'],
      ['#x 2026-09-01–2026-09-08'],
      ['#x between 2026-09-01 and 2026-09-08'],
      ['#x from 2026-09-01 until 2026-09-08'],
    ])('reads %s as Sep 1 to Sep 8, Sep 8 whole', (text) => {
      expect(window(text, 'Asia/Kolkata')).toEqual([
        '2026-09-01T00:00:00+05:30',
        '2026-09-09T00:00:00+05:30',
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
      expect(window('#x from 10pm yesterday to 2am')).toEqual([
        '2026-11-20T22:00:00+00:00',
        '2026-11-21T02:00:00+00:00',
      ]);
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
        '2026-12-06T00:00:00+05:30',
      ],
      [
        'Dec 20 to Jan 5',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2025-12-20T00:00:00+00:00',
        '2026-01-06T00:00:00+00:00',
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
        '2026-11-24T00:00:00-05:00',
      ],
      [
        'friday to monday (across the end of Sydney DST)',
        'Australia/Sydney',
        '2026-04-06T02:00:00Z',
        '2026-04-03T00:00:00+11:00',
        '2026-04-06T12:00:00+10:00',
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
        '2 weeks ago to Dec 5',
        'UTC',
        '2026-11-21T15:30:00Z',
        '2026-11-07T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
    ])('reads "%s" in %s at %s as %s to %s', (phrase, zone, now, start, end) => {
      const text = `#x ${phrase.split(' (')[0] as string}`;
      expect(window(text, zone, new Date(now))).toEqual([start, end]);
    });

    it('keeps the past bias of the start', () => {
      expect(window('#x Dec 5 to Dec 20')).toEqual([
        '2025-12-05T00:00:00+00:00',
        '2025-12-21T00:00:00+00:00',
      ]);
    });

    it('leaves explicit years and words tied to today where they are', () => {
      expect(failure('#x Sep 8 to Sep 1 2026').reason).toBe('inverted_window');
      expect(window('#x Sep 8 2025 to Sep 1 2026')).toEqual([
        '2025-09-08T00:00:00+00:00',
        '2026-09-02T00:00:00+00:00',
      ]);
      expect(failure('#x saturday to last monday').reason).toBe('inverted_window');
      expect(failure('#x today to yesterday').reason).toBe('inverted_window');
    });

    it('never moves a yearless end into the next year within one month', () => {
      expect(failure('#x from Sep 8 to Sep 1').reason).toBe('inverted_window');
      expect(failure('#x Sep 8 2024 to Sep 1').reason).toBe('inverted_window');
    });
  });
});
