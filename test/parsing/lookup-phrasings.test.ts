import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../src/parsing/index.ts';

/** Saturday 21 Nov 2026, 15:30 UTC. */
const saturday = '2026-11-21T15:30:00Z';

function lookup(text: string, zone: string, now: string): LookupRequest {
  const result = parseLookup(text, { now: new Date(now), zone });
  if (result instanceof ParseError)
    throw new Error(`expected a request for "${text}", got: ${result.message}`);
  return result;
}

function failure(text: string, zone = 'UTC', now = saturday): ParseError {
  const result = parseLookup(text, { now: new Date(now), zone });
  if (!(result instanceof ParseError))
    throw new Error(`expected an error for "${text}", got ${JSON.stringify(result)}`);
  return result;
}

describe('parseLookup', () => {
  describe('reads common phrasings in several zones, DST included', () => {
    it.each([
      // A range that ends on a day holds that whole day, however it is joined.
      ['#x Sep 1-8', 'UTC', saturday, '2026-09-01T00:00:00+00:00', '2026-09-09T00:00:00+00:00'],
      [
        '#x Nov 9-15',
        'America/New_York',
        saturday,
        '2026-11-09T00:00:00-05:00',
        '2026-11-16T00:00:00-05:00',
      ],
      [
        '#x Sep 1 to 8',
        'Europe/London',
        saturday,
        '2026-09-01T00:00:00+01:00',
        '2026-09-09T00:00:00+01:00',
      ],
      ['#x Sep 1 - 8', 'UTC', saturday, '2026-09-01T00:00:00+00:00', '2026-09-09T00:00:00+00:00'],
      [
        '#x Sep 1–8, 2025',
        'Asia/Kolkata',
        saturday,
        '2025-09-01T00:00:00+05:30',
        '2025-09-09T00:00:00+05:30',
      ],
      [
        '#x Nov 28 - Dec 3',
        'UTC',
        saturday,
        '2025-11-28T00:00:00+00:00',
        '2025-12-04T00:00:00+00:00',
      ],
      [
        '#x Mar 1-10',
        'America/New_York',
        saturday,
        '2026-03-01T00:00:00-05:00',
        '2026-03-11T00:00:00-04:00',
      ],
      [
        '#x week of Nov 9',
        'Australia/Sydney',
        saturday,
        '2026-11-09T00:00:00+11:00',
        '2026-11-16T00:00:00+11:00',
      ],
      [
        '#x the week of Mar 8',
        'America/New_York',
        saturday,
        '2026-03-02T00:00:00-05:00',
        '2026-03-09T00:00:00-04:00',
      ],
      [
        '#x this past week',
        'UTC',
        saturday,
        '2026-11-14T15:30:00+00:00',
        saturday.replace('Z', '+00:00'),
      ],
      [
        '#x last weekend',
        'UTC',
        saturday,
        '2026-11-14T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
      ],
      [
        '#x last weekend',
        'UTC',
        '2026-11-22T12:00:00Z',
        '2026-11-14T00:00:00+00:00',
        '2026-11-16T00:00:00+00:00',
      ],
      [
        '#x last weekend',
        'Europe/London',
        '2026-10-26T12:00:00Z',
        '2026-10-24T00:00:00+01:00',
        '2026-10-26T00:00:00+00:00',
      ],
      [
        '#x this weekend',
        'Australia/Sydney',
        '2026-11-21T03:00:00Z',
        '2026-11-21T00:00:00+11:00',
        '2026-11-21T14:00:00+11:00',
      ],
      [
        '#x last fortnight',
        'America/New_York',
        saturday,
        '2026-11-07T10:30:00-05:00',
        '2026-11-21T10:30:00-05:00',
      ],
      [
        '#x since Sep 1 until yesterday',
        'UTC',
        saturday,
        '2026-09-01T00:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ],
      [
        '#x since Sep 1 through yesterday',
        'UTC',
        saturday,
        '2026-09-01T00:00:00+00:00',
        '2026-11-21T00:00:00+00:00',
      ],
      [
        '#x last month to date',
        'Asia/Kolkata',
        saturday,
        '2026-10-01T00:00:00+05:30',
        '2026-11-21T21:00:00+05:30',
      ],
      [
        '#x last 7 days through yesterday',
        'America/New_York',
        '2026-11-03T15:00:00Z',
        '2026-10-27T00:00:00-04:00',
        '2026-11-03T00:00:00-05:00',
      ],
      [
        '#x in 2025',
        'Europe/London',
        saturday,
        '2025-01-01T00:00:00+00:00',
        '2026-01-01T00:00:00+00:00',
      ],
      [
        '#x during 2026',
        'Australia/Sydney',
        saturday,
        '2026-01-01T00:00:00+11:00',
        '2026-11-22T02:30:00+11:00',
      ],
      [
        '#x Jan-Mar',
        'America/New_York',
        saturday,
        '2026-01-01T00:00:00-05:00',
        '2026-04-01T00:00:00-04:00',
      ],
      [
        '#x Jan-Mar 2025',
        'UTC',
        saturday,
        '2025-01-01T00:00:00+00:00',
        '2025-04-01T00:00:00+00:00',
      ],
      ['#x Jan - Mar', 'UTC', saturday, '2026-01-01T00:00:00+00:00', '2026-04-01T00:00:00+00:00'],
      [
        '#x January – March 2025',
        'UTC',
        saturday,
        '2025-01-01T00:00:00+00:00',
        '2025-04-01T00:00:00+00:00',
      ],
      [
        '#x between 9am and 5pm yesterday',
        'America/New_York',
        saturday,
        '2026-11-20T09:00:00-05:00',
        '2026-11-20T17:00:00-05:00',
      ],
      [
        '#x 9am-5pm yesterday',
        'Asia/Kolkata',
        saturday,
        '2026-11-20T09:00:00+05:30',
        '2026-11-20T17:00:00+05:30',
      ],
      [
        '#x since Sep 9 2026 14:05 GMT',
        'America/New_York',
        saturday,
        '2026-09-09T10:05:00-04:00',
        '2026-11-21T10:30:00-05:00',
      ],
      [
        '#x from Sep 9 2026 14:05 +02:00 to Sep 9 2026 18:00 UTC',
        'Asia/Kolkata',
        saturday,
        '2026-09-09T17:35:00+05:30',
        '2026-09-09T23:30:00+05:30',
      ],
      [
        '#x since Sep 9th 2026 at 5 in the afternoon',
        'Europe/London',
        saturday,
        '2026-09-09T17:00:00+01:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        '#x since Sep 9 at 5pm',
        'UTC',
        saturday,
        '2026-09-09T17:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        '#x over the last 7 days',
        'UTC',
        saturday,
        '2026-11-14T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        '#x for the past month',
        'UTC',
        saturday,
        '2026-10-21T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        '#x 1790000000 to 1791000000',
        'UTC',
        saturday,
        '2026-09-21T14:13:20+00:00',
        '2026-10-03T04:00:00+00:00',
      ],
    ])('reads %j in %s at %s as %s to %s', (text, zone, now, start, end) => {
      const request = lookup(text, zone, now);
      expect([request.start, request.end]).toEqual([start, end]);
      expect(request.databases).toEqual(['#x']);
    });
  });

  describe('zones named by city and glued counts', () => {
    it.each([
      ['#x last week in London', 'Europe/London'],
      ['#x in Paris yesterday', 'Europe/Paris'],
      ['#x yesterday in New York', 'America/New_York'],
      ['#x in new york', 'America/New_York'],
      ['#x in Kolkata', 'Asia/Kolkata'],
      ['#x in Calcutta', 'Asia/Kolkata'],
      ['#x in buenos aires', 'America/Argentina/Buenos_Aires'],
      ['#x tz Sydney', 'Australia/Sydney'],
    ])('reads the zone of %j as %s', (text, zone) => {
      expect(lookup(text, 'UTC', saturday).timezone).toBe(zone);
    });

    it('evaluates the window in the city zone', () => {
      expect(lookup('#x yesterday in New York', 'Asia/Tokyo', saturday)).toMatchObject({
        start: '2026-11-20T00:00:00-05:00',
        end: '2026-11-21T00:00:00-05:00',
      });
    });

    it('refuses a region with the fragment and a city to name instead', () => {
      expect(failure('#x last week in Europe')).toMatchObject({
        reason: 'unknown_zone',
        fragment: 'Europe',
        message:
          '“Europe” is a region with many time zones: name a city, such as Europe/Paris, in Paris or in London. Try: /influencers #x last week in Europe/London',
      });
    });

    it('refuses an unknown place after "in", naming the fragment', () => {
      expect(failure('#x last week in Narnia')).toMatchObject({
        reason: 'unrecognised',
        fragment: 'in Narnia',
        message:
          'I can\'t read “in Narnia”: after “in” I expect a time zone (in Europe/London, in Paris) or a period (in September, in 2025). If “in Narnia” is a database, put it in quotes: "in Narnia". Try: /influencers #x last week "in Narnia"',
      });
    });

    it.each([
      ['#x top10', 10],
      ['#x last week limit20', 20],
      ['#x TOP5', 5],
    ])('reads the glued count in %j as %i', (text, top) => {
      expect(lookup(text, 'UTC', saturday).top).toBe(top);
    });

    it('refuses a glued count out of range', () => {
      expect(failure('#x top101')).toMatchObject({ reason: 'bad_top', fragment: 'top101' });
    });
  });

  describe('hashtags in every script', () => {
    it('accepts combining marks and matches decomposed and composed forms', () => {
      expect(lookup('#स्वास्थ्य #cafe\u0301 #café', 'UTC', saturday).databases).toEqual([
        '#स्वास्थ्य',
        '#café',
      ]);
    });
  });

  describe('refuses what it would have to guess', () => {
    it.each([
      [
        '#x tonight',
        'tonight',
        '“tonight” has no agreed start and end: give the hours. Try: /influencers #x last night',
      ],
      ['#x overnight', 'overnight', undefined],
      [
        '#x until yesterday',
        'until yesterday',
        '“until yesterday” says where the window ends but not where it starts: add a start. Try: /influencers #x last 7 days until yesterday',
      ],
      ['#x through Sep 8', 'through Sep 8', undefined],
      [
        '#x Sep 9 2026 14:05 GMT',
        'Sep 9 2026 14:05 GMT',
        '“Sep 9 2026 14:05 GMT” is a single moment, not a window: say where it starts or ends. Try: /influencers #x since Sep 9 2026 14:05 GMT',
      ],
      ['#x since 14:05 UTC+15', 'UTC+15', undefined],
    ])('refuses %j naming %j', (text, fragment, message) => {
      const error = failure(text);
      expect(error.reason).toBe('bad_time');
      expect(error.fragment).toBe(fragment);
      if (message !== undefined) expect(error.message).toBe(message);
    });
  });
});
