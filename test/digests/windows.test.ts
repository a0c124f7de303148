/**
 * What each run covers: by default the time since the previous scheduled run, so consecutive
 * posts tile time; an explicit window as written, at run time, in the digest's zone. The duplicate
 * check compares what digests cover, not how their schedules are written.
 */
import { describe, expect, it } from 'vitest';
import { manualRunWindow, runWindow } from '../../src/digests/run-window.ts';
import { identicalDigest } from '../../src/flows/digest-checks.ts';
import type { Digest } from '../../src/model/digest.ts';
import { type DigestSpec, parseDigestCommand } from '../../src/parsing/digest.ts';
import { nextRuns } from '../../src/time/schedule.ts';

// Saturday 21 November 2026, 15:30 UTC.
const now = new Date('2026-11-21T15:30:00Z');

function spec(text: string, zone = 'Europe/London'): DigestSpec {
  const command = parseDigestCommand(text, { now, zone });
  if (!('kind' in command) || command.kind !== 'create') throw new Error(`not created: ${text}`);
  return command.spec;
}

const windows = (each: DigestSpec, count = 3) =>
  nextRuns(each.schedule, now, count).map((slot) => {
    const { start, end } = runWindow(each, slot);
    return `${start} → ${end}`;
  });

describe('the default window: the time since the previous scheduled run', () => {
  it('tiles weekdays at 8:30: Monday covers Friday 08:30 to Monday 08:30', () => {
    expect(windows(spec('digest #hcsm weekdays at 8:30'), 2)).toEqual([
      '2026-11-20T08:30:00+00:00 → 2026-11-23T08:30:00+00:00',
      '2026-11-23T08:30:00+00:00 → 2026-11-24T08:30:00+00:00',
    ]);
  });

  it('covers the 7 days before a weekly run and the month between monthly runs', () => {
    expect(windows(spec('digest #hcsm every monday at 9am'), 1)).toEqual([
      '2026-11-16T09:00:00+00:00 → 2026-11-23T09:00:00+00:00',
    ]);
    expect(windows(spec('digest #hcsm every month on the 1st at 9am'), 1)).toEqual([
      '2026-11-01T00:00:00+00:00 → 2026-12-01T00:00:00+00:00',
    ]);
  });

  it('DST: spring forward in New York, the Monday run covers 7 days of 167 hours', () => {
    const weekly = spec('digest #hcsm every monday at 9am', 'America/New_York');
    expect(runWindow(weekly, new Date('2027-03-15T13:00:00Z'))).toEqual({
      start: '2027-03-08T09:00:00-05:00',
      end: '2027-03-15T09:00:00-04:00',
      timezone: 'America/New_York',
    });
  });
});

describe('an explicit window, as written, at run time', () => {
  it('last week on a Monday at 9am is the Monday-to-Sunday week just ended', () => {
    const lastWeek = spec('digest #hcsm every monday at 9am last week');
    expect(lastWeek.window).toEqual({ kind: 'calendar', unit: 'week' });
    expect(windows(lastWeek, 2)).toEqual([
      '2026-11-16T00:00:00+00:00 → 2026-11-23T00:00:00+00:00',
      '2026-11-23T00:00:00+00:00 → 2026-11-30T00:00:00+00:00',
    ]);
  });

  it('DST: last week across the October fall-back in London is 169 hours, midnight to midnight', () => {
    const lastWeek = spec('digest #hcsm every monday at 9am last week');
    expect(runWindow(lastWeek, new Date('2026-10-26T09:00:00Z'))).toEqual({
      start: '2026-10-19T00:00:00+01:00',
      end: '2026-10-26T00:00:00+00:00',
      timezone: 'Europe/London',
    });
  });

  it('last month and last quarter are the calendar ones before each run; Run now the one before now', () => {
    const lastMonth = spec('digest #hcsm every friday at 5pm last month');
    expect(windows(lastMonth, 1)).toEqual([
      '2026-10-01T00:00:00+01:00 → 2026-11-01T00:00:00+00:00',
    ]);
    const quarter = spec('digest #hcsm every monday at 9am last quarter');
    expect(windows(quarter, 1)).toEqual(['2026-07-01T00:00:00+01:00 → 2026-10-01T00:00:00+01:00']);
    expect(manualRunWindow(lastMonth, now)).toMatchObject({
      start: '2026-10-01T00:00:00+01:00',
      end: '2026-11-01T00:00:00+00:00',
    });
  });

  it('keeps last 24 hours as written: weekdays at 8:30 then leave the weekend out', () => {
    expect(windows(spec('digest #hcsm weekdays at 8:30 last 24 hours'), 1)).toEqual([
      '2026-11-22T08:30:00+00:00 → 2026-11-23T08:30:00+00:00',
    ]);
  });
});

describe('the duplicate check compares what digests cover', () => {
  const existing = (text: string): Digest =>
    ({ ...spec(text), id: 'AAAAAA', postWhen: 'always' }) as unknown as Digest;

  it('creates last week beside the default weekly digest: they cover different periods', () => {
    const weekly = existing('digest #hcsm every monday at 9am');
    expect(identicalDigest([weekly], spec('digest #hcsm every monday at 9am last week'), now)).toBe(
      undefined,
    );
  });

  it('finds the same runs written another way', () => {
    const weekly = existing('digest #hcsm every monday at 9am');
    expect(identicalDigest([weekly], spec('digest #hcsm cron "0 9 * * 1"'), now)).toBe(weekly);
    const monthly = existing('digest #hcsm every month on the 1st at 9am');
    expect(
      identicalDigest(
        [monthly],
        spec('digest #hcsm every month on the 1st at 9am last month'),
        now,
      ),
    ).toBe(monthly);
  });

  it('tells a digest at another time apart, though it covers the same week', () => {
    const nine = existing('digest #hcsm every monday at 9am last week');
    expect(identicalDigest([nine], spec('digest #hcsm every monday at 10am last week'), now)).toBe(
      undefined,
    );
  });
});
