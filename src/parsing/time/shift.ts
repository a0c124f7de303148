/**
 * Moving an instant by whole units, as luxon's `plus`, `minus` and `diff` do, at a fraction of
 * their cost: they build and normalise Durations on every call, which made them the largest single
 * cost of reading a command's window. Each function names the luxon call it stands for, and its
 * tests hold it to that call around DST changes.
 */
import { DateTime } from 'luxon';
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
      return instant.set({ day: instant.day + amount });
    case 'week':
      return instant.set({ day: instant.day + 7 * amount });
    case 'month':
      return instant.set({ month: instant.month + amount });
    case 'quarter':
      return instant.set({ month: instant.month + 3 * amount });
    case 'year':
      return instant.set({ year: instant.year + amount });
  }
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
