import { describe, expect, it } from 'vitest';
import {
  dayEnd,
  dayOf,
  dayStart,
  dayWindow,
  eventDayAt,
  eventDays,
  eventWindow,
} from '../../../src/digests/conferences/days.ts';

const hours = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 3_600_000;

describe('conference days', () => {
  it('lists the event days, first to last, across a month end', () => {
    expect(eventDays({ firstDay: '2026-05-29', lastDay: '2026-06-02', zone: 'UTC' })).toEqual([
      '2026-05-29',
      '2026-05-30',
      '2026-05-31',
      '2026-06-01',
      '2026-06-02',
    ]);
  });

  it('DST spring forward in Chicago: Sunday March 14, 2027 lasts 23 hours, midnight to midnight', () => {
    expect(dayStart('2027-03-14', 'America/Chicago')).toEqual(new Date('2027-03-14T06:00:00Z'));
    expect(dayEnd('2027-03-14', 'America/Chicago')).toEqual(new Date('2027-03-15T05:00:00Z'));
    expect(
      hours(dayStart('2027-03-14', 'America/Chicago'), dayEnd('2027-03-14', 'America/Chicago')),
    ).toBe(23);
  });

  it('DST fall back in Chicago: Sunday November 1, 2026 lasts 25 hours, midnight to midnight', () => {
    const start = dayStart('2026-11-01', 'America/Chicago');
    const end = dayEnd('2026-11-01', 'America/Chicago');
    expect([start, end]).toEqual([
      new Date('2026-11-01T05:00:00Z'),
      new Date('2026-11-02T06:00:00Z'),
    ]);
    expect(hours(start, end)).toBe(25);
    // The hour repeated at 01:00 is still the same day, and the next starts at local midnight.
    expect(dayOf(new Date('2026-11-02T05:59:59Z'), 'America/Chicago')).toBe('2026-11-01');
    expect(dayOf(new Date('2026-11-02T06:00:00Z'), 'America/Chicago')).toBe('2026-11-02');
  });

  it('DST in Europe: a congress in Paris over the last Sunday of October', () => {
    const spec = { firstDay: '2026-10-24', lastDay: '2026-10-26', zone: 'Europe/Paris' };
    expect(eventDayAt(spec, new Date('2026-10-25T22:59:59Z'))).toBe('2026-10-25');
    expect(eventDayAt(spec, new Date('2026-10-25T23:00:00Z'))).toBe('2026-10-26');
    expect(eventDayAt(spec, new Date('2026-10-23T21:59:59Z'))).toBeUndefined();
    expect(eventDayAt(spec, new Date('2026-10-26T23:00:00Z'))).toBeUndefined();
    expect(eventWindow(spec, new Date('2027-01-01T00:00:00Z'))).toEqual({
      start: '2026-10-24T00:00:00+02:00',
      end: '2026-10-27T00:00:00+01:00',
    });
  });

  it('asks a day up to now, never an empty window at the very start of a day', () => {
    expect(dayWindow('2026-05-29', 'America/Chicago', new Date('2026-05-29T19:30:00Z'))).toEqual({
      start: '2026-05-29T00:00:00-05:00',
      end: '2026-05-29T14:30:00-05:00',
    });
    expect(dayWindow('2026-05-29', 'America/Chicago', new Date('2026-05-29T05:00:00Z'))).toEqual({
      start: '2026-05-29T00:00:00-05:00',
      end: '2026-05-29T00:01:00-05:00',
    });
  });
});
