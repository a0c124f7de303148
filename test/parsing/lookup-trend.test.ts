import { describe, expect, it } from 'vitest';
import { parseLookup } from '../../src/parsing/index.ts';
import { trendPeriods } from '../../src/time/periods.ts';
import { failure, lookup, saturday } from './lookup-helpers.ts';

const newYork = 'America/New_York';

describe('parseLookup trends', () => {
  it.each([
    ['#hcsm last 8 weeks weekly', 'week'],
    ['#hcsm last 8 weeks by week', 'week'],
    ['#hcsm per week last 8 weeks', 'week'],
    ['#hcsm each week last 8 weeks', 'week'],
    ['#hcsm last 8 weeks week by week', 'week'],
    ['#hcsm last 8 weeks weekly trend', 'week'],
    ['#hcsm trend by week last 8 weeks', 'week'],
    ['#hcsm last 8 weeks Weekly', 'week'],
  ] as const)('reads %j as the current ISO week so far and the seven before it', (text, unit) => {
    const request = lookup(text, newYork);
    expect(request).toMatchObject({
      databases: ['#hcsm'],
      start: '2026-09-28T00:00:00-04:00',
      end: '2026-11-21T10:30:00-05:00',
      trend: { unit },
    });
    const periods = trendPeriods(request, unit);
    expect(periods).toHaveLength(8);
    expect(periods.at(-1)).toEqual({
      start: '2026-11-16T00:00:00-05:00',
      end: '2026-11-21T10:30:00-05:00',
      partial: true,
    });
  });

  it.each([
    ['#hcsm daily', 'day', '2026-11-08T00:00:00+00:00', 14],
    ['#hcsm by day', 'day', '2026-11-08T00:00:00+00:00', 14],
    ['#hcsm weekly', 'week', '2026-09-28T00:00:00+00:00', 8],
    ['#hcsm by month', 'month', '2026-06-01T00:00:00+00:00', 6],
    ['#hcsm monthly', 'month', '2026-06-01T00:00:00+00:00', 6],
  ] as const)(
    'gives %j without a window its default periods, to now',
    (text, unit, start, count) => {
      const request = lookup(text);
      expect(request).toMatchObject({ start, end: '2026-11-21T15:30:00+00:00', trend: { unit } });
      expect(trendPeriods(request, unit)).toHaveLength(count);
    },
  );

  it.each([
    // The ISO weeks that begin in October 2026: the 5th to the 26th, the last one whole.
    ['#hcsm last month by week', 'week', '2026-10-05T00:00:00+00:00', '2026-11-02T00:00:00+00:00'],
    ['#hcsm this year by month', 'month', '2026-01-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
    ['#hcsm last week daily', 'day', '2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
    ['#hcsm Q3 by month', 'month', '2026-07-01T00:00:00+00:00', '2026-10-01T00:00:00+00:00'],
  ] as const)('reads %j as the whole units that begin in its window', (text, unit, start, end) => {
    expect(lookup(text)).toMatchObject({ start, end, trend: { unit } });
  });

  it('shows a table and a chart whatever else was asked, and keeps the top N for its file', () => {
    expect(lookup('#hcsm weekly chart')).not.toHaveProperty('presentation');
    expect(lookup('#hcsm weekly table top 20')).toMatchObject({ top: 20 });
    expect(lookup('#hcsm weekly table top 20')).not.toHaveProperty('presentation');
    expect(lookup('#hcsm weekly export')).toMatchObject({ top: 10, export: true });
    expect(lookup('#hcsm weekly by impressions')).toMatchObject({ metric: 'impressions' });
  });

  it('ends the current period at the minute, so a repeat within it is the same request', () => {
    const later = new Date(saturday.getTime() + 29_000);
    expect(lookup('#hcsm weekly', 'UTC', later)).toEqual(lookup('#hcsm weekly'));
  });

  it.each([
    [
      '#hcsm last 30 days daily',
      'A trend shows at most 20 periods, and “last 30 days” holds more than 20 days: ask for a shorter window, or go by week. Try: /influencers #hcsm last 14 days daily',
    ],
    [
      '#hcsm this year weekly',
      'A trend shows at most 20 periods, and “this year” holds more than 20 weeks: ask for a shorter window, or go by month. Try: /influencers #hcsm last 8 weeks weekly',
    ],
    [
      '#hcsm today by day',
      'A trend needs at least 2 days to compare, and “today” holds only one day that begins in it: ask for a longer window. Try: /influencers #hcsm last 14 days daily',
    ],
    [
      '#bcsm this week monthly',
      'A trend needs at least 2 months to compare, and “this week” holds no month that begins in it: ask for a longer window. Try: /influencers #bcsm last 6 months monthly',
    ],
    [
      '#hcsm hourly',
      'A trend goes by day, week or month: “hourly” is none of them. Try: /influencers #hcsm daily',
    ],
    [
      '#hcsm last year by quarter',
      'A trend goes by day, week or month: “by quarter” is none of them. Try: /influencers #hcsm last year monthly',
    ],
    [
      '#hcsm weekly vs previous period',
      'A trend compares its periods with one another already: leave out “vs previous period”. Try: /influencers #hcsm last 8 weeks weekly',
    ],
    [
      '#hcsm weekly chart categories',
      'A trend comes as a table of ranks and a line chart of the top five: leave out “chart categories”. Try: /influencers #hcsm last 8 weeks weekly',
    ],
    [
      '#hcsm weekly top 200 export',
      'A trend’s table shows at most 100 people, and “top 200” asks for more. Try: /influencers #hcsm last 8 weeks weekly top 100',
    ],
    [
      '#hcsm weekly by day',
      'The trend is given twice (again in “by day”): give it once. Try: /influencers #hcsm weekly',
    ],
  ])('refuses %j', (text, message) => {
    expect(failure(text).message).toBe(message);
  });
});

describe('parseLookup one person', () => {
  it('reads a handle with `in` before its database, compared with the previous period', () => {
    expect(lookup('@DrFerreiraI in #hcsm last month', newYork)).toEqual({
      databases: ['#hcsm'],
      start: '2026-10-01T00:00:00-04:00',
      end: '2026-11-01T00:00:00-04:00',
      timezone: newYork,
      top: 10,
      compare: lookup('#hcsm last month vs previous period', newYork).compare,
      person: 'DrFerreiraI',
    });
  });

  it.each([
    ['@DrFerreiraI #hcsm last month', 'DrFerreiraI', ['#hcsm']],
    ['#hcsm @dr_ana_2 last month', 'dr_ana_2', ['#hcsm']],
    ['@x on "breast cancer" last month', 'x', ['breast cancer']],
    ['@x in breast cancer last month', 'x', ['breast cancer']],
    ['@x for #hcsm and #bcsm last month', 'x', ['#hcsm', '#bcsm']],
    ['@x did in #hcsm last month', 'x', ['#hcsm']],
  ])('reads %j', (text, person, databases) => {
    expect(lookup(text)).toMatchObject({ person, databases });
  });

  it('keeps a comparison that was asked for', () => {
    expect(lookup('@x in #hcsm last month vs last year').compare).toEqual(
      lookup('#hcsm last month vs last year').compare,
    );
  });

  it('reads the question in a conversation, its opening left out', () => {
    const asked = parseLookup('how did @DrFerreiraI do in #hcsm last month?', {
      now: saturday,
      zone: newYork,
      conversation: true,
    });
    expect(asked).toEqual(lookup('@DrFerreiraI in #hcsm last month', newYork));
  });

  it.each([
    [
      '@dr-ana in #hcsm',
      '“@dr-ana” is not an X handle: a handle is @ and up to 15 letters, digits or underscores. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a_very_long_handle_indeed #hcsm',
      '“@a_very_long_handle_indeed” is not an X handle: a handle is @ and up to 15 letters, digits or underscores. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a @b in #hcsm',
      'One person at a time: “@a” and “@b” are two. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a in #hcsm top 5',
      'A lookup of one person gives their rank among the top 500, the change since the previous period and their rank in each of the last 8 weeks: leave out “top 5”. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a in #hcsm weekly',
      'A lookup of one person gives their rank among the top 500, the change since the previous period and their rank in each of the last 8 weeks: leave out “weekly”. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a in #hcsm export',
      'A lookup of one person gives their rank among the top 500, the change since the previous period and their rank in each of the last 8 weeks: leave out “export”. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a in #hcsm excluding orgs',
      'A lookup of one person gives their rank among the top 500, the change since the previous period and their rank in each of the last 8 weeks: leave out “excluding orgs”. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a in #hcsm by followers',
      'A lookup of one person gives their rank among the top 500, the change since the previous period and their rank in each of the last 8 weeks: leave out “by followers”. Try: /influencers @DrFerreiraI in #hcsm last month',
    ],
    [
      '@a last month',
      'No database in “@a last month”: name at least one #hashtag, "quoted phrase", ID or group:<name>. Try: /influencers #hcsm @a last month',
    ],
  ])('refuses %j', (text, message) => {
    expect(failure(text).message).toBe(message);
  });
});
