/**
 * What a lookup is compared with: `vs previous period`, `vs last year`, `vs Q2`, `compared to the
 * week before`, `MoM`, `same day last week`, `change from Q2 to Q3`. What each one means is the
 * table in docs/calendar.md, which test/parsing/calendar-table.test.ts applies.
 */
import { DateTime } from 'luxon';
import { ParseError } from '../errors.ts';
import { earliestDataDate, type LookupRequest } from '../model/lookup.ts';
import { formatInstant } from '../time/format.ts';
import type { Match, Matcher } from './grammar.ts';
import { parseErrors } from './messages/lookup.ts';
import { type Moment, type TimeExpression, yearAt } from './time/ast.ts';
import { weeksInYear } from './time/calendar.ts';
import {
  checkEarliest,
  evaluateTimeExpression,
  type TimeContext,
  type TimeWindow,
} from './time/evaluate.ts';
import { isSlipOf } from './time/misspelt.ts';
import {
  likeForLike,
  type PeriodUnit,
  periodShape,
  previousPeriod,
} from './time/previous-period.ts';
import { matchTimeExpression } from './time/ranges.ts';
import { shift } from './time/shift.ts';
import { type CalendarUnit, numberWords, type Unit, units } from './time/vocabulary.ts';
import { lowerAt, type Token, tokensText } from './tokens.ts';

/**
 * A comparison as read: `previous`, the previous period (`time/previous-period.ts`: the calendar
 * unit before, the same part of it for a unit to date, else the equal span before); `year`,
 * the same window a year earlier; `before`, `amount` units ending where the window starts (`the
 * week before`, `the previous 7 days`, `the previous month`); `over`, the `unit` before (`MoM`,
 * `WoW`), and alone it compares that unit so far; `same`, the window moved `amount` `back`
 * units (`same day last week`; `same week last year` is the same ISO week); `window`, a window of
 * its own (`vs Q2`, `vs last month`; `yearsBack`: `vs October last year`); `pair`, both windows
 * named together (`change from Q2 to Q3`: `main` is the later one).
 */
export type Comparison =
  | { readonly kind: 'previous' }
  | { readonly kind: 'year' }
  | { readonly kind: 'before'; readonly unit: Unit; readonly amount: number }
  | { readonly kind: 'over'; readonly unit: PeriodUnit }
  | {
      readonly kind: 'same';
      readonly what: string;
      readonly back: CalendarUnit | 'day';
      readonly amount: number;
    }
  | { readonly kind: 'window'; readonly expression: TimeExpression; readonly yearsBack?: number }
  | { readonly kind: 'pair'; readonly main: TimeExpression; readonly expression: TimeExpression };

const compareWords: ReadonlySet<string> = new Set(['vs', 'vs.', 'versus', 'against']);
/** `v` is a comparison only when one follows: alone it may be part of a phrase (`Roe v Wade`). */
const looseCompareWords: ReadonlySet<string> = new Set(['v', 'v.']);
const compareVerbs: ReadonlySet<string> = new Set(['compared', 'compare', 'comparing']);
/** Verbs that say two windows named as a range are compared (`change from Q2 to Q3`). */
const changeVerbs: ReadonlySet<string> = new Set(['change', 'changed', 'changes']);
/** Analysts' shorthand: the unit before, like for like. `yoy` is the same window a year earlier. */
const overShorthand: ReadonlyMap<string, PeriodUnit> = new Map<string, PeriodUnit>([
  ['dod', 'day'],
  ['d/d', 'day'],
  ['wow', 'week'],
  ['w/w', 'week'],
  ['mom', 'month'],
  ['m/m', 'month'],
  ['qoq', 'quarter'],
  ['q/q', 'quarter'],
]);
const previousWords: ReadonlySet<string> = new Set(['previous', 'prior', 'preceding']);
const calendarUnits: ReadonlySet<string> = new Set(['day', 'week', 'month', 'quarter', 'year']);
/** `the same <what> last year`. */
const sameWhat: ReadonlySet<string> = new Set([
  'period',
  'window',
  'week',
  'month',
  'quarter',
  'days',
  'day',
  'time',
]);

/**
 * `vs`, `versus`, `against`, `compared to`/`with`, then `previous` (`the previous period`, `prior
 * period`, `the period before`), `last year` (`a year ago`, `the same period last year`), `the
 * <week|month|quarter|year> before`, or any time expression. Undefined when no comparison follows
 * (`#hcsm vs #bcsm` names two databases, `against smoking` is a phrase).
 * @throws ParseError `bad_time` for `vs` with nothing readable after it.
 */
export const matchComparison: Matcher<Comparison> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  const yearOverYear = matchYearOverYear(tokens, at);
  if (yearOverYear !== undefined) return yearOverYear;
  const over = overShorthand.get(word);
  if (over !== undefined) return { value: { kind: 'over', unit: over }, next: at + 1 };
  // `same week last year` with no `vs`: this week so far against it, as `vs same week last year`.
  const what = lowerAt(tokens, at + 1);
  if (word === 'same' && what !== undefined && sameWhat.has(what)) {
    const same = matchSame(tokens, at + 2, what);
    // Kept as `same`, not the window a year back, so that it implies this month or quarter.
    if (same?.value.kind === 'year') {
      return { value: { kind: 'same', what, back: 'year', amount: 1 }, next: same.next };
    }
    if (same !== undefined) return same;
  }
  if (changeVerbs.has(word) || compareVerbs.has(word)) {
    const pair = matchPair(tokens, at + 1);
    if (pair !== undefined) return pair;
  }
  let next: number;
  if (word === 'with' || looseCompareWords.has(word)) {
    // "compare last week with the week before": only a comparison when one follows.
    return matchTarget(tokens, at + 1);
  }
  if (word === 'to' && tokens.slice(0, at).some((token) => compareVerbs.has(token.lower))) {
    // "compare #pharma last quarter to the quarter before".
    return matchTarget(tokens, at + 1);
  }
  if (compareWords.has(word)) next = at + 1;
  else if (
    compareVerbs.has(word) &&
    ['to', 'with', 'against'].includes(lowerAt(tokens, at + 1) ?? '')
  ) {
    next = at + 2;
  } else return undefined;
  if (tokens[next] === undefined && word !== 'against') {
    throw parseErrors.badComparison(tokensText(tokens, at, next));
  }
  const target = matchTarget(tokens, next);
  if (target !== undefined) return target;
  if (
    word === 'against' ||
    tokens[next]?.kind !== 'word' ||
    /^[#"]|^group:/i.test(tokens[next]?.text ?? '')
  ) {
    return undefined;
  }
  throw parseErrors.badComparison(tokensText(tokens, at, next + 1));
};

/**
 * After `change` or `compare`: `from Q2 to Q3`, `Q2 to Q3`, `between Q2 and Q3`: two periods,
 * the later compared with the earlier. Windows that are not whole periods stay a range.
 */
function matchPair(tokens: readonly Token[], at: number): Match<Comparison> | undefined {
  const range = matchTimeExpression(tokens, at);
  if (range === undefined || range.value.kind !== 'range') return undefined;
  const { start, end } = range.value;
  if (!isWholePeriod(start) || !isWholePeriod(end)) return undefined;
  return {
    value: {
      kind: 'pair',
      main: { kind: 'period', moment: end },
      expression: { kind: 'period', moment: start },
    },
    next: range.next,
  };
}

const isWholePeriod = (moment: Moment): boolean =>
  moment.kind === 'month' ||
  moment.kind === 'quarter' ||
  moment.kind === 'half' ||
  moment.kind === 'year' ||
  moment.kind === 'iso-week' ||
  (moment.kind === 'calendar' && moment.offset < 0);

/** `yoy`, `y/y`, `year over year`, `year-over-year`: the same window a year earlier. */
function matchYearOverYear(tokens: readonly Token[], at: number): Match<Comparison> | undefined {
  const word = lowerAt(tokens, at);
  if (word === 'yoy' || word === 'y/y' || word === 'year-over-year') {
    return { value: { kind: 'year' }, next: at + 1 };
  }
  if (word === 'year' && lowerAt(tokens, at + 1) === 'over' && lowerAt(tokens, at + 2) === 'year') {
    return { value: { kind: 'year' }, next: at + 3 };
  }
  return undefined;
}

function matchTarget(tokens: readonly Token[], at: number): Match<Comparison> | undefined {
  const the = lowerAt(tokens, at) === 'the' ? at + 1 : at;
  const first = lowerAt(tokens, the);
  const second = lowerAt(tokens, the + 1);
  if (first !== undefined && previousWords.has(first)) {
    const before = unitsBefore(tokens, the + 1);
    if (before !== undefined) return before;
    if (second !== undefined && second !== 'period' && isSlipOf(second, 'period')) {
      const fragment = tokensText(tokens, the, the + 2);
      throw parseErrors.didYouMean(fragment, `${tokensText(tokens, the, the + 1)} period`);
    }
    const period = second === 'period' ? the + 2 : the + 1;
    return { value: { kind: 'previous' }, next: period };
  }
  if (first === 'period' && second === 'before')
    return { value: { kind: 'previous' }, next: the + 2 };
  if (first === 'same' && second !== undefined && sameWhat.has(second)) {
    const same = matchSame(tokens, the + 2, second);
    if (same !== undefined) return same;
  }
  if (first !== undefined && matchYearOverYear(tokens, the) !== undefined) {
    return matchYearOverYear(tokens, the);
  }
  if ((first === 'last' && second === 'year') || (first === 'a' && second === 'year')) {
    const ago = first === 'a' && lowerAt(tokens, the + 2) === 'ago';
    if (first === 'last' || ago) return { value: { kind: 'year' }, next: ago ? the + 3 : the + 2 };
  }
  if (
    the > at &&
    first !== undefined &&
    calendarUnits.has(first) &&
    second === 'before' &&
    lowerAt(tokens, the + 2) !== 'last' &&
    lowerAt(tokens, the + 2) !== 'yesterday'
  ) {
    return { value: { kind: 'before', unit: first as Unit, amount: 1 }, next: the + 2 };
  }
  // `the 7 days before`: that many units ending where the window starts.
  if (the > at && lowerAt(tokens, the + 2) === 'before') {
    const counted = unitsBefore(tokens, the);
    if (counted !== undefined && counted.next === the + 2) return { ...counted, next: the + 3 };
  }
  const year = yearAt(tokens, at);
  if (year !== undefined) {
    // `2025 vs 2024`: after a comparison a year is that year, not a database ID.
    const expression = { kind: 'period', moment: { kind: 'year', year } } as const;
    return { value: { kind: 'window', expression }, next: at + 1 };
  }
  const window = matchTimeExpression(tokens, at);
  if (window === undefined) return undefined;
  const expression = calendarAgo(window.value);
  const back = yearsBack(tokens, window.next);
  if (back !== undefined) {
    return { value: { kind: 'window', expression, yearsBack: back.value }, next: back.next };
  }
  return { value: { kind: 'window', expression }, next: window.next };
}

/**
 * After `same <what>`: `last year`, `a year ago`, `last week`, `2 years ago`, `the year before`:
 * the window moved back that far.
 */
function matchSame(
  tokens: readonly Token[],
  at: number,
  what: string,
): Match<Comparison> | undefined {
  const first = lowerAt(tokens, at);
  const second = lowerAt(tokens, at + 1);
  const unitOf = (word: string | undefined): CalendarUnit | 'day' | undefined => {
    const unit = units.get(word ?? '');
    return unit === 'minute' || unit === 'hour' ? undefined : unit;
  };
  const same = (back: CalendarUnit | 'day', amount: number, next: number): Match<Comparison> =>
    back === 'year' && amount === 1 && what !== 'week' && what !== 'day'
      ? { value: { kind: 'year' }, next }
      : { value: { kind: 'same', what, back, amount }, next };
  if (first === 'last' || first === 'previous') {
    const back = unitOf(second);
    return back === undefined ? undefined : same(back, 1, at + 2);
  }
  if (first === 'the' && lowerAt(tokens, at + 2) === 'before') {
    const back = unitOf(second);
    return back === undefined ? undefined : same(back, 1, at + 3);
  }
  const amount = first === 'a' || first === 'an' ? 1 : countOf(first);
  const back = unitOf(second);
  if (amount === undefined || back === undefined || lowerAt(tokens, at + 2) !== 'ago') {
    return undefined;
  }
  return same(back, amount, at + 3);
}

function countOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  return /^\d{1,4}$/.test(word) ? Number(word) : numberWords.get(word);
}

/** `last year`, `a year earlier`, `the year before` after a compared window. */
function yearsBack(tokens: readonly Token[], at: number): Match<number> | undefined {
  const first = lowerAt(tokens, at);
  const second = lowerAt(tokens, at + 1);
  if (first === 'last' && second === 'year') return { value: 1, next: at + 2 };
  if (first === 'the' && second === 'year' && lowerAt(tokens, at + 2) === 'before') {
    return { value: 1, next: at + 3 };
  }
  if ((first === 'a' || first === 'one') && second === 'year') {
    const after = lowerAt(tokens, at + 2);
    if (after === 'ago' || after === 'earlier' || after === 'before') {
      return { value: 1, next: at + 3 };
    }
  }
  return undefined;
}

/**
 * `vs 2 weeks ago` names the week before last, not the 14 days to now (which hold the window):
 * after a comparison, `N units ago` is that calendar unit.
 */
function calendarAgo(expression: TimeExpression): TimeExpression {
  if (expression.kind !== 'period' || expression.moment.kind !== 'ago') return expression;
  const { unit, amount } = expression.moment;
  if (unit === 'minute' || unit === 'hour') return expression;
  if (unit === 'day') {
    const date = { kind: 'relative-day', days: -amount } as const;
    return { kind: 'period', moment: { kind: 'day', date } };
  }
  return { kind: 'period', moment: { kind: 'calendar', unit, offset: -amount } };
}

/** `7 days`, `week`, `2 months` after `previous`: that many units before the window. */
function unitsBefore(tokens: readonly Token[], at: number): Match<Comparison> | undefined {
  const word = lowerAt(tokens, at) ?? '';
  const counted = /^\d{1,4}$/.test(word) ? Number(word) : numberWords.get(word);
  const unitAt = counted === undefined ? at : at + 1;
  const unit = units.get(lowerAt(tokens, unitAt) ?? '');
  if (unit === undefined || (lowerAt(tokens, unitAt) ?? '').length < 3) return undefined;
  return { value: { kind: 'before', unit, amount: counted ?? 1 }, next: unitAt + 1 };
}

/**
 * The window a comparison names beside `main`, in its zone.
 * @throws ParseError for a window that cannot be (`vs tomorrow`).
 */
export function comparisonWindow(
  comparison: Comparison,
  main: TimeWindow,
  context: TimeContext,
  fragment: string,
  hint?: PeriodUnit,
): TimeWindow {
  switch (comparison.kind) {
    case 'previous':
      return previousPeriod(main, hint);
    case 'year': {
      // An ISO week a year earlier is the same ISO week, Monday to Monday, not the same dates.
      const week = periodShape(main, 'week');
      if (week?.unit === 'week' && !week.toDate) {
        return sameWindowBack(main, { kind: 'same', what: 'week', back: 'year', amount: 1 });
      }
      return { start: shift(main.start, 'year', -1), end: shift(main.end, 'year', -1) };
    }
    case 'over':
      return likeForLike(main, comparison.unit, 1) ?? previousPeriod(main, hint);
    case 'same':
      return sameWindowBack(main, comparison);
    case 'before': {
      // `vs previous month` beside a month (or a month to date): the calendar month before.
      const unit = comparison.amount === 1 ? asPeriodUnit(comparison.unit) : undefined;
      if (unit !== undefined && periodShape(main, unit)?.unit === unit) {
        return previousPeriod(main, unit);
      }
      return { start: shift(main.start, comparison.unit, -comparison.amount), end: main.start };
    }
    case 'window':
    case 'pair': {
      const { expression } = comparison;
      const back = comparison.kind === 'window' ? (comparison.yearsBack ?? 0) : 0;
      const window =
        calendarLikeForLike(expression, main) ??
        evaluateTimeExpression(expression, context, fragment);
      if (back === 0) return window;
      return { start: shift(window.start, 'year', -back), end: shift(window.end, 'year', -back) };
    }
  }
}

/**
 * `mtd vs last month`, `wtd vs last week`, `this quarter vs 2 quarters ago`: a unit to date
 * against a whole unit before is compared like for like, the same elapsed part of it.
 */
function calendarLikeForLike(expression: TimeExpression, main: TimeWindow): TimeWindow | undefined {
  if (expression.kind !== 'period' || expression.moment.kind !== 'calendar') return undefined;
  const { unit, offset } = expression.moment;
  if (offset >= 0 || periodShape(main, unit)?.toDate !== true) return undefined;
  return likeForLike(main, unit, -offset);
}

/** `same day last week`, `same period last month`, `same week last year` (the ISO week). */
function sameWindowBack(main: TimeWindow, same: Extract<Comparison, { kind: 'same' }>): TimeWindow {
  if (same.what === 'week' && same.back === 'year') {
    const isoBack = (instant: DateTime): DateTime => {
      const weekYear = instant.weekYear - same.amount;
      const weekNumber = Math.min(instant.weekNumber, weeksInYear(weekYear));
      return instant.set({ weekYear, weekNumber });
    };
    return { start: isoBack(main.start), end: isoBack(main.end) };
  }
  return {
    start: shift(main.start, same.back, -same.amount),
    end: shift(main.end, same.back, -same.amount),
  };
}

/**
 * The window a comparison names on its own when the command names none: `from Q2 to Q3` names
 * both; `compared with last month`, `MoM` compare this month so far (the unit to date).
 */
export function impliedWindow(comparison: Comparison): TimeExpression | undefined {
  switch (comparison.kind) {
    case 'pair':
      return comparison.main;
    case 'over':
      return comparison.unit === 'day' || comparison.unit === 'half'
        ? undefined
        : { kind: 'period', moment: { kind: 'calendar', unit: comparison.unit, offset: 0 } };
    case 'same': {
      // `same day last week` alone: today so far; `same week last year`: this week so far.
      if (comparison.what === 'day') {
        return { kind: 'period', moment: { kind: 'day', date: { kind: 'relative-day', days: 0 } } };
      }
      const unit = impliedUnits.get(comparison.what);
      return unit === undefined
        ? undefined
        : { kind: 'period', moment: { kind: 'calendar', unit, offset: 0 } };
    }
    case 'window': {
      const { expression } = comparison;
      if (expression.kind !== 'period' || expression.moment.kind !== 'calendar') return undefined;
      if (expression.moment.offset >= 0 || comparison.yearsBack !== undefined) return undefined;
      return {
        kind: 'period',
        moment: { kind: 'calendar', unit: expression.moment.unit, offset: 0 },
      };
    }
    default:
      return undefined;
  }
}

/** `same week last year` alone compares this week so far, and so on. */
const impliedUnits: ReadonlyMap<string, CalendarUnit> = new Map<string, CalendarUnit>([
  ['week', 'week'],
  ['month', 'month'],
  ['quarter', 'quarter'],
]);

function asPeriodUnit(unit: Unit): PeriodUnit | undefined {
  return unit === 'minute' || unit === 'hour' ? undefined : unit;
}

/**
 * `request` compared with the previous period of its window, read as `vs previous period` reads
 * it (the unit inferred from the window itself): what the "Compare with previous period" button asks for. `context`
 * gives the clock and the request's zone; `earliestDate` the first day with data (default
 * {@link earliestDataDate}). Returns the ParseError when that period starts before it.
 */
export function withPreviousPeriod(
  request: LookupRequest,
  context: TimeContext & { readonly earliestDate?: string },
): LookupRequest | ParseError {
  const fragment = 'vs previous period';
  const main = {
    start: DateTime.fromISO(request.start, { zone: context.zone }),
    end: DateTime.fromISO(request.end, { zone: context.zone }),
  };
  try {
    const previous = checkEarliest(
      comparisonWindow({ kind: 'previous' }, main, context, fragment),
      context.earliestDate ?? earliestDataDate,
      fragment,
    );
    return {
      ...request,
      compare: { start: formatInstant(previous.start), end: formatInstant(previous.end) },
    };
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}
