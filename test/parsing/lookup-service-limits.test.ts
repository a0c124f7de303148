import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { failure, lookup, window } from './lookup-helpers.ts';

/** Saturday 21 Nov 2026, 15:30:42.5 UTC: inside a minute. */
const midMinute = new Date('2026-11-21T15:30:42.500Z');

describe('parseLookup', () => {
  describe('windows counted back from now end at the current minute', () => {
    it.each([
      ['#x', 'UTC', '2026-11-14T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      [
        '#x last 7 days',
        'America/New_York',
        '2026-11-14T10:30:00-05:00',
        '2026-11-21T10:30:00-05:00',
      ],
      ['#x 48h', 'Asia/Kathmandu', '2026-11-19T21:15:00+05:45', '2026-11-21T21:15:00+05:45'],
      [
        '#x past 90 minutes',
        'Australia/Eucla',
        '2026-11-21T22:45:00+08:45',
        '2026-11-22T00:15:00+08:45',
      ],
      ['#x 2 weeks ago', 'Europe/London', '2026-11-07T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
      ['#x since 3 days ago', 'UTC', '2026-11-18T15:30:00+00:00', '2026-11-21T15:30:00+00:00'],
    ])('reads %j in %s as %s to %s', (text, zone, start, end) => {
      expect(window(text, zone, midMinute)).toEqual([start, end]);
    });

    it.each([
      [
        '#x (across the US fall-back)',
        'America/New_York',
        new Date('2026-11-02T15:00:59Z'),
        '2026-10-26T10:00:00-04:00',
        '2026-11-02T10:00:00-05:00',
      ],
      [
        '#x last 7 days (across the US spring-forward)',
        'America/New_York',
        new Date('2026-03-09T15:00:59Z'),
        '2026-03-02T11:00:00-05:00',
        '2026-03-09T11:00:00-04:00',
      ],
    ])('counts calendar days from the minute %s', (text, zone, now, start, end) => {
      expect(window(text.split(' (')[0] as string, zone, now)).toEqual([start, end]);
    });

    it('gives the same request for the same question anywhere in one minute', () => {
      const at = (second: number) =>
        lookup('#hcsm last 7 days', 'UTC', new Date(Date.UTC(2026, 10, 21, 15, 30, second, 999)));
      expect(at(0)).toEqual(at(59));
    });

    it.each([
      ['#x since monday', '2026-11-21T15:30:42+00:00'],
      ['#x today', '2026-11-21T15:30:42+00:00'],
      ['#x from Nov 1 to now', '2026-11-21T15:30:42+00:00'],
    ])('keeps a window that is not counted back from now ending at now: %j', (text, end) => {
      expect(window(text, 'UTC', midMinute)[1]).toBe(end);
    });
  });

  describe('windows before the earliest data', () => {
    it.each([
      ['#x last 1000 years', 'UTC', 'last 1000 years', '1026-11-21T15:30:00+00:00'],
      ['#x since 2000', 'Asia/Kathmandu', 'since 2000', '2000-01-01T00:00:00+05:45'],
      ['#x in 2006', 'America/New_York', 'in 2006', '2006-01-01T00:00:00-05:00'],
      [
        '#x from Mar 1 2006 to Mar 31 2006',
        'UTC',
        'from Mar 1 2006 to Mar 31 2006',
        '2006-03-01T00:00:00+00:00',
      ],
    ])('refuses %j in %s, naming where it starts', (text, zone, fragment, start) => {
      expect(failure(text, zone)).toMatchObject({
        reason: 'bad_time',
        fragment,
        message: `The window “${fragment}” starts at ${start}, before the earliest data (2006-03-21): there is nothing to count before then. Start on or after it. Try: /influencers #x since 2006-03-21`,
      });
    });

    it('takes the first day in the zone of the request', () => {
      expect(window('#x since 2006-03-21', 'Asia/Tokyo')[0]).toBe('2006-03-21T00:00:00+09:00');
      expect(window('#x since 2006-03-21', 'America/Los_Angeles')[0]).toBe(
        '2006-03-21T00:00:00-08:00',
      );
      expect(failure('#x since 2006-03-20 23:00', 'Asia/Tokyo').reason).toBe('bad_time');
    });

    it('follows the configured first day', () => {
      const read = (earliestDate: string) =>
        parseLookup('#x since 2015-06-01', { now: midMinute, zone: 'UTC', earliestDate });
      expect(read('2015-01-01')).not.toBeInstanceOf(ParseError);
      expect(read('2016-01-01')).toMatchObject({
        reason: 'bad_time',
        message: expect.stringContaining('before the earliest data (2016-01-01)'),
      });
    });

    it('refuses the default window when the clock is before the earliest data', () => {
      expect(failure('#x', 'UTC', new Date('2006-03-25T00:00:00Z')).fragment).toBe('last 7 days');
    });
  });
});
