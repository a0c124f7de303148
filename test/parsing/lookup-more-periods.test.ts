import { describe, expect, it } from 'vitest';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { failure, lookup, window } from './lookup-helpers.ts';

/** Saturday 21 Nov 2026, 10:35 UTC. */
const now = new Date('2026-11-21T10:35:00Z');
const at = (text: string) => window(text, 'UTC', now);

describe('periods in more spellings', () => {
  it.each([
    ['#hcsm month to date', '2026-11-01T00:00:00+00:00'],
    ['#hcsm month-to-date', '2026-11-01T00:00:00+00:00'],
    ['#hcsm quarter to date', '2026-10-01T00:00:00+00:00'],
    ['#hcsm quarter-to-date', '2026-10-01T00:00:00+00:00'],
    ['#hcsm year-to-date', '2026-01-01T00:00:00+00:00'],
    ['#hcsm week-to-date', '2026-11-16T00:00:00+00:00'],
    ['#hcsm this month so far', '2026-11-01T00:00:00+00:00'],
    ['#hcsm since the start of the week', '2026-11-16T00:00:00+00:00'],
    ['#hcsm since the start of the month', '2026-11-01T00:00:00+00:00'],
    ['#hcsm since the beginning of the quarter', '2026-10-01T00:00:00+00:00'],
    ['#hcsm since the start of the year', '2026-01-01T00:00:00+00:00'],
    ['#hcsm since start of year', '2026-01-01T00:00:00+00:00'],
    ['#hcsm from the start of last month', '2026-10-01T00:00:00+00:00'],
  ])('reads %j as from %s to now', (text, start) => {
    expect(at(text)).toEqual([start, '2026-11-21T10:35:00+00:00']);
  });

  it.each([
    ['#hcsm the last week of October', '2026-10-25T00:00:00+00:00', '2026-11-01T00:00:00+00:00'],
    ['#hcsm last week of October 2025', '2025-10-25T00:00:00+00:00', '2025-11-01T00:00:00+00:00'],
    ['#hcsm the first week of November', '2026-11-01T00:00:00+00:00', '2026-11-08T00:00:00+00:00'],
    [
      '#hcsm in the last week of February',
      '2026-02-22T00:00:00+00:00',
      '2026-03-01T00:00:00+00:00',
    ],
    ['#hcsm last couple of days', '2026-11-19T10:35:00+00:00', '2026-11-21T10:35:00+00:00'],
  ])('reads %j', (text, start, end) => {
    expect(at(text)).toEqual([start, end]);
  });

  it.each([
    ['#hcsm recently', 'recently', '#hcsm last 7 days'],
    ['#hcsm lately', 'lately', '#hcsm last 7 days'],
    ['#hcsm last few days', 'last few days', '#hcsm last 3 days'],
    ['#hcsm past few weeks', 'past few weeks', '#hcsm last 3 weeks'],
    ['#hcsm over the last several months', 'last several months', '#hcsm over the last 3 months'],
  ])('refuses %j with concrete windows, never as a database', (text, fragment, command) => {
    const error = failure(text, 'UTC', now);
    expect(error).toMatchObject({ reason: 'bad_time', fragment });
    expect(error.message).toContain('has no agreed length: choose a window');
    expect(error.message.endsWith(`Try: /influencers ${command}`)).toBe(true);
    expect(lookup(command, 'UTC', now).databases).toEqual(['#hcsm']);
  });

  it('asks whether a lone year is the year or a database ID', () => {
    const error = failure('#hcsm 2026', 'UTC', now);
    expect(error).toMatchObject({ reason: 'bad_time', fragment: '2026' });
    expect(error.message).toBe(
      '“2026” could be the year 2026 or the database with ID 2026: say in 2026 for the year, or put the ID in quotes ("2026"). Try: /influencers #hcsm in 2026',
    );
    expect(lookup('#hcsm "2026"', 'UTC', now).databases).toEqual(['#hcsm', '2026']);
    expect(lookup('#hcsm 4711', 'UTC', now).databases).toEqual(['#hcsm', '4711']);
  });

  it('asks about a lone year in a digest too', () => {
    expect(
      parseDigestCommand('digest #hcsm 2026 every monday', { now, zone: 'UTC' }),
    ).toMatchObject({ reason: 'bad_time', fragment: '2026' });
  });
});
