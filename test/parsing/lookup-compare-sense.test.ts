import { describe, expect, it } from 'vitest';
import { failure, lookup } from './lookup-helpers.ts';

const now = new Date('2026-11-21T10:35:00Z');
const read = (text: string) => lookup(text, 'UTC', now);

describe('comparisons that make sense', () => {
  it.each([
    ['#hcsm last week vs last week', 'vs last week', '#hcsm last week vs previous period'],
    ['#hcsm last 7 days vs last 7 days', 'vs last 7 days', '#hcsm last 7 days vs previous period'],
    [
      '#hcsm yesterday compared to yesterday',
      'compared to yesterday',
      '#hcsm yesterday vs previous period',
    ],
  ])('refuses %j, a window compared with itself', (text, fragment, command) => {
    const error = failure(text, 'UTC', now);
    expect(error).toMatchObject({ reason: 'bad_time', fragment });
    expect(error.message).toContain('with itself, and every change would be ±0');
    expect(error.message.endsWith(`Try: /influencers ${command}`)).toBe(true);
  });

  it.each([
    ['#hcsm last 7 days vs previous 7 days', '#hcsm last 7 days vs previous period'],
    ['#hcsm last 30 days vs the previous 30 days', '#hcsm last 30 days vs previous period'],
    ['#hcsm last 7 days vs preceding week', '#hcsm last 7 days vs previous period'],
    ['#hcsm last month vs previous month', '#hcsm last month vs the month before'],
    ['#hcsm last month vs prior month top 5', '#hcsm last month vs the month before top 5'],
    ['#hcsm yesterday vs previous day', '#hcsm yesterday vs the day before yesterday'],
  ])('reads %j as one comparison, as %j', (text, canonical) => {
    expect(read(text)).toEqual(read(canonical));
  });

  it('reads a longer period before the window when asked for one', () => {
    expect(read('#hcsm last 7 days vs previous 14 days').compare).toEqual({
      start: '2026-10-31T10:35:00+00:00',
      end: '2026-11-14T10:35:00+00:00',
    });
  });
});
