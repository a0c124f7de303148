import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseLookup, withPreviousPeriod } from '../../src/parsing/index.ts';
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
        // A month to date: the same elapsed part of the month before.
        '#x this month vs the month before',
        'UTC',
        saturday,
        ['2026-10-01T00:00:00+00:00', '2026-10-21T15:30:00+00:00'],
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

    it('never keeps "by" in a phrase: who people are is a filter (issue 20)', () => {
      expect(failure('tweets by doctors')).toMatchObject({ reason: 'no_database' });
      expect(lookup('#x tweets by doctors')).toMatchObject({
        metric: 'tweets',
        stakeholders: { include: ['Doctor'], exclude: [] },
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

describe('the previous period of a calendar window (issue 20)', () => {
  const now = new Date('2026-11-26T10:28:00Z');
  const compared = (text: string, zone = 'UTC', at = now) => {
    const request = parseLookup(text, { now: at, zone });
    if (request instanceof Error) throw request;
    return [request.compare?.start, request.compare?.end];
  };

  it.each([
    [
      '#hcsm last month vs previous period',
      ['2026-09-01T00:00:00+00:00', '2026-10-01T00:00:00+00:00'],
    ],
    [
      '#hcsm last year vs previous period',
      ['2024-01-01T00:00:00+00:00', '2025-01-01T00:00:00+00:00'],
    ],
    ['#hcsm mtd vs previous period', ['2026-10-01T00:00:00+00:00', '2026-10-26T10:28:00+00:00']],
    ['#hcsm qtd vs previous period', ['2026-07-01T00:00:00+00:00', '2026-08-26T10:28:00+00:00']],
    ['#hcsm ytd vs previous period', ['2025-01-01T00:00:00+00:00', '2025-11-26T10:28:00+00:00']],
    [
      '#hcsm H1 2026 vs previous period',
      ['2025-07-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00'],
    ],
    [
      '#hcsm 2026-W47 vs previous period',
      ['2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
    ],
    [
      '#hcsm yesterday vs previous period',
      ['2026-11-24T00:00:00+00:00', '2026-11-25T00:00:00+00:00'],
    ],
    [
      '#hcsm last 7 days vs previous period',
      ['2026-11-12T10:28:00+00:00', '2026-11-19T10:28:00+00:00'],
    ],
    [
      '#hcsm this month vs previous month',
      ['2026-10-01T00:00:00+00:00', '2026-10-26T10:28:00+00:00'],
    ],
    [
      '#hcsm last week vs previous week',
      ['2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
    ],
    ['#hcsm last quarter yoy', ['2025-07-01T00:00:00+00:00', '2025-10-01T00:00:00+00:00']],
    [
      '#hcsm Q3 vs same quarter last year',
      ['2025-07-01T00:00:00+00:00', '2025-10-01T00:00:00+00:00'],
    ],
    [
      '#hcsm last month vs same period last year',
      ['2025-10-01T00:00:00+00:00', '2025-11-01T00:00:00+00:00'],
    ],
    ['#hcsm last month year over year', ['2025-10-01T00:00:00+00:00', '2025-11-01T00:00:00+00:00']],
  ])('compares %j with %j', (text, window) => {
    expect(compared(text)).toEqual(window);
  });

  it('compares a month to date on Mar 31 with the whole of February, clamped to its end', () => {
    expect(
      compared('#hcsm mtd vs previous period', 'UTC', new Date('2026-03-31T10:00:00Z')),
    ).toEqual(['2026-02-01T00:00:00+00:00', '2026-03-01T00:00:00+00:00']);
  });

  it('compares a leap day with the same day a year earlier, clamped to Feb 28', () => {
    expect(compared('#hcsm Feb 29 2028 yoy', 'UTC', new Date('2028-03-05T10:00:00Z'))).toEqual([
      '2027-02-28T00:00:00+00:00',
      '2027-03-01T00:00:00+00:00',
    ]);
  });

  it('keeps the previous month whole across the DST change in New York (DST)', () => {
    expect(compared('#hcsm last month vs previous period', 'America/New_York')).toEqual([
      '2026-09-01T00:00:00-04:00',
      '2026-10-01T00:00:00-04:00',
    ]);
  });
});

describe('a comparison said without vs', () => {
  // Saturday Nov 28, 2026 04:42 in New York (EST, after the November change).
  const now = new Date('2026-11-28T09:42:00Z');
  const read = (text: string) =>
    parseLookup(text, { now, zone: 'America/New_York', conversation: true });

  it.each([
    [
      '#hcsm same week last year',
      ['2026-11-23T00:00:00-05:00', '2026-11-28T04:42:00-05:00'],
      ['2025-11-24T00:00:00-05:00', '2025-11-29T04:42:00-05:00'],
    ],
    [
      '#hcsm same day last week',
      ['2026-11-28T00:00:00-05:00', '2026-11-28T04:42:00-05:00'],
      ['2026-11-21T00:00:00-05:00', '2026-11-21T04:42:00-05:00'],
    ],
    [
      '#hcsm same month last year',
      ['2026-11-01T00:00:00-04:00', '2026-11-28T04:42:00-05:00'],
      ['2025-11-01T00:00:00-04:00', '2025-11-28T04:42:00-05:00'],
    ],
  ])('reads %j as this period so far against it', (text, [start, end], [from, to]) => {
    expect(read(text)).toMatchObject({
      databases: ['#hcsm'],
      start,
      end,
      compare: { start: from, end: to },
    });
  });

  it('keeps `with the most` out of the databases (with the most impressions)', () => {
    const request = read('#hcsm last week with the most impressions');
    expect(request).toMatchObject({ databases: ['#hcsm'], metric: 'impressions' });
    expect(read('#hcsm with the highest reach last week')).toMatchObject({
      databases: ['#hcsm'],
      metric: 'impressions',
    });
  });
});
