/**
 * Calendar days as people write them: ISO and US numeric dates (day first when the first number
 * cannot be a month), month names with a day or alone,
 * days listed with a dash (`Sep 1-8`), weekdays and `yesterday`, `today`, `tomorrow`; a single
 * day may take a time of day after it.
 */
import { DateTime } from 'luxon';
import type { Match } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import {
  type DateRef,
  type Moment,
  type MomentContext,
  type TimeOfDay,
  yearAfterDay,
  yearAt,
} from './ast.ts';
import { isRealDate } from './calendar.ts';
import { gluedTimes, matchPartOfDay, matchTimeOfDay, withOffset } from './clock.ts';
import { fullNames, months } from './vocabulary.ts';

const isoDateTime = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}(:?\d{2})?)?$/;
const hasOffset = /(z|[+-]\d{2}(:?\d{2})?)$/;
const isoDate = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const usDate = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?$/;
/** A day of the month (`9`, `9th`); alone, also the end of a compact range (`Sep 1 to 8`). */
export const dayOfMonth = /^(\d{1,2})(st|nd|rd|th|\.)?$/;

/**
 * A calendar date in any accepted form, with an optional time after it: ISO date-times,
 * `2026-09-01`, `9/1/26`, `9/1/2026`, `9/1`, `23/11/2026`, `Sep 9`, `Sep 9, 2026`, `9 Sep 2026`,
 * `9th of September`, and month names, in full or not, alone or with a year (a whole month).
 */
export function matchDate(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const word = token.lower;

  if (isoDateTime.test(word)) {
    const parsed = DateTime.fromISO(token.text, { zone: 'UTC', setZone: true });
    if (!parsed.isValid) throw parseErrors.invalidDate(token.text);
    if (hasOffset.test(word.slice(10))) {
      return {
        value: { kind: 'instant', epochSeconds: Math.floor(parsed.toSeconds()) },
        next: at + 1,
      };
    }
    const date: DateRef = { kind: 'ymd', year: parsed.year, month: parsed.month, day: parsed.day };
    const time = { hour: parsed.hour, minute: parsed.minute, second: parsed.second };
    return withOffset(tokens, at + 1, date, time);
  }

  const iso = isoDate.exec(word);
  if (iso !== null) {
    const date = checkedDate(token.text, Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return withTimeOfDay(tokens, at + 1, date);
  }
  const us = usDate.exec(word);
  if (us !== null) {
    const yy = us[3];
    const year = yy === undefined ? undefined : yy.length === 2 ? 2000 + Number(yy) : Number(yy);
    // Month first (`3/4/26` is March 4) unless the first number cannot be a month (`23/11/2026`).
    const [first, second] = [Number(us[1]), Number(us[2])];
    const dayFirst = first > 12 && second <= 12;
    const date = dayFirst
      ? checkedDate(token.text, year, second, first)
      : checkedDate(token.text, year, first, second);
    const order = dayFirst ? 'day-first' : second > 12 ? 'month-first' : 'either';
    return withTimeOfDay(tokens, at + 1, { ...date, order } as DateRef);
  }

  const monthRange = gluedMonths.exec(word);
  if (monthRange !== null) {
    const first = months.get(monthRange[1] as string);
    const last = months.get(monthRange[2] as string);
    if (first !== undefined && last !== undefined) {
      const year = yearAt(tokens, at + 1);
      return {
        value: {
          kind: 'through',
          first: { kind: 'month', month: first, year },
          last: { kind: 'month', month: last, year },
        },
        next: year === undefined ? at + 1 : at + 2,
      };
    }
  }

  const month = months.get(word);
  if (month !== undefined) {
    const days = gluedDays.exec(lowerAt(tokens, at + 1) ?? '');
    if (days !== null) return matchDayList(tokens, at, month, Number(days[1]), Number(days[2]));
    const day = dayOfMonth.exec(lowerAt(tokens, at + 1) ?? '');
    if (day !== null) {
      const year = yearAfterDay(tokens, at + 2);
      const fragment = tokensText(tokens, at, year.next);
      const date = checkedDate(fragment, year.value, month, Number(day[1]));
      return withTimeOfDay(tokens, year.next, date);
    }
    const year = yearAt(tokens, at + 1);
    return { value: { kind: 'month', month, year }, next: year === undefined ? at + 1 : at + 2 };
  }

  const day = dayOfMonth.exec(word);
  if (day !== null) {
    const monthAt = lowerAt(tokens, at + 1) === 'of' ? at + 2 : at + 1;
    const named = months.get(lowerAt(tokens, monthAt) ?? '');
    if (named === undefined) return undefined;
    const year = yearAfterDay(tokens, monthAt + 1);
    const date = checkedDate(tokensText(tokens, at, year.next), year.value, named, Number(day[1]));
    return withTimeOfDay(tokens, year.next, date);
  }
  return undefined;
}

const gluedDays = /^(\d{1,2})-(\d{1,2})$/;
const gluedMonths = /^([a-z]+\.?)-([a-z]+\.?)$/;

/** `Sep 1-8`, `Sep 1-8 2026`, `Sep 1-8, 2026`: those days, the last one included. */
function matchDayList(
  tokens: readonly Token[],
  at: number,
  month: number,
  firstDay: number,
  lastDay: number,
): Match<Moment> {
  const year = yearAfterDay(tokens, at + 2);
  const next = year.next;
  const fragment = tokensText(tokens, at, next);
  const first = checkedDate(fragment, year.value, month, firstDay);
  const last = checkedDate(fragment, year.value, month, lastDay);
  return {
    value: {
      kind: 'through',
      first: { kind: 'day', date: first },
      last: { kind: 'day', date: last },
    },
    next,
  };
}

/**
 * The day as a DateRef once it can exist.
 * @throws ParseError `bad_time` quoting `fragment` for a day no year has (`Feb 30`, `2026-13-45`).
 */
export function checkedDate(
  fragment: string,
  year: number | undefined,
  month: number,
  day: number,
): DateRef {
  // A leap year stands in when the year is implied, so Feb 29 is not refused before past bias picks one.
  if (!isRealDate(year ?? 2024, month, day)) throw parseErrors.invalidDate(fragment);
  return { kind: 'ymd', year, month, day };
}

/**
 * A date, then an optional `at`/`,` and time of day: a wall-clock instant; or two times of that
 * day joined by a dash (`today 8:00-12:00`, `Nov 15 21:00 – 22:00`), the second read forward from
 * the first; else the whole day.
 */
export function withTimeOfDay(tokens: readonly Token[], at: number, date: DateRef): Match<Moment> {
  const skip = lowerAt(tokens, at) === 'at' || tokens[at]?.kind === 'comma' ? at + 1 : at;
  const glued = gluedTimes(tokens[skip]);
  if (glued !== undefined) return timesOfDay(date, glued[0], glued[1], skip + 1);
  const time = matchTimeOfDay(tokens, skip);
  if (time === undefined) return { value: { kind: 'day', date }, next: at };
  if (tokens[time.next]?.kind === 'dash') {
    const end = matchTimeOfDay(tokens, time.next + 1);
    if (end !== undefined) return timesOfDay(date, time.value, end.value, end.next);
  }
  return withOffset(tokens, time.next, date, time.value);
}

function timesOfDay(date: DateRef, from: TimeOfDay, to: TimeOfDay, next: number): Match<Moment> {
  return {
    value: {
      kind: 'through',
      first: { kind: 'local', date, time: from },
      last: { kind: 'local', date: undefined, time: to },
    },
    next,
  };
}

/** `today`, `yesterday 14:05`, `tomorrow at noon`, `yesterday evening`: a day counted from today. */
export function matchRelativeDay(
  tokens: readonly Token[],
  at: number,
  word: 'today' | 'yesterday' | 'tomorrow',
): Match<Moment> {
  const days = word === 'today' ? 0 : word === 'yesterday' ? -1 : 1;
  const date: DateRef = { kind: 'relative-day', days };
  return matchPartOfDay(tokens, at + 1, date) ?? withTimeOfDay(tokens, at + 1, date);
}

/**
 * The weekday at `at` (ISO `weekday`), read like a date without a year, or the date after it
 * (`Monday, September 9`). Alone, an abbreviation (`sun`) is a day only where `context` says so.
 */
export function matchWeekday(
  tokens: readonly Token[],
  at: number,
  weekday: number,
  context: MomentContext,
): Match<Moment> | undefined {
  // "Monday, September 9": the date decides; the weekday is only decoration.
  const afterComma = tokens[at + 1]?.kind === 'comma' ? at + 2 : at + 1;
  const dated = matchDate(tokens, afterComma);
  if (dated !== undefined) return dated;
  const date: DateRef = { kind: 'weekday', weekday, which: 'recent' };
  // "monday morning": that part of the day.
  const part = matchPartOfDay(tokens, at + 1, date);
  if (part !== undefined) return part;
  const m = withTimeOfDay(tokens, at + 1, date);
  const full = fullNames.has(lowerAt(tokens, at) ?? '');
  return m.value.kind === 'day' && context === 'free' && !full ? undefined : m;
}
