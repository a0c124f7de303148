import { describe, expect, it } from 'vitest';
import { formatInZone, isAcceptedZone, parseTimestamp } from '../../src/sandbox/timestamps.ts';

// Tuesday 10 March 2026, two days after New York moved to daylight time (8 March, 02:00 local).
const now = new Date('2026-03-10T15:20:30Z');

describe('parseTimestamp', () => {
  it.each([
    ['now', '2026-03-10T15:20:30Z', 'now'],
    ['NOW', '2026-03-10T15:20:30Z', 'now'],
    ['1772000000', '2026-02-25T06:13:20Z', 'unix'],
    ['2026-03-01T10:00:00+02:00', '2026-03-01T08:00:00Z', 'iso-offset'],
    ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z', 'iso-offset'],
    ['2026-03-01 10:00:00-0530', '2026-03-01T15:30:00Z', 'iso-offset'],
    ['2026-03-01T10:00+01', '2026-03-01T09:00:00Z', 'iso-offset'],
    ['2026-03-01T10:00:00', '2026-03-01T10:00:00Z', 'iso-local'],
    ['2026-03-01T10:00:00.600', '2026-03-01T10:00:01Z', 'iso-local'],
    ['2026-03-01T10:00:00.400', '2026-03-01T10:00:00Z', 'iso-local'],
    ['2026-03-01', '2026-03-01T00:00:00Z', 'date'],
    ['9/1/26', '2026-09-01T00:00:00Z', 'us-date'],
    ['9/1/26 2:30 pm', '2026-09-01T14:30:00Z', 'us-date'],
    ['09/01/26 2:30PM', '2026-09-01T14:30:00Z', 'us-date'],
    ['9/1/26 12:15 am', '2026-09-01T00:15:00Z', 'us-date'],
    ['9/1/26 14:05:09', '2026-09-01T14:05:09Z', 'us-date'],
    ['12/31/99 11:59:59 p.m.', '1999-12-31T23:59:59Z', 'us-date'],
    ['9/1/2026', '2026-09-01T00:00:00Z', 'us-date'],
    ['3 days ago', '2026-03-07T15:20:30Z', 'relative'],
    ['2 weeks ago', '2026-02-24T15:20:30Z', 'relative'],
    ['1 hour ago', '2026-03-10T14:20:30Z', 'relative'],
    ['an hour ago', '2026-03-10T14:20:30Z', 'relative'],
    ['1 month ago', '2026-02-10T15:20:30Z', 'relative'],
    ['-1 week', '2026-03-03T15:20:30Z', 'relative'],
    ['September 1, 2026', '2026-09-01T00:00:00Z', 'english'],
    ['yesterday', '2026-03-09T00:00:00Z', 'english'],
    ['last monday', '2026-03-09T00:00:00Z', 'english'],
    ['Sep 1 2026 2:30pm', '2026-09-01T14:30:00Z', 'english'],
    ['1 Sept 2026 10:00 EST', '2026-09-01T15:00:00Z', 'english'],
  ])('reads %j in UTC as %s (%s)', (value, expected, form) => {
    expect(parseTimestamp(value, { now, zone: 'UTC' })).toEqual({
      ok: true,
      instant: new Date(expected),
      form,
    });
  });

  it.each([
    ['now', '2026-03-10T15:20:30Z', 'unchanged by the zone'],
    ['1772000000', '2026-02-25T06:13:20Z', 'unix seconds ignore the zone'],
    ['2026-03-01T10:00:00+02:00', '2026-03-01T08:00:00Z', 'the offset wins over the zone'],
    ['2026-03-01T10:00:00', '2026-03-01T15:00:00Z', 'standard time, UTC-5'],
    ['2026-03-09T10:00:00', '2026-03-09T14:00:00Z', 'daylight time, UTC-4'],
    ['2026-03-08', '2026-03-08T05:00:00Z', 'midnight of the DST change day is still standard time'],
    ['2026-03-09', '2026-03-09T04:00:00Z', 'midnight after the DST change is daylight time'],
    ['2026-03-08T02:30:00', '2026-03-08T07:30:00Z', 'a time in the DST gap moves forward an hour'],
    ['3/8/26 1:30 am', '2026-03-08T06:30:00Z', 'just before the DST change'],
    ['3/8/26 3:30 am', '2026-03-08T07:30:00Z', 'just after the DST change'],
    [
      '11/1/26 1:30 am',
      '2026-11-01T05:30:00Z',
      'the repeated hour of the fall change takes the first one',
    ],
    ['3 days ago', '2026-03-07T16:20:30Z', 'days are calendar days across the DST change'],
    ['72 hours ago', '2026-03-07T15:20:30Z', 'hours are elapsed time across the DST change'],
    ['yesterday', '2026-03-09T04:00:00Z', 'midnight in the zone'],
    ['tomorrow 9am', '2026-03-11T13:00:00Z', 'a time of day in the zone'],
    ['September 1, 2026', '2026-09-01T04:00:00Z', 'midnight in the zone'],
  ])('reads %j in America/New_York as %s (%s)', (value, expected) => {
    const result = parseTimestamp(value, { now, zone: 'America/New_York' });
    expect(result.ok && result.instant.toISOString()).toBe(new Date(expected).toISOString());
  });

  describe('asked in November, at 01:30:30.6 in New York', () => {
    const november = new Date('2026-11-21T06:30:30.600Z');
    const read = (value: string) => {
      const result = parseTimestamp(value, { now: november, zone: 'America/New_York' });
      return result.ok ? `${result.instant.toISOString()} ${result.form}` : result.reason;
    };

    it.each([
      ['Jan 5', '2026-01-05T05:00:00.000Z english', 'the January just past, not the next one'],
      ['January 5', '2026-01-05T05:00:00.000Z english', 'the January just past, not the next one'],
      ['Jan 5 3pm', '2026-01-05T20:00:00.000Z english', 'with a time of day'],
      ['Nov 21', '2026-11-21T05:00:00.000Z english', 'today, already begun'],
      ['Nov 22', '2025-11-22T05:00:00.000Z english', 'tomorrow has not happened this year yet'],
      ['Dec 25', '2025-12-25T05:00:00.000Z english', 'last Christmas'],
      ['January 5, 2027', '2027-01-05T05:00:00.000Z english', 'a year given is kept'],
      ['tomorrow 9am', '2026-11-22T14:00:00.000Z english', 'a relative day stays ahead'],
    ])('reads the yearless or relative %j as %s (%s)', (value, expected) => {
      expect(read(value)).toBe(expected);
    });

    it.each([
      ['20260105', '2026-01-05T05:00:00.000Z date'],
      ['19991231', '1999-12-31T05:00:00.000Z date'],
      ['20261340', 'it is not a valid date or time'],
      ['202601051', '1976-06-02T22:04:11.000Z unix'],
    ])('reads eight digits as YYYYMMDD: %j is %s', (value, expected) => {
      expect(read(value)).toBe(expected);
    });

    it('counts every relative phrase from the same whole second', () => {
      const week = '2026-11-14T06:30:31.000Z';
      expect(read('last week')).toBe(`${week} english`);
      expect(read('7 days ago')).toBe(`${week} relative`);
      expect(read('1 week ago')).toBe(`${week} relative`);
      expect(read('-7 days')).toBe(`${week} relative`);
      expect(read('now')).toBe('2026-11-21T06:30:31.000Z now');
    });
  });

  it('reads a date in Asia/Kolkata at local midnight, a half-hour offset', () => {
    const result = parseTimestamp('2026-03-01', { now, zone: 'Asia/Kolkata' });
    expect(result.ok && result.instant.toISOString()).toBe('2026-02-28T18:30:00.000Z');
  });

  it.each([
    ['', 'it is empty'],
    ['   ', 'it is empty'],
    ['garbage', 'it is not a recognised timestamp'],
    ['soon-ish', 'it is not a recognised timestamp'],
    ['last week or so maybe', 'it is not a recognised timestamp'],
    ['2026-03-01 and 2026-03-02', 'it is not a recognised timestamp'],
    ['13/45/26', 'it is not a valid date or time'],
    ['2/30/26', 'it is not a valid date or time'],
    ['2026-02-30', 'it is not a valid date or time'],
    ['2026-03-01T25:00:00', 'it is not a valid date or time'],
    ['9/1/26 13:00 pm', 'hour 13 is not valid with am/pm'],
    ['1772000000000', 'it is outside the years 1970 to 9999'],
    ['-5', 'it is outside the years 1970 to 9999'],
  ])('refuses %j: %s', (value, reason) => {
    for (const zone of ['UTC', 'America/New_York']) {
      expect(parseTimestamp(value, { now, zone })).toEqual({ ok: false, reason });
    }
  });

  it('refuses every value when the zone is not accepted', () => {
    expect(parseTimestamp('now', { now, zone: 'EST' })).toEqual({
      ok: false,
      reason: 'unknown zone EST',
    });
  });
});

describe('isAcceptedZone', () => {
  it.each([
    ['UTC', true],
    ['America/New_York', true],
    ['Europe/Paris', true],
    ['America/Argentina/Buenos_Aires', true],
    ['EST', false],
    ['+02:00', false],
    ['Mars/Phobos', false],
    ['', false],
  ])('accepts %j: %s', (zone, accepted) => {
    expect(isAcceptedZone(zone)).toBe(accepted);
  });
});

describe('formatInZone', () => {
  it('writes the instant with the zone offset, to the second', () => {
    expect(formatInZone(new Date('2026-03-09T14:00:00.000Z'), 'America/New_York')).toBe(
      '2026-03-09T10:00:00-04:00',
    );
    expect(formatInZone(new Date('2026-03-09T14:00:00.000Z'), 'UTC')).toBe('2026-03-09T14:00:00Z');
  });
});
