/**
 * The periods of a trend: whole days and calendar months in a zone, and ISO weeks (Monday to
 * Monday), each built by luxon in that zone, so a day across a DST change is 23 or 25 hours and
 * starts at the zone's own midnight. Pure: the clock is always given.
 *
 * One rule decides which periods a window holds: one per unit that begins within it, each a whole
 * unit, the last one cut at the current minute while it is still running (partial). So `last 8
 * weeks weekly` is the current week so far and the seven before it, `last 14 days daily` today so
 * far and the 13 days before, and `last month by week` the ISO weeks that begin in that month.
 */
import { DateTime } from 'luxon';
import { type TrendUnit, trendPeriodRange } from '../model/lookup.ts';
import { formatInstant } from './format.ts';
import { zoneFor } from './zones.ts';

/** One period of a trend, as a lookup's window is written. */
export interface Period {
  /** ISO 8601 with the zone's offset, to the second: `2026-11-16T00:00:00-05:00`. */
  readonly start: string;
  readonly end: string;
  /** Cut short before its unit ended: the current period, so far. */
  readonly partial: boolean;
}

/** Where a window's periods start and end, and how many it holds (at most one past the max). */
export interface PeriodSpan {
  readonly start: DateTime;
  readonly end: DateTime;
  readonly count: number;
}

const plural = { day: 'days', week: 'weeks', month: 'months' } as const;

/** The start of the unit after the one starting at `start` (a zone's midnight, whatever its DST). */
function nextStart(start: DateTime, unit: TrendUnit): DateTime {
  return start.plus({ [plural[unit]]: 1 }).startOf(unit);
}

/**
 * The span of the periods `[start, end)` holds in `unit`, read at `now`: from the first unit that
 * begins within it to the end of the last one, cut at `now`'s minute when that one is still
 * running. Counting stops one past {@link trendPeriodRange}'s max, enough to refuse; a count of 0
 * means no unit begins within the window.
 */
export function periodSpan(
  window: { readonly start: DateTime; readonly end: DateTime },
  unit: TrendUnit,
  now: DateTime,
): PeriodSpan {
  const minute = now.startOf('minute');
  let first = window.start.startOf(unit);
  if (first < window.start) first = nextStart(first, unit);
  let count = 0;
  let last = first;
  for (let cursor = first; cursor < window.end && count <= trendPeriodRange.max; ) {
    // A unit that has not run a whole minute yet holds nothing to rank.
    if (cursor >= minute) break;
    count += 1;
    last = cursor;
    cursor = nextStart(cursor, unit);
  }
  if (count === 0) return { start: first, end: first, count };
  const lastEnd = nextStart(last, unit);
  return { start: first, end: lastEnd > minute ? minute : lastEnd, count };
}

/**
 * The periods of a trend whose window is `start` to `end` (as {@link periodSpan} made it): whole
 * units from `start`, the last cut at `end` when the unit runs past it. At most
 * {@link trendPeriodRange}'s max; none for an unreadable window or zone.
 */
export function trendPeriods(
  window: { readonly start: string; readonly end: string; readonly timezone: string },
  unit: TrendUnit,
): Period[] {
  const zone = zoneFor(window.timezone);
  const stop = DateTime.fromISO(window.end, { zone });
  let cursor: DateTime = DateTime.fromISO(window.start, { zone });
  const periods: Period[] = [];
  if (!cursor.isValid || !stop.isValid) return periods;
  while (cursor < stop && periods.length < trendPeriodRange.max) {
    const next = nextStart(cursor, unit);
    const partial = next > stop;
    periods.push({
      start: formatInstant(cursor),
      end: formatInstant(partial ? stop : next),
      partial,
    });
    cursor = next;
  }
  return periods;
}

/**
 * The last `count` periods of `unit` at `now` in `zone`, as `last <count> <unit>s` with a trend
 * by that unit reads them: the current one so far and those before it.
 */
export function recentPeriods(unit: TrendUnit, count: number, now: Date, zone: string): Period[] {
  const at = DateTime.fromJSDate(now, { zone: zoneFor(zone) });
  const end = at.startOf('minute');
  const span = periodSpan({ start: end.minus({ [plural[unit]]: count }), end }, unit, at);
  if (span.count === 0) return [];
  return trendPeriods(
    { start: formatInstant(span.start), end: formatInstant(span.end), timezone: zone },
    unit,
  );
}
