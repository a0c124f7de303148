import { describe, expect, it } from 'vitest';
import { failure, lookup, saturday, window } from './lookup-helpers.ts';

/** Monday 9 Mar 2026 15:00 UTC: the day after the US spring-forward. */
const afterSpringForward = new Date('2026-03-09T15:00:00Z');
/** Monday 2 Nov 2026 15:00 UTC: the day after the US fall-back. */
const afterFallBack = new Date('2026-11-02T15:00:00Z');

describe('parseLookup', () => {
  describe('two times of one day joined by a dash', () => {
    it.each([
      [
        'today 8:00-12:00',
        'UTC',
        saturday,
        '2026-11-21T08:00:00+00:00',
        '2026-11-21T12:00:00+00:00',
      ],
      [
        'Nov 15 21:00-22:00',
        'Asia/Kathmandu',
        saturday,
        '2026-11-15T21:00:00+05:45',
        '2026-11-15T22:00:00+05:45',
      ],
      [
        'yesterday 9am-5pm',
        'America/New_York',
        saturday,
        '2026-11-20T09:00:00-05:00',
        '2026-11-20T17:00:00-05:00',
      ],
      [
        'yesterday 9am – 5pm',
        'Europe/London',
        saturday,
        '2026-11-20T09:00:00+00:00',
        '2026-11-20T17:00:00+00:00',
      ],
      [
        'Nov 15 21:00 - 02:00',
        'UTC',
        saturday,
        '2026-11-15T21:00:00+00:00',
        '2026-11-16T02:00:00+00:00',
      ],
      [
        'yesterday 1:00-4:00 (across the US spring-forward: 2 hours)',
        'America/New_York',
        afterSpringForward,
        '2026-03-08T01:00:00-05:00',
        '2026-03-08T04:00:00-04:00',
      ],
      [
        'yesterday 0:30-1:30 (the US fall-back: the repeated 1:30 is the second one, 2 hours)',
        'America/New_York',
        afterFallBack,
        '2026-11-01T00:30:00-04:00',
        '2026-11-01T01:30:00-05:00',
      ],
    ])('reads %j in %s as %s to %s', (phrase, zone, now, start, end) => {
      expect(window(`#x ${phrase.split(' (')[0] as string}`, zone, now)).toEqual([start, end]);
    });
  });

  describe('more periods', () => {
    it.each([
      // ISO weeks: Monday to Monday; without a year, the most recent such week that has started.
      ['2026-W46', 'UTC', saturday, '2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
      [
        'week 46',
        'Asia/Kathmandu',
        saturday,
        '2026-11-09T00:00:00+05:45',
        '2026-11-16T00:00:00+05:45',
      ],
      [
        'wk 46 2025',
        'America/New_York',
        saturday,
        '2025-11-10T00:00:00-05:00',
        '2025-11-17T00:00:00-05:00',
      ],
      ['week 48', 'UTC', saturday, '2025-11-24T00:00:00+00:00', '2025-12-01T00:00:00+00:00'],
      ['2020-W53', 'UTC', saturday, '2020-12-28T00:00:00+00:00', '2021-01-04T00:00:00+00:00'],
      [
        'week 10 2026 (holds the US spring-forward)',
        'America/New_York',
        saturday,
        '2026-03-02T00:00:00-05:00',
        '2026-03-09T00:00:00-04:00',
      ],
      // Halves.
      ['H1 2026', 'UTC', saturday, '2026-01-01T00:00:00+00:00', '2026-07-01T00:00:00+00:00'],
      [
        'first half of 2026',
        'America/New_York',
        saturday,
        '2026-01-01T00:00:00-05:00',
        '2026-07-01T00:00:00-04:00',
      ],
      [
        'second half of 2025',
        'Asia/Kathmandu',
        saturday,
        '2025-07-01T00:00:00+05:45',
        '2026-01-01T00:00:00+05:45',
      ],
      ['h2', 'UTC', saturday, '2026-07-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      // To date.
      ['mtd', 'UTC', saturday, '2026-11-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      [
        'month to date',
        'Asia/Kathmandu',
        saturday,
        '2026-11-01T00:00:00+05:45',
        '2026-11-21T21:15:00+05:45',
      ],
      ['wtd', 'UTC', saturday, '2026-11-16T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      [
        'week to date',
        'America/New_York',
        saturday,
        '2026-11-16T00:00:00-05:00',
        '2026-11-21T10:30:00-05:00',
      ],
      ['qtd', 'UTC', saturday, '2026-10-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      // Whole units back.
      [
        'the week before last',
        'UTC',
        saturday,
        '2026-11-02T00:00:00+00:00',
        '2026-11-09T00:00:00+00:00',
      ],
      [
        'week before last (across the US fall-back)',
        'America/New_York',
        new Date('2026-11-11T15:00:00Z'),
        '2026-10-26T00:00:00-04:00',
        '2026-11-02T00:00:00-05:00',
      ],
      ['past fortnight', 'UTC', saturday, '2026-11-07T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      // Parts of the day: morning 06-12, afternoon 12-18, evening 18-24, night 18-06.
      ['this morning', 'UTC', saturday, '2026-11-21T06:00:00+00:00', '2026-11-21T12:00:00+00:00'],
      [
        'this afternoon',
        'Asia/Kathmandu',
        new Date('2026-11-21T11:15:00Z'),
        '2026-11-21T12:00:00+05:45',
        '2026-11-21T17:00:00+05:45',
      ],
      [
        'this evening',
        'Europe/London',
        new Date('2026-11-21T20:00:00Z'),
        '2026-11-21T18:00:00+00:00',
        '2026-11-21T20:00:00+00:00',
      ],
      ['last night', 'UTC', saturday, '2026-11-20T18:00:00+00:00', '2026-11-21T06:00:00+00:00'],
      [
        'last night (the US fall-back night: 13 hours)',
        'America/New_York',
        new Date('2026-11-01T15:00:00Z'),
        '2026-10-31T18:00:00-04:00',
        '2026-11-01T06:00:00-05:00',
      ],
      [
        'last night (the US spring-forward night: 11 hours)',
        'America/New_York',
        new Date('2026-03-08T15:00:00Z'),
        '2026-03-07T18:00:00-05:00',
        '2026-03-08T06:00:00-04:00',
      ],
      [
        'yesterday afternoon',
        'Australia/Eucla',
        saturday,
        '2026-11-21T12:00:00+08:45',
        '2026-11-21T18:00:00+08:45',
      ],
      [
        'yesterday evening',
        'UTC',
        saturday,
        '2026-11-20T18:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ],
    ])('reads %j in %s at %s as %s to %s', (phrase, zone, now, start, end) => {
      expect(window(`#x ${phrase.split(' (')[0] as string}`, zone, now)).toEqual([start, end]);
    });

    it.each([
      ['#x 2026-W54', 'bad_time'],
      ['#x week 53 2025', 'bad_time'],
      ['#x 2026-W53', 'future_start'],
      ['#x this evening', 'future_start'],
    ])('refuses %j with %s', (text, reason) => {
      expect(failure(text).reason).toBe(reason);
    });

    it('reads a month abbreviation alone as the month, as its full name', () => {
      expect(window('#x Oct')).toEqual(window('#x October'));
      expect(window('#x oct', 'Asia/Kathmandu')).toEqual([
        '2026-10-01T00:00:00+05:45',
        '2026-11-01T00:00:00+05:45',
      ]);
      expect(lookup('#x Oct').databases).toEqual(['#x']);
    });
  });

  describe('day-first dates', () => {
    it.each([
      ['23/11/2025', 'UTC', '2025-11-23T00:00:00+00:00', '2025-11-24T00:00:00+00:00'],
      ['13/1/26', 'Asia/Kathmandu', '2026-01-13T00:00:00+05:45', '2026-01-14T00:00:00+05:45'],
      ['31/10', 'America/New_York', '2026-10-31T00:00:00-04:00', '2026-11-01T00:00:00-04:00'],
      [
        'from 1/11/2026 to 15/11/2026 (the end proves both day first)',
        'UTC',
        '2026-11-01T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
      ],
      [
        '3/4/26 (ambiguous: month first)',
        'UTC',
        '2026-03-04T00:00:00+00:00',
        '2026-03-05T00:00:00+00:00',
      ],
      [
        '12/11/2026 (ambiguous: month first)',
        'UTC',
        '2026-12-11T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
    ])('reads %j in %s as %s to %s', (phrase, zone, start, end) => {
      const text = `#x ${phrase.split(' (')[0] as string}`;
      if (phrase.startsWith('12/11')) {
        expect(failure(text, zone).reason).toBe('future_start');
        return;
      }
      expect(window(text, zone)).toEqual([start, end]);
    });

    it('still refuses a date no reading makes real', () => {
      expect(failure('#x 32/11/26')).toMatchObject({ reason: 'bad_time', fragment: '32/11/26' });
      expect(failure('#x 13/13/26')).toMatchObject({ reason: 'bad_time', fragment: '13/13/26' });
    });
  });
});
