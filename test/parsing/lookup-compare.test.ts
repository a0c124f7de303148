import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { withPreviousPeriod } from '../../src/parsing/index.ts';
import { failure, lookup, saturday } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('comparison windows', () => {
    it.each([
      [
        '#x last week vs previous',
        'UTC',
        saturday,
        ['2026-11-02T00:00:00+00:00', '2026-11-09T00:00:00+00:00'],
      ],
      [
        '#x last week vs previous period',
        'Asia/Kathmandu',
        saturday,
        ['2026-11-02T00:00:00+05:45', '2026-11-09T00:00:00+05:45'],
      ],
      [
        '#x last week versus the prior period',
        'UTC',
        saturday,
        ['2026-11-02T00:00:00+00:00', '2026-11-09T00:00:00+00:00'],
      ],
      [
        '#x last week compared to the week before',
        'Europe/London',
        saturday,
        ['2026-11-02T00:00:00+00:00', '2026-11-09T00:00:00+00:00'],
      ],
      [
        '#x last week against the period before',
        'UTC',
        saturday,
        ['2026-11-02T00:00:00+00:00', '2026-11-09T00:00:00+00:00'],
      ],
      [
        '#x vs previous (the default window)',
        'UTC',
        saturday,
        ['2026-11-07T15:30:00+00:00', '2026-11-14T15:30:00+00:00'],
      ],
      [
        '#x last 48 hours vs previous',
        'Australia/Eucla',
        saturday,
        ['2026-11-18T00:15:00+08:45', '2026-11-20T00:15:00+08:45'],
      ],
      [
        '#x last month vs last year',
        'America/New_York',
        saturday,
        ['2025-10-01T00:00:00-04:00', '2025-11-01T00:00:00-04:00'],
      ],
      [
        '#x this month vs a year ago',
        'UTC',
        saturday,
        ['2025-11-01T00:00:00+00:00', '2025-11-21T15:30:00+00:00'],
      ],
      ['#x Q3 vs Q2', 'UTC', saturday, ['2026-04-01T00:00:00+00:00', '2026-07-01T00:00:00+00:00']],
      [
        '#x last month compared with Sep 1 - Sep 30',
        'UTC',
        saturday,
        ['2026-09-01T00:00:00+00:00', '2026-10-01T00:00:00+00:00'],
      ],
      [
        '#x this month vs the month before',
        'UTC',
        saturday,
        ['2026-10-01T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
      ],
      [
        '#x last week vs previous (the week before holds the US fall-back: 7 whole days)',
        'America/New_York',
        new Date('2026-11-11T15:00:00Z'),
        ['2026-10-26T00:00:00-04:00', '2026-11-02T00:00:00-05:00'],
      ],
      [
        '#x yesterday vs previous (the day before is the US spring-forward day)',
        'America/New_York',
        new Date('2026-03-10T15:00:00Z'),
        ['2026-03-08T00:00:00-05:00', '2026-03-09T00:00:00-04:00'],
      ],
    ])('reads %j in %s as comparing with %j', (text, zone, now, compare) => {
      const request = lookup(text.split(' (')[0] as string, zone, now);
      expect(request.compare).toEqual({ start: compare[0], end: compare[1] });
    });

    it('leaves compare out when none is asked for', () => {
      expect(lookup('#x last week')).not.toHaveProperty('compare');
      expect(lookup('#x last week')).not.toHaveProperty('metric');
    });

    it('reads vs between two databases as a separator', () => {
      expect(lookup('#hcsm vs #bcsm last week')).toMatchObject({ databases: ['#hcsm', '#bcsm'] });
      expect(lookup('#hcsm vs #bcsm last week')).not.toHaveProperty('compare');
      expect(lookup('campaign against smoking').databases).toEqual(['campaign against smoking']);
    });

    it.each([
      ['#x last week vs blah', 'bad_time'],
      ['#x vs tomorrow', 'future_start'],
      ['#x last week vs previous vs last year', 'unrecognised'],
      ['#x last 7000 days vs previous', 'bad_time'],
    ])('refuses %j with %s', (text, reason) => {
      expect(failure(text).reason).toBe(reason);
    });
  });

  describe('the previous period of a request (the Compare button)', () => {
    it.each([
      ['#x last week', 'UTC', saturday],
      ['#x last 48 hours', 'Australia/Eucla', saturday],
      ['#x this month', 'Asia/Kathmandu', saturday],
      [
        '#x last week (the week before holds the US fall-back)',
        'America/New_York',
        new Date('2026-11-11T15:00:00Z'),
      ],
      [
        '#x yesterday (the day before is the US spring-forward day)',
        'America/New_York',
        new Date('2026-03-10T15:00:00Z'),
      ],
    ])('compares %j in %s as vs previous period does', (text, zone, now) => {
      const typed = text.split(' (')[0] as string;
      const request = lookup(typed, zone, now);
      const compared = withPreviousPeriod(request, { now, zone: request.timezone });
      expect(compared).toEqual({
        ...request,
        compare: lookup(`${typed} vs previous period`, zone, now).compare,
      });
    });

    it('replaces a comparison the request already had', () => {
      const request = lookup('#x last week vs last year');
      expect(withPreviousPeriod(request, { now: saturday, zone: 'UTC' })).toMatchObject({
        compare: { start: '2026-11-02T00:00:00+00:00', end: '2026-11-09T00:00:00+00:00' },
      });
    });

    it('refuses a previous period that starts before the earliest data', () => {
      const request = lookup('#x from 2006-03-25 to 2006-04-01', 'UTC', saturday);
      const refused = withPreviousPeriod(request, { now: saturday, zone: 'UTC' });
      expect(refused).toBeInstanceOf(ParseError);
      expect((refused as ParseError).reason).toBe('bad_time');
      expect(
        withPreviousPeriod(request, { now: saturday, zone: 'UTC', earliestDate: '2006-03-01' }),
      ).toMatchObject({
        compare: { start: '2006-03-17T00:00:00+00:00', end: '2006-03-25T00:00:00+00:00' },
      });
    });
  });

  describe('ranking metric', () => {
    it.each([
      ['#x by mentions', 'mentions'],
      ['#x last week ranked by retweets', 'retweets'],
      ['#x ranked by reposts', 'retweets'],
      ['#x sorted by tweets', 'tweets'],
      ['#x by posts yesterday', 'tweets'],
      ['#x ranked by impressions', 'impressions'],
      ['#x ranked by reach in Asia/Kathmandu', 'impressions'],
      ['#x sorted by replies', 'replies'],
      ['#x ranked by HSG score', 'hsg_score'],
      ['#x by hsg_score', 'hsg_score'],
      ['#x ordered by influence score', 'hsg_score'],
    ])('reads %j as ranking by %s', (text, metric) => {
      expect(lookup(text).metric).toBe(metric);
    });

    it('never keeps "by" in a phrase: who people are is refused, saying what it would mean', () => {
      expect(failure('tweets by doctors')).toMatchObject({
        reason: 'unrecognised',
        fragment: 'by doctors',
        message: expect.stringContaining("a lookup can't filter by who people are yet"),
      });
    });

    it('refuses an unknown metric after "ranked by", listing the known ones', () => {
      expect(failure('#x sorted by popularity')).toMatchObject({
        reason: 'unrecognised',
        fragment: 'sorted by popularity',
        message: expect.stringContaining('rank by mentions, retweets (reposts), tweets (posts)'),
      });
    });
  });
});
