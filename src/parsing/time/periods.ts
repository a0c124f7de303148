/**
 * Spans named relative to now or by number: `last week`, `past 48 hours`, `2 weeks ago`, `Q3
 * 2025`, `in 2025`, `ytd`.
 */
import type { Match } from '../grammar.ts';
import { lowerAt, type Token } from '../tokens.ts';
import { type Moment, type MomentContext, yearAt } from './ast.ts';
import { rejectPartOfDay } from './clock.ts';
import { withTimeOfDay } from './dates.ts';
import {
  type CalendarUnit,
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

/** `last week`, `this month`, `past 48 hours`, `last 7 days`, `last friday`, `next year`. */
export function matchRelativePeriod(
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

/** `Q3`, `q1 2025`: without a year, the most recent such quarter that has started. */
export function matchQuarter(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const word = lowerAt(tokens, at);
  const q = word === undefined ? null : /^q([1-4])$/.exec(word);
  if (q === null) return undefined;
  const year = yearAt(tokens, at + 1);
  return {
    value: { kind: 'quarter', quarter: Number(q[1]), year },
    next: year === undefined ? at + 1 : at + 2,
  };
}

/**
 * A year `2025` (1900 to 2099): the whole year, when something says it is a time: `in 2025`,
 * `during 2025`, or a range endpoint (`since 2025`, `from 2024 to 2025`). Alone, a bare number
 * is a database ID (`#hcsm 2025` asks for database 2025), as the grammar promises.
 */
export function matchYear(
  tokens: readonly Token[],
  at: number,
  context: MomentContext,
): Match<Moment> | undefined {
  if (context === 'free') return undefined;
  const year = yearAt(tokens, at);
  if (year === undefined) return undefined;
  return { value: { kind: 'year', year }, next: at + 1 };
}
