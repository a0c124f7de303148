/**
 * What a lookup is compared with: `vs previous period`, `vs last year`, `vs Q2`, `compared to the
 * week before`.
 */
import { DateTime } from 'luxon';
import { ParseError } from '../errors.ts';
import { earliestDataDate, type LookupRequest } from '../model/lookup.ts';
import { formatInstant } from '../time/format.ts';
import type { Match, Matcher } from './grammar.ts';
import { parseErrors } from './messages/lookup.ts';
import type { TimeExpression } from './time/ast.ts';
import {
  checkEarliest,
  evaluateTimeExpression,
  type TimeContext,
  type TimeWindow,
} from './time/evaluate.ts';
import { isSlipOf } from './time/misspelt.ts';
import { type PeriodUnit, periodShape, previousPeriod } from './time/previous-period.ts';
import { matchTimeExpression } from './time/ranges.ts';
import { shift } from './time/shift.ts';
import { numberWords, type Unit, units } from './time/vocabulary.ts';
import { lowerAt, type Token, tokensText } from './tokens.ts';

/**
 * A comparison as read: `previous`, the previous period (`time/previous-period.ts`: the calendar
 * unit before, the same part of it for a unit to date, else the equal span before); `year`,
 * the same window a year earlier; `before`, `amount` units ending where the window starts (`the
 * week before`, `the previous 7 days`, `the previous month`); `window`, a window of its own (`vs
 * Q2`, `vs last month`).
 */
export type Comparison =
  | { readonly kind: 'previous' }
  | { readonly kind: 'year' }
  | { readonly kind: 'before'; readonly unit: Unit; readonly amount: number }
  | { readonly kind: 'window'; readonly expression: TimeExpression };

const compareWords: ReadonlySet<string> = new Set(['vs', 'vs.', 'versus', 'against']);
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
  let next: number;
  if (word === 'with') {
    // "compare last week with the week before": only a comparison when one follows.
    return matchTarget(tokens, at + 1);
  }
  if (compareWords.has(word)) next = at + 1;
  else if (word === 'compared' && ['to', 'with'].includes(lowerAt(tokens, at + 1) ?? '')) {
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
  // `the same period last year`, `the same quarter (month, week) last year`, or `a year ago`.
  if (first === 'same' && second !== undefined && sameWhat.has(second)) {
    const last = lowerAt(tokens, the + 2);
    const year = lowerAt(tokens, the + 3);
    if (last === 'last' && year === 'year') return { value: { kind: 'year' }, next: the + 4 };
    if (last === 'a' && year === 'year' && lowerAt(tokens, the + 4) === 'ago') {
      return { value: { kind: 'year' }, next: the + 5 };
    }
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
  const window = matchTimeExpression(tokens, at);
  if (window === undefined) return undefined;
  return { value: { kind: 'window', expression: window.value }, next: window.next };
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
    case 'year':
      return { start: shift(main.start, 'year', -1), end: shift(main.end, 'year', -1) };
    case 'before': {
      // `vs previous month` beside a month (or a month to date): the calendar month before.
      const unit = comparison.amount === 1 ? asPeriodUnit(comparison.unit) : undefined;
      if (unit !== undefined && periodShape(main, unit)?.unit === unit) {
        return previousPeriod(main, unit);
      }
      return { start: shift(main.start, comparison.unit, -comparison.amount), end: main.start };
    }
    case 'window':
      return evaluateTimeExpression(comparison.expression, context, fragment);
  }
}

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
