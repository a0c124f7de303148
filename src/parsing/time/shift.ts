/**
 * Moving an instant by whole units, as luxon's `plus`, `minus` and `diff` do, at a fraction of
 * their cost: they build and normalise Durations on every call, which made them the largest single
 * cost of reading a command's window. Each function names the luxon call it stands for, and its
 * tests hold it to that call around DST changes.
 */
import { DateTime } from 'luxon';
import { daysInMonth } from './calendar.ts';
import type { Unit } from './vocabulary.ts';

const unitMs = { minute: 60_000, hour: 3_600_000 } as const;

/**
 * `instant.plus({ [unit + 's']: amount })` for a whole `amount`, the same instant and offset:
 * minutes and hours are exact lengths of time; days and weeks keep the wall-clock time (days
 * across a DST change are 23 or 25 hours); months, quarters and years keep the day of the month
 * unless the target month is shorter, then take its last day. The calendar cases set the fields
 * luxon's `plus` would compute, so the zone resolves them with the same guess, and a wall-clock
 * time that occurs twice or not at all comes out as `plus` would give it.
 */
export function shift(instant: DateTime, unit: Unit, amount: number): DateTime {
  switch (unit) {
    case 'minute':
    case 'hour':
      return DateTime.fromMillis(instant.toMillis() + amount * unitMs[unit], {
        zone: instant.zone,
      });
    case 'day':
      return withDate(instant, instant.year, instant.month, instant.day + amount);
    case 'week':
      return withDate(instant, instant.year, instant.month, instant.day + 7 * amount);
    case 'month':
      return withMonth(instant, instant.year, instant.month + amount);
    case 'quarter':
      return withMonth(instant, instant.year, instant.month + 3 * amount);
    case 'year':
      return withMonth(instant, instant.year + amount, instant.month);
  }
}

/** `instant.set({ year, month, day })`: the day may run past its month, as `set` allows. */
function withDate(instant: DateTime, year: number, month: number, day: number): DateTime {
  if (!instant.isValid) return instant;
  const { hour, minute, second, millisecond } = instant;
  return setWallClock(instant, year, month, day, hour, minute, second, millisecond);
}

/**
 * `instant.set({ year, month })`: the month may run past the year, and the day is kept unless
 * that month is shorter, then its last day, as `set` does.
 */
function withMonth(instant: DateTime, year: number, month: number): DateTime {
  const inYear = (((month - 1) % 12) + 12) % 12;
  const days = daysInMonth(year + (month - 1 - inYear) / 12, inYear + 1);
  return withDate(instant, year, month, Math.min(instant.day, days));
}

/**
 * `instant.set({ year, month, day, hour, minute, second, millisecond })` without luxon's generic
 * setter, which normalises and merges every unit of the object first and cost more than the rest
 * of reading most windows: the same local timestamp, and the same search for its offset starting
 * from `instant`'s (luxon's `fixOffset`), so a time the clocks show twice or skip reads as `set`
 * reads it. Fields may run past their unit (day 32, hour 24), as `set` allows.
 */
export function setWallClock(
  instant: DateTime,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond = 0,
): DateTime {
  let local = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  // Date.UTC reads the years 0 to 99 as 1900 to 1999.
  if (year >= 0 && year < 100) {
    const date = new Date(local);
    date.setUTCFullYear(year, month - 1, day);
    local = date.getTime();
  }
  const zone = instant.zone;
  const guess = instant.offset;
  let ts = local - guess * unitMs.minute;
  const found = zone.offset(ts);
  if (found !== guess) {
    ts -= (found - guess) * unitMs.minute;
    const again = zone.offset(ts);
    // A time the clocks skip: moved forward by the gap.
    if (again !== found) ts = local - Math.min(found, again) * unitMs.minute;
  }
  return DateTime.fromMillis(ts, { zone });
}

const dayMs = 86_400_000;

/** The date `instant`'s clock shows, in days since 1970-01-01. */
function dayNumber(instant: DateTime): number {
  const date = new Date(0);
  date.setUTCFullYear(instant.year, instant.month - 1, instant.day);
  return date.getTime() / dayMs;
}

/**
 * The start of the span that ends at `start` and is as long as `start` to `end` on the clock:
 * `start.minus(end.diff(start, ['days', 'milliseconds']))`, the same instant, without the
 * Durations. Whole days stay whole days across a DST change; the rest is exact time.
 */
export function sameLengthBefore(start: DateTime, end: DateTime): DateTime {
  let days = dayNumber(end) - dayNumber(start);
  let cursor = shift(start, 'day', days);
  // As luxon does: the calendar count may overshoot by a day or two around a zone's changes.
  for (let back = 0; back < 2 && cursor > end; back++) {
    days--;
    cursor = shift(start, 'day', days);
  }
  const rest = end.toMillis() - cursor.toMillis();
  const before = shift(start, 'day', -days);
  if (rest === 0) return before;
  return DateTime.fromMillis(before.toMillis() - rest, { zone: start.zone });
}
