import { describe, expect, it } from 'vitest';
import { failure, window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('whole days: a range end written as a date holds that whole day', () => {
    it.each([
      ['Oct 1 to Oct 31', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ['Oct 1 - Oct 31', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ['Oct 1 – Oct 31', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ['Oct 1 until Oct 31', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ['Oct 1 through Oct 31', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ['Oct 1 thru Oct 31', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      [
        '2026-10-01 to 2026-10-31',
        'America/New_York',
        '2026-10-01T00:00:00-04:00',
        '2026-11-01T00:00:00-04:00',
      ],
      [
        'between jan 5 and jan 12',
        'Europe/London',
        '2026-01-05T00:00:00+00:00',
        '2026-01-13T00:00:00+00:00',
      ],
      [
        'from last monday to last friday',
        'UTC',
        '2026-11-16T00:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ],
      ['1/5 - 1/12', 'Asia/Kathmandu', '2026-01-05T00:00:00+05:45', '2026-01-13T00:00:00+05:45'],
      [
        'from 12/1/25 to 12/31/25',
        'Asia/Kathmandu',
        '2025-12-01T00:00:00+05:45',
        '2026-01-01T00:00:00+05:45',
      ],
      ['Sep 1 to 8', 'Australia/Eucla', '2026-09-01T00:00:00+08:45', '2026-09-09T00:00:00+08:45'],
      [
        'from 2026-11-01 to 2026-11-01 (the US fall-back day: 25 hours)',
        'America/New_York',
        '2026-11-01T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
      ],
      [
        'from 2026-03-08 to 2026-03-08 (the US spring-forward day: 23 hours)',
        'America/New_York',
        '2026-03-08T00:00:00-05:00',
        '2026-03-09T00:00:00-04:00',
      ],
      [
        'Oct 20 - Oct 25 (ending on the UK clocks-back day)',
        'Europe/London',
        '2026-10-20T00:00:00+01:00',
        '2026-10-26T00:00:00+00:00',
      ],
      [
        'Mar 25 to Mar 29 (ending on the UK clocks-forward day)',
        'Europe/London',
        '2026-03-25T00:00:00+00:00',
        '2026-03-30T00:00:00+01:00',
      ],
      [
        'from 2026-11-01 to 2026-11-01',
        'Asia/Kathmandu',
        '2026-11-01T00:00:00+05:45',
        '2026-11-02T00:00:00+05:45',
      ],
    ])('reads %j in %s as %s to %s', (phrase, zone, start, end) => {
      expect(window(`#x ${phrase.split(' (')[0] as string}`, zone)).toEqual([start, end]);
    });

    it.each([
      ['from Oct 1 to Oct 31 5pm', 'UTC', '2026-10-01T00:00:00+00:00', '2026-10-31T17:00:00+00:00'],
      [
        'from Oct 1 to Oct 31 at 17:30',
        'Asia/Kathmandu',
        '2026-10-01T00:00:00+05:45',
        '2026-10-31T17:30:00+05:45',
      ],
      ['from Nov 1 to now', 'UTC', '2026-11-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      [
        'from Oct 1 to 1 week ago',
        'America/New_York',
        '2026-10-01T00:00:00-04:00',
        '2026-11-14T10:30:00-05:00',
      ],
      [
        'from 1790000000 to 1791000000',
        'UTC',
        '2026-09-21T14:13:20+00:00',
        '2026-10-03T04:00:00+00:00',
      ],
    ])('ends %j in %s at the exact instant: %s to %s', (phrase, zone, start, end) => {
      expect(window(`#x ${phrase}`, zone)).toEqual([start, end]);
    });

    it('reads an end on the same day, month or quarter as the start as that one period', () => {
      expect(window('#x Nov 15 to Nov 15')).toEqual([
        '2026-11-15T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
      ]);
      expect(window('#x friday to friday')).toEqual([
        '2026-11-20T00:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ]);
      expect(window('#x Q3 to Q3')).toEqual([
        '2026-07-01T00:00:00+00:00',
        '2026-10-01T00:00:00+00:00',
      ]);
    });

    it('reads the rest of a day after a time on that day', () => {
      expect(window('#x friday 3pm to friday')).toEqual([
        '2026-11-20T15:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ]);
    });

    it('still refuses an end that is the start instant', () => {
      expect(failure('#x from 9am to 9am').reason).toBe('empty_window');
    });
  });

  describe('backwards ranges', () => {
    it.each([
      ['from Nov 15 to Nov 1', 'UTC', '2026-11-15T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      [
        'Nov 15 - Nov 1',
        'America/New_York',
        '2026-11-15T00:00:00-05:00',
        '2026-11-01T00:00:00-04:00',
      ],
      [
        'between Oct 20 and Oct 3',
        'Asia/Kathmandu',
        '2026-10-20T00:00:00+05:45',
        '2026-10-03T00:00:00+05:45',
      ],
      [
        'Sep 8 2024 to Sep 1',
        'Asia/Kolkata',
        '2024-09-08T00:00:00+05:30',
        '2024-09-01T00:00:00+05:30',
      ],
      ['Nov 20 to Nov 3 2026', 'UTC', '2026-11-20T00:00:00+00:00', '2026-11-03T00:00:00+00:00'],
    ])('refuses %j in %s, naming both dates', (phrase, zone, start, end) => {
      const error = failure(`#x ${phrase}`, zone);
      expect(error.reason).toBe('inverted_window');
      expect(error.fragment).toBe(phrase);
      expect(error.message).toContain(`ends before it starts (${start} to ${end})`);
    });

    it.each([
      ['from Dec 20 to Jan 5', 'UTC', '2025-12-20T00:00:00+00:00', '2026-01-06T00:00:00+00:00'],
      [
        'Dec 20 - Jan 5',
        'Asia/Kathmandu',
        '2025-12-20T00:00:00+05:45',
        '2026-01-06T00:00:00+05:45',
      ],
      ['Nov 28 - Dec 3', 'UTC', '2025-11-28T00:00:00+00:00', '2025-12-04T00:00:00+00:00'],
    ])(
      'crosses into the next year when the end month comes round again: %j',
      (phrase, zone, start, end) => {
        expect(window(`#x ${phrase}`, zone)).toEqual([start, end]);
      },
    );
  });
});
