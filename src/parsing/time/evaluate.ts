/**
 * Gives a `TimeExpression` its meaning at a `now` in an IANA zone. Every wall-clock step (start of
 * day, week, month; adding days) is done by luxon in that zone, so days across a DST change are
 * 23 or 25 hours long and midnight is the zone's midnight.
 */
import { DateTime, FixedOffsetZone } from 'luxon';
import { formatInstant } from '../../time/format.ts';
import { zoneFor } from '../../time/zones.ts';
import { parseErrors } from '../messages/lookup.ts';
import type { DateRef, Moment, NamedPeriod, TimeExpression, TimeOfDay } from './ast.ts';
import { isRealDate, isRealTime } from './calendar.ts';
import { namedDays } from './named-periods.ts';
import { setWallClock, shift } from './shift.ts';
import { partsOfDay } from './vocabulary.ts';

export interface TimeContext {
  /** The reference instant; it is truncated to the second, the service's resolution. */
  readonly now: Date;
  /** A zone luxon accepts: pass it through `resolveZone` first. */
  readonly zone: string;
}

/** A validated window: start < end <= now, both whole seconds, both in the context's zone. */
export interface TimeWindow {
  readonly start: DateTime;
  readonly end: DateTime;
}

/**
 * The window, unless it starts before the first day with data (`YYYY-MM-DD`, in the window's
 * zone): the service has nothing before it, so the question is refused before reaching it.
 * @throws ParseError `bad_time` naming the start and that day.
 */
export function checkEarliest(window: TimeWindow, earliest: string, fragment: string): TimeWindow {
  if (window.start.toMillis() < firstDay(earliest, window.start)) {
    throw parseErrors.beforeData(fragment, formatInstant(window.start), earliest);
  }
  return window;
}

interface Span {
  readonly start: DateTime;
  readonly end: DateTime;
  /** A single instant (start = end) rather than a stretch of time. */
  readonly point: boolean;
}

/** How far a missing year is searched for (Feb 29 needs up to 8). */
const yearSearch = 8;

/** The zone's `now`, truncated to the second. */
export function zonedNow(context: TimeContext): DateTime {
  return DateTime.fromMillis(Math.floor(context.now.getTime() / 1000) * 1000, {
    zone: zoneFor(context.zone),
  });
}

const firstDays = new Map<string, number>();

/** The start of day `date` in the zone of `instant`, in epoch milliseconds; cached, per zone. */
function firstDay(date: string, instant: DateTime): number {
  const key = `${date} ${instant.zoneName ?? ''}`;
  let first = firstDays.get(key);
  if (first === undefined) {
    first = DateTime.fromISO(date, { zone: instant.zone }).toMillis();
    if (firstDays.size < 1_000) firstDays.set(key, first);
  }
  return first;
}

/**
 * What windows counted back from now (`last 7 days`, `48h`, `2 weeks ago`, the default window)
 * count from and end at: the current minute, so the same question asked within a minute is the
 * same request, and shares one analytics call and the response cache.
 */
function rollingNow(now: DateTime): DateTime {
  return now.startOf('minute');
}

/**
 * The window an expression denotes. Past bias fills in missing years and weeks, except at the end
 * of a range, which is read forward from its start (`Dec 20 to Jan 5` crosses New Year); the end
 * of a range is the end of what it names (`Oct 1 to Oct 31` holds all of Oct 31), and is then
 * clamped to now. An end that comes before the start as written (`Nov 15 to Nov 1`) is refused.
 * @param fragment the expression as typed, quoted by errors.
 * @throws ParseError `bad_time` (a lone instant, or beyond the years 1-9999), `future_start`,
 *   `empty_window`, `inverted_window`.
 */
export function evaluateTimeExpression(
  expression: TimeExpression,
  context: TimeContext,
  fragment: string,
): TimeWindow {
  const now = zonedNow(context);
  if (!inRange(now)) throw parseErrors.outOfRange(fragment);
  const span = (moment: Moment, anchor?: DateTime): Span => {
    const s = evaluateMoment(moment, now, anchor);
    if (!inRange(s.start) || !inRange(s.end)) throw parseErrors.outOfRange(fragment);
    return s;
  };
  switch (expression.kind) {
    case 'period': {
      const moment = expression.moment;
      const s = span(moment);
      if (moment.kind === 'part-of-day' && s.start > now && isToday(moment.date)) {
        const correction = `yesterday ${moment.part}`;
        throw parseErrors.futureStart(fragment, formatInstant(s.start), correction);
      }
      if (!s.point) return checkWindow(s.start, s.end, now, fragment);
      if (moment.kind === 'ago') return checkWindow(s.start, rollingNow(now), now, fragment);
      if (moment.kind === 'now') return checkWindow(s.start, now, now, fragment);
      throw parseErrors.singleMoment(fragment);
    }
    case 'since': {
      const start = expression.start;
      const end = start.kind === 'ago' ? rollingNow(now) : now;
      return checkWindow(span(start).start, end, now, fragment);
    }
    case 'range': {
      const first = expression.start;
      if (first.kind === 'rolling') {
        // "last 7 days through yesterday": that many units ending where the range ends.
        const end = span(expression.end).end;
        const start = shift(end, first.unit, -first.amount);
        if (!inRange(start)) throw parseErrors.outOfRange(fragment);
        return checkWindow(start, end, now, fragment);
      }
      const start = span(first).start;
      if (first.kind === 'local' && first.today === true && start > now) {
        throw parseErrors.futureStart(fragment, formatInstant(start), yesterdays(fragment));
      }
      const end = span(expression.end, start);
      // The end as written comes before the start: nothing of it lies after the start.
      if (end.end < start || (+end.end === +start && !end.point)) {
        throw parseErrors.invertedWindow(fragment, formatInstant(start), formatInstant(end.start));
      }
      return checkWindow(start, end.end, now, fragment);
    }
  }
}

const isToday = (date: DateRef): boolean => date.kind === 'relative-day' && date.days === 0;

/** A range of times of day (`noon to 2pm`, `from 10pm to 2am`) moved to yesterday. */
function yesterdays(fragment: string): string {
  const keyword = /^(from|between|since)\s+/i.exec(fragment);
  return keyword === null
    ? `yesterday ${fragment}`
    : `${keyword[0]}yesterday ${fragment.slice(keyword[0].length)}`;
}

/**
 * The window used when the text names no time: `days` calendar days before the current minute, to
 * it (see `rollingNow`).
 */
export function defaultTimeWindow(context: TimeContext, days: number): TimeWindow {
  const now = zonedNow(context);
  const fragment = `last ${days} days`;
  const end = rollingNow(now);
  const start = shift(end, 'day', -days);
  if (!inRange(start) || !inRange(now)) throw parseErrors.outOfRange(fragment);
  return checkWindow(start, end, now, fragment);
}

/**
 * Clamps the end to now and refuses what cannot be asked of the service.
 * @throws ParseError `future_start`, `empty_window`, `inverted_window`.
 */
export function checkWindow(
  start: DateTime,
  end: DateTime,
  now: DateTime,
  fragment: string,
): TimeWindow {
  if (start > now) throw parseErrors.futureStart(fragment, formatInstant(start));
  const clamped = end > now ? now : end;
  if (+start === +clamped) throw parseErrors.emptyWindow(fragment, formatInstant(start));
  if (start > clamped) {
    throw parseErrors.invertedWindow(fragment, formatInstant(start), formatInstant(clamped));
  }
  return { start, end: clamped };
}

function inRange(instant: DateTime): boolean {
  return instant.isValid && instant.year >= 1 && instant.year <= 9999;
}

const point = (instant: DateTime): Span => ({ start: instant, end: instant, point: true });

/**
 * `anchor`: the start, when this is the end of a range. What the person left open is then read
 * forward from it rather than back from now: a bare time of day (`from 10pm to 2am`) is the first
 * such time at or after it, and a date, weekday, month or quarter without a year is the first one
 * that has not ended by it (`Nov 15 to Dec 5`, `friday to monday`, `Nov 15 through November`).
 */
function evaluateMoment(moment: Moment, now: DateTime, anchor?: DateTime): Span {
  switch (moment.kind) {
    case 'now':
      return point(now);
    case 'instant':
      return point(DateTime.fromSeconds(moment.epochSeconds, { zone: now.zone }));
    case 'ago':
      return point(shift(rollingNow(now), moment.unit, -moment.amount));
    case 'rolling': {
      const end = rollingNow(now);
      return { start: shift(end, moment.unit, -moment.amount), end, point: false };
    }
    case 'local':
      if (moment.offsetMinutes !== undefined) {
        return point(offsetInstant(moment.date, moment.time, moment.offsetMinutes, now, anchor));
      }
      return point(localInstant(moment.date, moment.time, now, anchor));
    case 'year': {
      const start = wallClock(now, moment.year, 1, 1);
      return { start, end: shift(start, 'year', 1), point: false };
    }
    case 'week-of': {
      const start = resolveDate(moment.date, now, anchor).startOf('week');
      return { start, end: shift(start, 'week', 1), point: false };
    }
    case 'weekend': {
      // This ISO week's weekend has not ended yet, so "last weekend" (-1) is the one before it.
      const offset = moment.offset === 'recent' ? (now.weekday >= 6 ? 0 : -1) : moment.offset;
      const start = startOfDay(shift(now.startOf('week'), 'day', 5 + 7 * offset));
      return { start, end: startOfDay(shift(start, 'day', 2)), point: false };
    }
    case 'through': {
      const first = evaluateMoment(moment.first, now, anchor);
      const last = evaluateMoment(moment.last, now, first.start);
      return { start: first.start, end: last.end, point: false };
    }
    case 'day': {
      const day = resolveDate(moment.date, now, anchor);
      return { start: day, end: startOfDay(shift(day, 'day', 1)), point: false };
    }
    case 'month':
      return monthSpan(moment.year, moment.month, 1, now, anchor);
    case 'quarter':
      return monthSpan(moment.year, (moment.quarter - 1) * 3 + 1, 3, now, anchor);
    case 'half':
      return monthSpan(moment.year, moment.half === 1 ? 1 : 7, 6, now, anchor);
    case 'month-week': {
      const month = monthSpan(moment.year, moment.month, 1, now, anchor);
      return moment.which === 'first'
        ? { start: month.start, end: startOfDay(shift(month.start, 'day', 7)), point: false }
        : { start: startOfDay(shift(month.end, 'day', -7)), end: month.end, point: false };
    }
    case 'iso-week': {
      const start = isoWeekStart(moment.year, moment.week, now, anchor);
      return { start, end: shift(start, 'week', 1), point: false };
    }
    case 'part-of-day': {
      const day = resolveDate(moment.date, now, anchor);
      const hours = partsOfDay[moment.part];
      const at = (hour: number): DateTime =>
        wallClock(now, ...ymd(startOfDay(shift(day, 'day', Math.floor(hour / 24)))), {
          hour: hour % 24,
          minute: 0,
          second: 0,
        });
      return { start: at(hours.from), end: at(hours.to), point: false };
    }
    case 'named':
      return namedSpan(moment.name, moment.year, now, anchor);
    case 'calendar': {
      const start = shift(now.startOf(moment.unit), moment.unit, moment.offset);
      return { start, end: shift(start, moment.unit, 1), point: false };
    }
  }
}

/** The start of the day of `instant`: the instant itself when its clock already shows midnight. */
function startOfDay(instant: DateTime): DateTime {
  const midnight =
    instant.hour === 0 && instant.minute === 0 && instant.second === 0 && instant.millisecond === 0;
  return midnight ? instant : instant.startOf('day');
}

/**
 * `year-month-day time` on the wall clocks of the zone of `now`. A time the clocks show twice (the
 * hour repeated when DST ends) takes the offset in force at `now` when that is one of its two, so
 * the reading depends on `now` and the zone alone, never on the day the server runs; a time they
 * skip moves forward by the gap, as luxon does. A day or time that does not exist is luxon's
 * invalid value.
 */
function wallClock(
  now: DateTime,
  year: number,
  month: number,
  day: number,
  time?: TimeOfDay,
): DateTime {
  const hour = time?.hour ?? 0;
  const minute = time?.minute ?? 0;
  const second = time?.second ?? 0;
  if (!isRealDate(year, month, day) || !isRealTime(hour, minute, second)) {
    return DateTime.invalid('no such date or time');
  }
  return setWallClock(now, year, month, day, hour, minute, second);
}

function localInstant(
  date: DateRef | undefined,
  time: TimeOfDay,
  now: DateTime,
  anchor: DateTime | undefined,
): DateTime {
  if (date !== undefined) {
    const day = resolveDate(date, now, anchor);
    return wallClock(now, day.year, day.month, day.day, time);
  }
  const base = anchor ?? now;
  const same = wallClock(now, base.year, base.month, base.day, time);
  if (anchor === undefined) {
    return same > now ? wallClock(now, ...ymd(shift(startOfDay(now), 'day', -1)), time) : same;
  }
  return same < anchor ? wallClock(now, ...ymd(shift(startOfDay(anchor), 'day', 1)), time) : same;
}

const ymd = (d: DateTime): [number, number, number] => [d.year, d.month, d.day];

/**
 * A wall-clock time read at a fixed offset (`Sep 9 2026 14:05 GMT`): the offset wins over the
 * zone. A missing date is still found by past bias in the zone, then read at the offset.
 */
function offsetInstant(
  date: DateRef | undefined,
  time: TimeOfDay,
  offsetMinutes: number,
  now: DateTime,
  anchor: DateTime | undefined,
): DateTime {
  const fixed = now.setZone(FixedOffsetZone.instance(offsetMinutes));
  const day =
    date === undefined ? undefined : resolveDate(date, fixed, anchor?.setZone(fixed.zone));
  const instant =
    day === undefined
      ? localInstant(undefined, time, fixed, anchor?.setZone(fixed.zone))
      : wallClock(fixed, day.year, day.month, day.day, time);
  return instant.setZone(now.zone);
}

/**
 * The start (00:00 in the zone) of the day a reference names. A bare weekday or a date without a
 * year is the most recent one that has started (past bias); with `after` (the start of a range
 * this ends) a bare weekday is the first on or after that day, and a date without a year is in the
 * start's year, or the next one when its month comes before the start's. Words tied to today
 * (`yesterday`, `last friday`) and explicit years mean the same day wherever they stand, so `Sep 8
 * 2026 to Sep 1 2026` stays an inverted window.
 */
function resolveDate(date: DateRef, now: DateTime, after?: DateTime): DateTime {
  switch (date.kind) {
    case 'relative-day':
      return startOfDay(shift(startOfDay(now), 'day', date.days));
    case 'weekday': {
      const today = startOfDay(now);
      const w = date.weekday;
      switch (date.which) {
        case 'recent':
          if (after !== undefined) {
            const first = startOfDay(after);
            return startOfDay(shift(first, 'day', (w - first.weekday + 7) % 7));
          }
          return startOfDay(shift(today, 'day', -((today.weekday - w + 7) % 7)));
        case 'last':
          return startOfDay(shift(today, 'day', -((today.weekday - w + 7) % 7 || 7)));
        case 'this':
          return startOfDay(shift(today.startOf('week'), 'day', w - 1));
        case 'next':
          return startOfDay(shift(today, 'day', (w - today.weekday + 7) % 7 || 7));
      }
      break;
    }
    case 'ymd': {
      if (date.year !== undefined) return wallClock(now, date.year, date.month, date.day);
      if (after !== undefined) {
        // Into a later year only when the month comes round again (Dec 20 to Jan 5); an earlier
        // day of the start's own month or after stays before the start, to be refused.
        const first = startOfDay(after);
        const fromYear = date.month < first.month ? first.year + 1 : first.year;
        for (let year = fromYear; year <= first.year + yearSearch; year++) {
          const day = wallClock(now, year, date.month, date.day);
          if (day.isValid && day.month === date.month) return day;
        }
        break;
      }
      for (let year = now.year; year >= now.year - yearSearch; year--) {
        const day = wallClock(now, year, date.month, date.day);
        if (day.isValid && day.month === date.month && day <= now) return day;
      }
      break;
    }
  }
  // Only a date no recent year holds gets here; luxon's invalid value is refused as out of range.
  return DateTime.invalid('no such date');
}

/**
 * Monday 00:00 of ISO week `week`. Without a year: the most recent such week that has started, or
 * with `after` the first that has not ended by then; a year without that week (53) is skipped.
 */
function isoWeekStart(
  year: number | undefined,
  week: number,
  now: DateTime,
  after?: DateTime,
): DateTime {
  const start = (weekYear: number): DateTime =>
    DateTime.fromObject({ weekYear, weekNumber: week, weekday: 1 }, { zone: now.zone });
  if (year !== undefined) return start(year);
  const base = after ?? now;
  const step = after === undefined ? -1 : 1;
  for (
    let y = base.weekYear + (after === undefined ? 0 : -1), n = 0;
    n <= yearSearch;
    y += step, n++
  ) {
    const candidate = start(y);
    if (!candidate.isValid || candidate.weekNumber !== week) continue;
    if (after === undefined ? candidate <= now : shift(candidate, 'week', 1) > after) {
      return candidate;
    }
  }
  return DateTime.invalid('no such week');
}

/**
 * The days the calendar gives a named period (`Thanksgiving`). Without a year: the most recent
 * that has started, or with `after` the first that has not ended by then.
 */
function namedSpan(
  name: NamedPeriod,
  year: number | undefined,
  now: DateTime,
  after?: DateTime,
): Span {
  const span = (y: number): Span => {
    const { month, day, days } = namedDays(name, y);
    const start = wallClock(now, y, month, day);
    return { start, end: startOfDay(shift(start, 'day', days)), point: false };
  };
  if (year !== undefined) return span(year);
  const base = (after ?? now).year;
  const found = span(base);
  if (after === undefined) return found.start > now ? span(base - 1) : found;
  return found.end <= after ? span(base + 1) : found;
}

/**
 * `length` months from `month`. Without a year: the most recent such span that has started, or
 * with `after` the first that has not ended by then (it holds `after` or follows it).
 */
function monthSpan(
  year: number | undefined,
  month: number,
  length: number,
  now: DateTime,
  after?: DateTime,
): Span {
  const y = year ?? (after ?? now).year;
  let start = wallClock(now, y, month, 1);
  let end = shift(start, 'month', length);
  if (year === undefined && (after === undefined ? start > now : end <= after)) {
    start = wallClock(now, after === undefined ? y - 1 : y + 1, month, 1);
    end = shift(start, 'month', length);
  }
  return { start, end, point: false };
}
