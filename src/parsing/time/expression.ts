/**
 * The time grammar, syntax only: token stream -> a `TimeExpression` that says what the person
 * named, without deciding any instant. `evaluate.ts` gives it meaning at a `now` in a zone, so a
 * grammar can read the whole command (the zone may come last) before evaluating.
 */
import { DateTime } from 'luxon';
import type { ParseError } from '../../errors.ts';
import type { Match, Matcher } from '../grammar.ts';
import { parseErrors } from '../messages.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import { matchChronoDate } from './chrono-dates.ts';
import {
  type CalendarUnit,
  fullNames,
  months,
  numberWords,
  shorthandUnits,
  type Unit,
  units,
  weekdays,
} from './vocabulary.ts';

/**
 * A calendar day. A missing year means the most recent one that has started (past bias), or at
 * the end of a range the first one on or after the range's start.
 */
export type DateRef =
  | {
      readonly kind: 'ymd';
      readonly year: number | undefined;
      readonly month: number;
      readonly day: number;
    }
  /** yesterday -1, today 0, tomorrow 1. */
  | { readonly kind: 'relative-day'; readonly days: number }
  /**
   * `recent`: a bare weekday, read like a date without a year; `last`: the one before today;
   * `this`: in the current ISO week; `next`: the first after today.
   */
  | {
      readonly kind: 'weekday';
      readonly weekday: number;
      readonly which: 'recent' | 'last' | 'this' | 'next';
    };

export interface TimeOfDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** One time expression that names an instant or a span. */
export type Moment =
  | { readonly kind: 'now' }
  /** An instant fixed regardless of zone: ISO 8601 with an offset, unix seconds. */
  | { readonly kind: 'instant'; readonly epochSeconds: number }
  /**
   * A wall-clock time in the zone; without a date, the most recent such time. `offsetMinutes`
   * (`14:05 GMT`, `2pm +02:00`): the clock is read at that offset instead, and the offset wins.
   */
  | {
      readonly kind: 'local';
      readonly date: DateRef | undefined;
      readonly time: TimeOfDay;
      readonly offsetMinutes?: number;
      /** The day came after the time (`5pm yesterday`), so a range may share it. */
      readonly dateAfterTime?: boolean;
    }
  /** `2 weeks ago`: now minus the amount. */
  | { readonly kind: 'ago'; readonly amount: number; readonly unit: Unit }
  /** A whole day. */
  | { readonly kind: 'day'; readonly date: DateRef }
  | { readonly kind: 'month'; readonly year: number | undefined; readonly month: number }
  | { readonly kind: 'quarter'; readonly year: number | undefined; readonly quarter: number }
  /** `2025`, `in 2025`: that whole calendar year. */
  | { readonly kind: 'year'; readonly year: number }
  /** `week of Nov 9`: the ISO week (Monday 00:00 to Monday 00:00) holding that day. */
  | { readonly kind: 'week-of'; readonly date: DateRef }
  /** `last weekend` (-1), `this weekend` (0): Saturday 00:00 to Monday 00:00. */
  | { readonly kind: 'weekend'; readonly offset: number }
  /**
   * Days or months listed with a dash (`Sep 1-8`, `Jan-Mar`): from the start of the first to the
   * end of the last, which is read forward from the first.
   */
  | { readonly kind: 'through'; readonly first: Moment; readonly last: Moment }
  /** `last week` (-1), `this month` (0), `next year` (1): whole calendar periods. */
  | { readonly kind: 'calendar'; readonly unit: CalendarUnit; readonly offset: number }
  /** `last 7 days`, `past 48 hours`, `48h`: now minus the amount, to now. */
  | { readonly kind: 'rolling'; readonly amount: number; readonly unit: Unit };

export type TimeExpression =
  | { readonly kind: 'period'; readonly moment: Moment }
  | { readonly kind: 'since'; readonly start: Moment }
  /** `inclusive` for through/thru: the end is the end of what it names, not its start. */
  | {
      readonly kind: 'range';
      readonly start: Moment;
      readonly end: Moment;
      readonly inclusive: boolean;
    };

const rangeSeparators = new Map([
  ['to', false],
  ['till', false],
  ['til', false],
  ['until', false],
  ['through', true],
  ['thru', true],
]);

const openEndWords = new Set(['until', 'till', 'til', 'through', 'thru']);
const unixSeconds = /^\d{9,11}$/;
const unixMillis = /^\d{12,14}$/;

/**
 * Reads one time expression at `at`: a range (`A to B`, `from A to B`, `A - B`, `between A and
 * B`, `A through B`, `A to date`), `since A`, or a single expression (a period, or an instant the
 * evaluator decides about). Times of day on both ends take a day that follows the range
 * (`between 9am and 5pm yesterday`). Unix seconds start a range only with its separator
 * (`1790000000 to 1791000000`); alone, a number is a database ID.
 * @throws ParseError `bad_time` for a date that cannot exist (`2026-13-45`, `Feb 30`), a range
 *   keyword with no readable time after it (`since yesterdy`, `between monday`), unix
 *   milliseconds, an end with no start (`until yesterday`), a part of a day (`last night`).
 */
export const matchTimeExpression: Matcher<TimeExpression> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  if (word === 'since' || word === 'from') {
    const start = matchEndpoint(tokens, at + 1);
    if (start === undefined) {
      // "from" also starts phrases ("tweets from doctors"); "since" only starts times.
      if (word === 'from' && !unixMillis.test(lowerAt(tokens, at + 1) ?? '')) return undefined;
      throw endpointError(tokens, at, at + 1);
    }
    const tail = matchRangeTail(tokens, start.value, start.next, true);
    if (tail === undefined)
      return { value: { kind: 'since', start: start.value }, next: start.next };
    const first = tail.value.start ?? start.value;
    return rangeWithDay(tokens, first, tail.value.end, tail.value.inclusive, tail.next);
  }
  if (word === 'between') {
    const start = matchEndpoint(tokens, at + 1);
    if (start === undefined) {
      if (unixMillis.test(lowerAt(tokens, at + 1) ?? '')) throw endpointError(tokens, at, at + 1);
      return undefined;
    }
    const end =
      lowerAt(tokens, start.next) === 'and' ? matchEndpoint(tokens, start.next + 1) : undefined;
    if (end === undefined) {
      if (lowerAt(tokens, start.next) === 'and') throw endpointError(tokens, at, start.next + 1);
      throw parseErrors.badTime(tokensText(tokens, at, start.next + 2));
    }
    return rangeWithDay(tokens, start.value, end.value, false, end.next);
  }
  if (word !== undefined && openEndWords.has(word)) {
    const end = matchEndpoint(tokens, at + 1);
    if (end !== undefined) throw parseErrors.openEnded(tokensText(tokens, at, end.next));
    return undefined;
  }
  if (word !== undefined && unixMillis.test(word) && isRangeSeparator(tokens[at + 1])) {
    throw parseErrors.unixMilliseconds(tokensText(tokens, at, at + 1));
  }
  if (word !== undefined && unixSeconds.test(word)) {
    const start: Moment = { kind: 'instant', epochSeconds: Number(word) };
    const tail = matchRangeTail(tokens, start, at + 1, false);
    if (tail === undefined) return undefined;
    return rangeWithDay(tokens, start, tail.value.end, tail.value.inclusive, tail.next);
  }
  const glued = word === undefined ? undefined : gluedTimes(tokens[at] as Token);
  if (glued !== undefined) {
    const [start, end] = glued;
    return rangeWithDay(tokens, start, end, false, at + 1);
  }
  const moment = matchMoment(tokens, at, 'free');
  if (moment === undefined) return undefined;
  const tail = matchRangeTail(tokens, moment.value, moment.next, false);
  if (tail === undefined)
    return { value: { kind: 'period', moment: moment.value }, next: moment.next };
  const first = tail.value.start ?? moment.value;
  return rangeWithDay(tokens, first, tail.value.end, tail.value.inclusive, tail.next);
};

function isRangeSeparator(token: Token | undefined): boolean {
  return token?.kind === 'dash' || rangeSeparators.has(token?.lower ?? '');
}

/** `9am-5pm`, `9:00-17:30`: two times of day glued by a dash. */
function gluedTimes(token: Token): [Moment, Moment] | undefined {
  const dash = token.lower.indexOf('-');
  if (dash <= 0 || !/^\d/.test(token.lower)) return undefined;
  const halves = [token.text.slice(0, dash), token.text.slice(dash + 1)].map((text) => [
    { ...token, kind: 'word' as const, text, lower: text.toLowerCase() },
  ]);
  const start = matchTimeOfDay(halves[0] as Token[], 0);
  const end = matchTimeOfDay(halves[1] as Token[], 0);
  if (start === undefined || end === undefined || start.next !== 1 || end.next !== 1) {
    return undefined;
  }
  return [
    { kind: 'local', date: undefined, time: start.value },
    { kind: 'local', date: undefined, time: end.value },
  ];
}

/** Why no time follows the range keyword at `keyword`: unix milliseconds, or no time at all. */
function endpointError(tokens: readonly Token[], keyword: number, at: number): ParseError {
  const word = lowerAt(tokens, at);
  if (word !== undefined && unixMillis.test(word)) {
    return parseErrors.unixMilliseconds(tokensText(tokens, keyword, at + 1));
  }
  return parseErrors.badTime(tokensText(tokens, keyword, at + 1));
}

/**
 * A range; when both ends are times of day without a date and a day follows (`9am to 5pm
 * yesterday`, `between 9am and 5pm on Sep 9`), that day is the date of both.
 */
function rangeWithDay(
  tokens: readonly Token[],
  start: Moment,
  end: Moment,
  inclusive: boolean,
  next: number,
): Match<TimeExpression> {
  if (start.kind === 'local' && start.date === undefined && end.kind === 'local') {
    if (end.date !== undefined) {
      // "between 9am and 5pm yesterday": the end read "5pm yesterday" as one time-first moment.
      return end.dateAfterTime === true
        ? { value: { kind: 'range', start: { ...start, date: end.date }, end, inclusive }, next }
        : { value: { kind: 'range', start, end, inclusive }, next };
    }
    const dayAt = lowerAt(tokens, next) === 'on' ? next + 1 : next;
    const day = matchMoment(tokens, dayAt, 'prefixed');
    if (day !== undefined && day.value.kind === 'day') {
      const date = day.value.date;
      return {
        value: {
          kind: 'range',
          start: { ...start, date },
          end: { ...end, date },
          inclusive,
        },
        next: day.next,
      };
    }
  }
  return { value: { kind: 'range', start, end, inclusive }, next };
}

function matchRangeTail(
  tokens: readonly Token[],
  start: Moment,
  at: number,
  committed: boolean,
): Match<{ start?: Moment; end: Moment; inclusive: boolean }> | undefined {
  const token = tokens[at];
  if (token === undefined) return undefined;
  const separator = lowerAt(tokens, at);
  const inclusive = token.kind === 'dash' ? false : rangeSeparators.get(separator ?? '');
  if (inclusive === undefined) return undefined;
  if (separator === 'to' && lowerAt(tokens, at + 1) === 'date') {
    return { value: { end: { kind: 'now' }, inclusive: false }, next: at + 2 };
  }
  const compact = compactEnd(tokens, start, at + 1);
  if (compact !== undefined) {
    // A dash lists days or months (`Sep 1 - 8`, `Jan - Mar`): the last one is included.
    return {
      value: { ...compact.value, inclusive: token.kind === 'dash' || inclusive },
      next: compact.next,
    };
  }
  const end = matchEndpoint(tokens, at + 1);
  if (end === undefined) {
    if (committed || unixMillis.test(lowerAt(tokens, at + 1) ?? '')) {
      throw endpointError(tokens, at, at + 1);
    }
    return undefined;
  }
  return { value: { end: end.value, inclusive }, next: end.next };
}

/**
 * The end of a compact range: a bare day number after a month-and-day start (`Sep 1 to 8`,
 * `Sep 1 - 8, 2025`: a year after it holds for both ends), in the start's month, or a month name
 * after a month (`Jan - Mar 2025`).
 */
function compactEnd(
  tokens: readonly Token[],
  start: Moment,
  at: number,
): Match<{ start: Moment; end: Moment }> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  if (start.kind === 'day' && start.date.kind === 'ymd') {
    const day = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
    if (day === null || months.has(lowerAt(tokens, at + 1) ?? '')) return undefined;
    const yearAfter = tokens[at + 1]?.kind === 'comma' ? at + 2 : at + 1;
    const named = start.date.year === undefined ? yearAt(tokens, yearAfter) : undefined;
    const next = named === undefined ? at + 1 : yearAfter + 1;
    const year = named ?? start.date.year;
    const fragment = tokensText(tokens, at - 2, next);
    const first = checkedDate(fragment, year, start.date.month, start.date.day);
    const date = checkedDate(fragment, year, start.date.month, Number(day[1]));
    return { value: { start: { kind: 'day', date: first }, end: { kind: 'day', date } }, next };
  }
  if (start.kind === 'month' && start.year === undefined) {
    const month = months.get(word);
    if (month === undefined || dayOfMonth.test(lowerAt(tokens, at + 1) ?? '')) return undefined;
    const year = yearAt(tokens, at + 1);
    return {
      value: { start: { ...start, year }, end: { kind: 'month', month, year } },
      next: year === undefined ? at + 1 : at + 2,
    };
  }
  return undefined;
}

/** A range endpoint: any moment, and also unix seconds (9 to 11 digits). */
function matchEndpoint(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  return matchMoment(tokens, at, 'endpoint');
}

/**
 * Where a moment stands. Only an `endpoint` (after from, since, between, and, to, through) may be
 * unix seconds; a bare abbreviation (`sun`, `sat`, `mar`) is a time only when something around it
 * says so (an endpoint, or `on`/`in`), because alone it is more often a word of a phrase.
 */
export type MomentContext = 'free' | 'endpoint' | 'prefixed';

/**
 * One moment or span at `at`. Exported for grammars that want a single time (a digest's window)
 * rather than a range.
 */
export function matchMoment(
  tokens: readonly Token[],
  at: number,
  context: MomentContext,
): Match<Moment> | undefined {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const word = token.lower;

  switch (word) {
    case 'on': {
      const m = matchMoment(tokens, at + 1, 'prefixed');
      return m !== undefined && (m.value.kind === 'day' || m.value.kind === 'local')
        ? m
        : undefined;
    }
    case 'in':
    case 'during':
    case 'over':
    case 'for': {
      const m = matchMoment(tokens, at + 1, 'prefixed');
      return m !== undefined && isSpan(m.value) ? m : undefined;
    }
    case 'tonight':
    case 'overnight':
      throw parseErrors.partOfDay(token.text);
    case 'the': {
      const m = matchMoment(tokens, at + 1, context === 'free' ? 'prefixed' : context);
      return m !== undefined && m.value.kind !== 'now' ? m : undefined;
    }
    case 'now':
      return { value: { kind: 'now' }, next: at + 1 };
    case 'today':
    case 'yesterday':
    case 'tomorrow': {
      rejectPartOfDay(tokens, at);
      const days = word === 'today' ? 0 : word === 'yesterday' ? -1 : 1;
      return withTimeOfDay(tokens, at + 1, { kind: 'relative-day', days });
    }
    case 'ytd':
      return calendar('year', 0, at + 1);
    case 'qtd':
      return calendar('quarter', 0, at + 1);
    case 'mtd':
      return calendar('month', 0, at + 1);
    case 'wtd':
      return calendar('week', 0, at + 1);
    case 'last':
    case 'previous':
    case 'past':
    case 'this':
    case 'current':
    case 'next':
      return matchRelativePeriod(tokens, at, word);
    case 'year':
    case 'quarter':
    case 'month':
    case 'week':
      if (lowerAt(tokens, at + 1) === 'to' && lowerAt(tokens, at + 2) === 'date') {
        return calendar(word as CalendarUnit, 0, at + 3);
      }
      if (word === 'week' && lowerAt(tokens, at + 1) === 'of') {
        const day = matchMoment(tokens, at + 2, 'prefixed');
        if (day === undefined || day.value.kind !== 'day') return undefined;
        return { value: { kind: 'week-of', date: day.value.date }, next: day.next };
      }
      return undefined;
  }

  if (context === 'endpoint' && /^\d{9,11}$/.test(word)) {
    return { value: { kind: 'instant', epochSeconds: Number(word) }, next: at + 1 };
  }

  const weekday = weekdays.get(word);
  if (weekday !== undefined) {
    // "Monday, September 9": the date decides; the weekday is only decoration.
    const afterComma = tokens[at + 1]?.kind === 'comma' ? at + 2 : at + 1;
    const dated = matchDate(tokens, afterComma, 'prefixed');
    if (dated !== undefined) return dated;
    const m = withTimeOfDay(tokens, at + 1, { kind: 'weekday', weekday, which: 'recent' });
    return m.value.kind === 'day' && context === 'free' && !fullNames.has(word) ? undefined : m;
  }

  return (
    matchDate(tokens, at, context) ??
    matchAmount(tokens, at) ??
    matchQuarter(tokens, at) ??
    matchYear(tokens, at, context) ??
    matchTimeFirst(tokens, at) ??
    matchChronoDate(tokens, at)
  );
}

const partsOfDay = new Set(['morning', 'afternoon', 'evening', 'night']);

/**
 * `this morning`, `last night`, `yesterday evening`: people draw these lines at different hours,
 * so a window from them would be a guess; the person is asked for the hours instead.
 */
function rejectPartOfDay(tokens: readonly Token[], at: number): void {
  if (partsOfDay.has(lowerAt(tokens, at + 1) ?? '')) {
    throw parseErrors.partOfDay(tokensText(tokens, at, at + 2));
  }
}

/**
 * A year `2025` (1900 to 2099): the whole year, when something says it is a time: `in 2025`,
 * `during 2025`, or a range endpoint (`since 2025`, `from 2024 to 2025`). Alone, a bare number
 * is a database ID (`#hcsm 2025` asks for database 2025), as the grammar promises.
 */
function matchYear(
  tokens: readonly Token[],
  at: number,
  context: MomentContext,
): Match<Moment> | undefined {
  if (context === 'free') return undefined;
  const year = yearAt(tokens, at);
  if (year === undefined) return undefined;
  return { value: { kind: 'year', year }, next: at + 1 };
}

const isSpan = (m: Moment): boolean =>
  m.kind === 'month' ||
  m.kind === 'quarter' ||
  m.kind === 'year' ||
  m.kind === 'calendar' ||
  m.kind === 'rolling' ||
  m.kind === 'through';

function calendar(unit: CalendarUnit, offset: number, next: number): Match<Moment> {
  return { value: { kind: 'calendar', unit, offset }, next };
}

/** `last week`, `this month`, `past 48 hours`, `last 7 days`, `last friday`, `next year`. */
function matchRelativePeriod(
  tokens: readonly Token[],
  at: number,
  word: string,
): Match<Moment> | undefined {
  const next = lowerAt(tokens, at + 1);
  if (next === undefined) return undefined;
  if (word === 'this' && next === 'past') return matchRelativePeriod(tokens, at + 1, 'past');
  rejectPartOfDay(tokens, at);
  const back = word === 'last' || word === 'past' || word === 'previous';
  if (next === 'weekend') {
    const offset = back ? -1 : word === 'next' ? 1 : 0;
    return { value: { kind: 'weekend', offset }, next: at + 2 };
  }
  if (next === 'fortnight' && back) {
    return { value: { kind: 'rolling', amount: 14, unit: 'day' }, next: at + 2 };
  }
  const weekday = weekdays.get(next);
  if (weekday !== undefined && word !== 'past') {
    const which =
      word === 'this' || word === 'current' ? 'this' : word === 'next' ? 'next' : 'last';
    return withTimeOfDay(tokens, at + 2, { kind: 'weekday', weekday, which });
  }
  const unit = units.get(next);
  if (unit !== undefined && next.length > 1) {
    const offset = word === 'this' || word === 'current' ? 0 : word === 'next' ? 1 : -1;
    if (unit === 'day') {
      if (word === 'last' || word === 'past' || word === 'previous') {
        return { value: { kind: 'rolling', amount: 1, unit }, next: at + 2 };
      }
      return { value: { kind: 'day', date: { kind: 'relative-day', days: offset } }, next: at + 2 };
    }
    if (unit === 'hour' || unit === 'minute' || word === 'past') {
      if (offset !== -1) return undefined;
      return { value: { kind: 'rolling', amount: 1, unit }, next: at + 2 };
    }
    return calendar(unit, offset, at + 2);
  }
  if (word === 'last' || word === 'past' || word === 'previous') {
    const amount = matchAmount(tokens, at + 1);
    if (amount !== undefined && amount.value.kind === 'rolling') return amount;
  }
  return undefined;
}

/** `7 days`, `48h`, `48h ago`, `2 weeks ago`, `an hour ago`, `two days ago`. */
function matchAmount(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  let amount: number | undefined;
  let unit: Unit | undefined;
  let next: number;
  const glued = /^(\d{1,6})([a-z]+)$/.exec(word);
  if (glued !== null) {
    unit = shorthandUnits.get(glued[2] as string);
    amount = Number(glued[1]);
    next = at + 1;
  } else {
    amount = /^\d{1,6}$/.test(word) ? Number(word) : numberWords.get(word);
    unit = units.get(lowerAt(tokens, at + 1) ?? '');
    next = at + 2;
  }
  if (amount === undefined || unit === undefined) return undefined;
  if (lowerAt(tokens, next) === 'ago') {
    return { value: { kind: 'ago', amount, unit }, next: next + 1 };
  }
  // "a day" alone is a phrase more often than a window; digits are not.
  if (word === 'a' || word === 'an') return undefined;
  return { value: { kind: 'rolling', amount, unit }, next };
}

function matchQuarter(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const word = lowerAt(tokens, at);
  const q = word === undefined ? null : /^q([1-4])$/.exec(word);
  if (q === null) return undefined;
  const year = yearAt(tokens, at + 1);
  return {
    value: { kind: 'quarter', quarter: Number(q[1]), year },
    next: year === undefined ? at + 1 : at + 2,
  };
}

function yearAt(tokens: readonly Token[], at: number): number | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined || !/^(19|20)\d\d$/.test(word)) return undefined;
  return Number(word);
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}(:?\d{2})?)?$/;
const hasOffset = /(z|[+-]\d{2}(:?\d{2})?)$/;
const isoDate = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const usDate = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?$/;
const dayOfMonth = /^(\d{1,2})(st|nd|rd|th)?$/;

/**
 * A calendar date in any accepted form, with an optional time after it: ISO date-times,
 * `2026-09-01`, `9/1/26`, `9/1/2026`, `9/1`, `Sep 9`, `Sep 9, 2026`, `9 Sep 2026`, `9th of
 * September`, and month names alone or with a year (a whole month).
 */
function matchDate(
  tokens: readonly Token[],
  at: number,
  context: MomentContext,
): Match<Moment> | undefined {
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
    const date = checkedDate(token.text, year, Number(us[1]), Number(us[2]));
    return withTimeOfDay(tokens, at + 1, date);
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
      const afterDay = at + 2;
      const yearAfter = tokens[afterDay]?.kind === 'comma' ? afterDay + 1 : afterDay;
      const year = yearAt(tokens, yearAfter);
      const date = checkedDate(
        tokensText(tokens, at, year === undefined ? afterDay : yearAfter + 1),
        year,
        month,
        Number(day[1]),
      );
      return withTimeOfDay(tokens, year === undefined ? afterDay : yearAfter + 1, date);
    }
    const year = yearAt(tokens, at + 1);
    // "Jan - Mar": the dash and a second month say the abbreviation is a month.
    const listed = tokens[at + 1]?.kind === 'dash' && months.has(lowerAt(tokens, at + 2) ?? '');
    if (year === undefined && context === 'free' && !fullNames.has(word) && !listed) {
      return undefined;
    }
    return { value: { kind: 'month', month, year }, next: year === undefined ? at + 1 : at + 2 };
  }

  const day = dayOfMonth.exec(word);
  if (day !== null) {
    const monthAt = lowerAt(tokens, at + 1) === 'of' ? at + 2 : at + 1;
    const named = months.get(lowerAt(tokens, monthAt) ?? '');
    if (named === undefined) return undefined;
    const yearAfter = tokens[monthAt + 1]?.kind === 'comma' ? monthAt + 2 : monthAt + 1;
    const year = yearAt(tokens, yearAfter);
    const end = year === undefined ? monthAt + 1 : yearAfter + 1;
    const date = checkedDate(tokensText(tokens, at, end), year, named, Number(day[1]));
    return withTimeOfDay(tokens, end, date);
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
  const yearAfter = tokens[at + 2]?.kind === 'comma' ? at + 3 : at + 2;
  const year = yearAt(tokens, yearAfter);
  const next = year === undefined ? at + 2 : yearAfter + 1;
  const fragment = tokensText(tokens, at, next);
  const first = checkedDate(fragment, year, month, firstDay);
  const last = checkedDate(fragment, year, month, lastDay);
  return {
    value: {
      kind: 'through',
      first: { kind: 'day', date: first },
      last: { kind: 'day', date: last },
    },
    next,
  };
}

function checkedDate(
  fragment: string,
  year: number | undefined,
  month: number,
  day: number,
): DateRef {
  // A leap year stands in when the year is implied, so Feb 29 is not refused before past bias picks one.
  const valid = DateTime.fromObject({ year: year ?? 2024, month, day }, { zone: 'UTC' }).isValid;
  if (!valid) throw parseErrors.invalidDate(fragment);
  return { kind: 'ymd', year, month, day };
}

/** A date, then an optional `at`/`,` and time of day: a wall-clock instant; else the whole day. */
function withTimeOfDay(tokens: readonly Token[], at: number, date: DateRef): Match<Moment> {
  const skip = lowerAt(tokens, at) === 'at' || tokens[at]?.kind === 'comma' ? at + 1 : at;
  const time = matchTimeOfDay(tokens, skip);
  if (time === undefined) return { value: { kind: 'day', date }, next: at };
  return withOffset(tokens, time.next, date, time.value);
}

/** A wall-clock time, then an optional offset that decides the instant: `GMT`, `UTC+2`, `+02:00`. */
function withOffset(
  tokens: readonly Token[],
  at: number,
  date: DateRef | undefined,
  time: TimeOfDay,
): Match<Moment> {
  const offset = matchOffset(tokens, at);
  if (offset === undefined) return { value: { kind: 'local', date, time }, next: at };
  return { value: { kind: 'local', date, time, offsetMinutes: offset.value }, next: offset.next };
}

const namedUtc = /^(utc|gmt|z)([+-]\d{1,2}(:?\d{2})?)?$/;
const numericOffset = /^[+-](\d{1,2})(?::?(\d{2}))?$/;

/** `UTC`, `GMT`, `Z`, `UTC+2`, `GMT -05:00`, `+02:00`, `-0500` -> minutes east of UTC. */
function matchOffset(tokens: readonly Token[], at: number): Match<number> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  const named = namedUtc.exec(word);
  if (named !== null) {
    if (named[2] !== undefined) return { value: offsetMinutes(tokens, at, named[2]), next: at + 1 };
    const after = lowerAt(tokens, at + 1);
    if (after !== undefined && numericOffset.test(after)) {
      return { value: offsetMinutes(tokens, at + 1, after), next: at + 2 };
    }
    return { value: 0, next: at + 1 };
  }
  if (word.length >= 5 && numericOffset.test(word)) {
    return { value: offsetMinutes(tokens, at, word), next: at + 1 };
  }
  return undefined;
}

function offsetMinutes(tokens: readonly Token[], at: number, text: string): number {
  const m = numericOffset.exec(text.replace(/^(utc|gmt|z)/, ''));
  const hours = Number(m?.[1] ?? Number.NaN);
  const minutes = Number(m?.[2] ?? 0);
  if (!(hours <= 14 && minutes <= 59))
    throw parseErrors.invalidDate(tokensText(tokens, at, at + 1));
  return (text.includes('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** A time first: `2pm`, `9:30 yesterday`, `14:05 on Sep 9`. */
function matchTimeFirst(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const start = lowerAt(tokens, at) === 'at' ? at + 1 : at;
  const time = matchTimeOfDay(tokens, start);
  if (time === undefined) return undefined;
  const dateAt = lowerAt(tokens, time.next) === 'on' ? time.next + 1 : time.next;
  const dated = matchMoment(tokens, dateAt, 'prefixed');
  if (dated !== undefined && dated.value.kind === 'day') {
    const m = withOffset(tokens, dated.next, dated.value.date, time.value);
    return { value: { ...m.value, dateAfterTime: true } as Moment, next: m.next };
  }
  return withOffset(tokens, time.next, undefined, time.value);
}

const meridiems = new Map([
  ['am', 0],
  ['a.m.', 0],
  ['a.m', 0],
  ['pm', 12],
  ['p.m.', 12],
  ['p.m', 12],
]);
/** `in the morning` -> am; `in the afternoon`, `in the evening`, `at night` -> pm. */
function spokenMeridiem(tokens: readonly Token[], at: number): Match<string> | undefined {
  const first = lowerAt(tokens, at);
  if (first === 'at' && lowerAt(tokens, at + 1) === 'night') return { value: 'pm', next: at + 2 };
  if (first !== 'in' || lowerAt(tokens, at + 1) !== 'the') return undefined;
  const part = lowerAt(tokens, at + 2);
  if (part === 'morning') return { value: 'am', next: at + 3 };
  if (part === 'afternoon' || part === 'evening') return { value: 'pm', next: at + 3 };
  return undefined;
}

const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm|a\.m\.?|p\.m\.?)?$/;
const hourMeridiem = /^(\d{1,2})(am|pm|a\.m\.?|p\.m\.?)$/;

/**
 * `14:05`, `14:05:30`, `2pm`, `2 pm`, `7:45 am`, `noon`, `midnight`.
 * @throws ParseError `bad_time` for a clock-shaped token that is no time (`25:00`, `13pm`).
 */
export function matchTimeOfDay(tokens: readonly Token[], at: number): Match<TimeOfDay> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  if (word === 'noon' || word === 'midday')
    return { value: { hour: 12, minute: 0, second: 0 }, next: at + 1 };
  if (word === 'midnight') return { value: { hour: 0, minute: 0, second: 0 }, next: at + 1 };

  let hour: number;
  let minute = 0;
  let second = 0;
  let meridiem: string | undefined;
  let next = at + 1;
  const c = clock.exec(word);
  const h = c === null ? hourMeridiem.exec(word) : null;
  if (c !== null) {
    hour = Number(c[1]);
    minute = Number(c[2]);
    second = c[3] === undefined ? 0 : Number(c[3]);
    meridiem = c[4];
  } else if (h !== null) {
    hour = Number(h[1]);
    meridiem = h[2];
  } else if (/^\d{1,2}$/.test(word) && meridiems.has(lowerAt(tokens, at + 1) ?? '')) {
    hour = Number(word);
  } else if (/^\d{1,2}$/.test(word) && spokenMeridiem(tokens, at + 1) !== undefined) {
    hour = Number(word);
  } else {
    return undefined;
  }
  if (meridiem === undefined && meridiems.has(lowerAt(tokens, next) ?? '')) {
    meridiem = lowerAt(tokens, next);
    next++;
  }
  const spoken = meridiem === undefined ? spokenMeridiem(tokens, next) : undefined;
  if (spoken !== undefined) {
    meridiem = spoken.value;
    next = spoken.next;
  }
  const fragment = tokensText(tokens, at, next);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) throw parseErrors.invalidDate(fragment);
    hour = (hour % 12) + (meridiems.get(meridiem) ?? 0);
  }
  if (hour > 23 || minute > 59 || second > 59) throw parseErrors.invalidDate(fragment);
  return { value: { hour, minute, second }, next };
}
