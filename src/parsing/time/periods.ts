/**
 * Spans named relative to now or by number: `last week`, `past 48 hours`, `2 weeks ago`, `Q3
 * 2025`, `H1 2026`, `2026-W46`, `in 2025`, `ytd`, `the week before last`, `this morning`.
 */
import type { Match } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { vocabularyErrors } from '../messages/vocabulary.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import { type Moment, type MomentContext, yearAfterDay, yearAt } from './ast.ts';
import { weeksInYear } from './calendar.ts';
import { matchPartOfDay } from './clock.ts';
import { withTimeOfDay } from './dates.ts';
import {
  type CalendarUnit,
  months,
  numberWords,
  shorthandUnits,
  type Unit,
  units,
  weekdays,
} from './vocabulary.ts';

/** The calendar period `offset` whole units from the current one (`ytd`, `last week`). */
export function calendar(unit: CalendarUnit, offset: number, next: number): Match<Moment> {
  return { value: { kind: 'calendar', unit, offset }, next };
}

/**
 * `last week`, `this month`, `past 48 hours`, `last 7 days`, `last friday`, `next year`, `this
 * morning`, `last night`.
 */
export function matchRelativePeriod(
  tokens: readonly Token[],
  at: number,
  word: string,
): Match<Moment> | undefined {
  const next = lowerAt(tokens, at + 1);
  if (next === undefined) return undefined;
  if (word === 'this' && next === 'past') return matchRelativePeriod(tokens, at + 1, 'past');
  if (word === 'last' && next === 'week' && lowerAt(tokens, at + 2) === 'of') {
    return matchMonthWeek(tokens, at, 'last');
  }
  if (vagueAmounts.has(next) && (word === 'last' || word === 'past')) {
    return matchVagueAmount(tokens, at, vagueAmounts.get(next));
  }
  const back = word === 'last' || word === 'past' || word === 'previous';
  const part = matchPartOfDay(tokens, at + 1, {
    kind: 'relative-day',
    days: back ? -1 : word === 'next' ? 1 : 0,
  });
  if (part !== undefined) return part;
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
export function matchAmount(tokens: readonly Token[], at: number): Match<Moment> | undefined {
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

/**
 * After a unit word: `week to date` (and the other units), `the week before last` (two whole units
 * back), `week 46` and `wk 46 2025` (ISO weeks).
 */
export function matchUnitPeriod(
  tokens: readonly Token[],
  at: number,
  unit: CalendarUnit,
): Match<Moment> | undefined {
  const next = lowerAt(tokens, at + 1);
  if (next === 'to' && lowerAt(tokens, at + 2) === 'date') return calendar(unit, 0, at + 3);
  if (next === 'before' && lowerAt(tokens, at + 2) === 'last') return calendar(unit, -2, at + 3);
  if (unit !== 'week') return undefined;
  const week = next === undefined ? null : /^(\d{1,2})$/.exec(next);
  if (week === null) return undefined;
  return isoWeek(tokens, at, Number(week[1]), yearAfterDay(tokens, at + 2));
}

const gluedIsoWeek = /^(?:(\d{4})-?)?(?:w|wk|week|cw|kw)-?(\d{1,2})$/;

/**
 * `2026-W46`, `2026W46`, `W46`, `wk46`, `week46`, `CW46`, `KW46` (and `W46 2025`): that ISO week, of
 * that ISO year or, without one, the most recent that has started.
 */
export function matchIsoWeek(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const word = lowerAt(tokens, at);
  const glued = word === undefined ? null : gluedIsoWeek.exec(word);
  if (glued === null) return undefined;
  const year =
    glued[1] === undefined
      ? yearAfterDay(tokens, at + 1)
      : { value: Number(glued[1]), next: at + 1 };
  return isoWeek(tokens, at, Number(glued[2]), year);
}

function isoWeek(
  tokens: readonly Token[],
  at: number,
  week: number,
  year: Match<number | undefined>,
): Match<Moment> {
  const longYear = year.value === undefined || weeksInYear(year.value) === 53;
  if (week < 1 || week > 53 || (week === 53 && !longYear)) {
    throw parseErrors.invalidDate(tokensText(tokens, at, year.next));
  }
  return { value: { kind: 'iso-week', week, year: year.value }, next: year.next };
}

/** `the first week of November`, `the last week of October 2025`: its first or last 7 days. */
export function matchMonthWeek(
  tokens: readonly Token[],
  at: number,
  which: 'first' | 'last',
): Match<Moment> | undefined {
  if (lowerAt(tokens, at + 1) !== 'week' || lowerAt(tokens, at + 2) !== 'of') return undefined;
  const month = months.get(lowerAt(tokens, at + 3) ?? '');
  if (month === undefined) return undefined;
  const year = yearAt(tokens, at + 4);
  return {
    value: { kind: 'month-week', month, year, which },
    next: year === undefined ? at + 4 : at + 5,
  };
}

/** `few`, `couple`: amounts people give without a number; `couple` is two. */
const vagueAmounts: ReadonlyMap<string, number | undefined> = new Map([
  ['few', undefined],
  ['several', undefined],
  ['couple', 2],
]);

/**
 * `last couple of days` (two), `past few weeks` (no agreed number: refused with windows to
 * choose from, the one closest to it in the command).
 */
function matchVagueAmount(
  tokens: readonly Token[],
  at: number,
  amount: number | undefined,
): Match<Moment> | undefined {
  const of = lowerAt(tokens, at + 2) === 'of' ? at + 3 : at + 2;
  const unit = units.get(lowerAt(tokens, of) ?? '');
  if (unit === undefined) return undefined;
  if (amount !== undefined) return { value: { kind: 'rolling', amount, unit }, next: of + 1 };
  const fragment = tokensText(tokens, at, of + 1);
  throw vocabularyErrors.vagueTime(fragment, `last 3 ${unit}s`);
}

/** `first half of 2026`, `second half`, `the first half of the year`. */
export function matchHalf(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const which = lowerAt(tokens, at);
  if (which === 'first' && lowerAt(tokens, at + 1) === 'week') {
    return matchMonthWeek(tokens, at, 'first');
  }
  if (lowerAt(tokens, at + 1) !== 'half') return undefined;
  const half = which === 'first' ? 1 : which === 'second' ? 2 : undefined;
  if (half === undefined) return undefined;
  let next = at + 2;
  let year: number | undefined;
  if (lowerAt(tokens, next) === 'of') {
    const theYear = lowerAt(tokens, next + 1) === 'the' && lowerAt(tokens, next + 2) === 'year';
    year = theYear ? undefined : yearAt(tokens, next + 1);
    if (theYear) next += 3;
    else if (year !== undefined) next += 2;
  } else {
    year = yearAt(tokens, next);
    if (year !== undefined) next++;
  }
  return { value: { kind: 'half', half, year }, next };
}

/**
 * `Q3`, `q1 2025`, `H1 2026`, `h2`: without a year, the most recent such quarter or half that has
 * started.
 */
export function matchQuarter(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const word = lowerAt(tokens, at);
  const q = word === undefined ? null : /^([qh])([1-4])$/.exec(word);
  if (q === null || (q[1] === 'h' && Number(q[2]) > 2)) return undefined;
  const year = yearAt(tokens, at + 1);
  const next = year === undefined ? at + 1 : at + 2;
  if (q[1] === 'h') return { value: { kind: 'half', half: Number(q[2]) as 1 | 2, year }, next };
  return { value: { kind: 'quarter', quarter: Number(q[2]), year }, next };
}

/**
 * A year `2025` (1900 to 2099): the whole year, when something says it is a time: `in 2025`,
 * `during 2025`, or a range endpoint (`since 2025`, `from 2024 to 2025`). Alone, a bare number
 * is a database ID (`#hcsm 2025` asks for database 2025), as the grammar promises, unless it is
 * compared with another year (`2025 vs 2024`).
 */
export function matchYear(
  tokens: readonly Token[],
  at: number,
  context: MomentContext,
): Match<Moment> | undefined {
  const year = yearAt(tokens, at);
  if (year === undefined || (context === 'free' && !comparedWithYear(tokens, at + 1))) {
    return undefined;
  }
  return { value: { kind: 'year', year }, next: at + 1 };
}

/** `vs 2024`, `compared to 2024` at `at`: the number before is a year too (`2025 vs 2024`). */
function comparedWithYear(tokens: readonly Token[], at: number): boolean {
  const word = lowerAt(tokens, at);
  if (word === 'vs' || word === 'vs.' || word === 'versus' || word === 'v' || word === 'v.') {
    return yearAt(tokens, at + 1) !== undefined;
  }
  const joined = lowerAt(tokens, at + 1);
  return word === 'compared' && (joined === 'to' || joined === 'with')
    ? yearAt(tokens, at + 2) !== undefined
    : false;
}
