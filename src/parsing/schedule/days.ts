/**
 * The days a schedule names: weekdays listed or ranged (`mon, wed and fri`, `mon-fri`), days of
 * the month (`the 1st and 15th`, `the last day`) and nth weekdays (`the first monday`).
 */
import type { Match } from '../grammar.ts';
import { digestErrors } from '../messages/digest.ts';
import { isSlipOf } from '../time/misspelt.ts';
import { fullWeekdays, weekdays } from '../time/vocabulary.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import type { ScheduleClause, ScheduleDays } from './clause.ts';
import { withTime } from './time-of-day.ts';

const rangeWords = new Set(['-', 'to', 'through', 'thru', 'till', 'until']);
const monthWords = new Set(['month', 'months']);
const quarterWords = new Set(['quarter', 'quarters']);

/** A weekday name, abbreviation or plural (`mondays`, `tues`) -> cron day 0..6. */
export function weekdayOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  const iso =
    weekdays.get(word) ?? (word.endsWith('s') ? weekdays.get(word.slice(0, -1)) : undefined);
  return iso === undefined ? undefined : iso % 7;
}

/** Close to a weekday name without being one: `mondy`, `wendesday`, `fridays` is not. */
export function looksLikeWeekday(word: string): boolean {
  if (word.length < 4 || weekdayOf(word) !== undefined) return false;
  const bare = word.endsWith('s') ? word.slice(0, -1) : word;
  return fullWeekdays.some((name) => isSlipOf(word, name) || isSlipOf(bare, name));
}

const ordinalWords = new Map([
  ['first', 1],
  ['second', 2],
  ['third', 3],
  ['fourth', 4],
  ['fifth', 5],
]);
const ordinalShape = /^(\d{1,3})(st|nd|rd|th)?$/;

/**
 * `[the] <Nth> [day] [of (every|each|the) month]` or `[the] last day [of …]` at `at`.
 * `committed`: the words before (`every`, `monthly on`) already make it a monthly schedule, so
 * anything else is an error; otherwise a bare `the last` or `the first` is left alone, and only
 * `day`, an ordinal suffix (`1st`) or a month after it make it a schedule. `from` starts the
 * fragment quoted in errors.
 */
export function matchDayOfMonth(
  tokens: readonly Token[],
  at: number,
  committed: boolean,
  from: number,
): Match<ScheduleClause> | undefined {
  const start = lowerAt(tokens, at) === 'the' ? at + 1 : at;
  const word = lowerAt(tokens, start);
  const fail = (): undefined => {
    if (committed) throw digestErrors.unreadable(tokensText(tokens, from, start + 1));
    return undefined;
  };
  if (word === undefined) return fail();
  const shaped = ordinalShape.exec(word);
  let day: number | 'last';
  if (word === 'last') day = 'last';
  else if (ordinalWords.has(word)) day = ordinalWords.get(word) as number;
  else if (shaped !== null) day = Number(shaped[1]);
  else return fail();
  const weekday = weekdayOf(lowerAt(tokens, start + 1));
  if (weekday !== undefined) return matchNthWeekday(tokens, start, day, weekday, from);
  let next = start + 1;
  const named = lowerAt(tokens, next) === 'day';
  if (named) next++;
  const quarter = readOfQuarter(tokens, next);
  if (quarter !== undefined && typeof day === 'number' && day >= 1 && day <= 28) {
    return withTime(tokens, quarter, { kind: 'monthly', day, quarterly: true }, false);
  }
  const monthEnd = readOfMonth(tokens, next);
  const explicit =
    committed || named || monthEnd !== undefined || (shaped !== null && shaped[2] !== undefined);
  if (!explicit) return undefined;
  if (typeof day === 'number' && (day < 1 || day > 31)) {
    throw digestErrors.dayOfMonth(tokensText(tokens, start, next));
  }
  if (typeof day === 'number' && !named && monthEnd === undefined) {
    const more = readMoreDays(tokens, next);
    if (more !== undefined) {
      const days = [...new Set([day, ...more.value])].sort((a, b) => a - b);
      const end = readOfMonth(tokens, more.next) ?? more.next;
      const value: ScheduleDays =
        days.length === 1 ? { kind: 'monthly', day } : { kind: 'monthly-days', days };
      return withTime(tokens, end, value, false);
    }
  }
  return withTime(tokens, monthEnd ?? next, { kind: 'monthly', day }, false);
}

/** `and 15th`, `, 15th and 28th` after a first day of the month -> those days. */
function readMoreDays(tokens: readonly Token[], at: number): Match<number[]> | undefined {
  const days: number[] = [];
  let i = at;
  for (;;) {
    let j = tokens[i]?.kind === 'comma' ? i + 1 : i;
    const joiner = lowerAt(tokens, j);
    if (joiner === 'and' || joiner === '&') j++;
    if (j === i) break;
    if (lowerAt(tokens, j) === 'the') j++;
    const shaped = /^(\d{1,3})(st|nd|rd|th)$/.exec(lowerAt(tokens, j) ?? '');
    if (shaped === null) break;
    const day = Number(shaped[1]);
    if (day < 1 || day > 31) throw digestErrors.dayOfMonth(tokensText(tokens, j, j + 1));
    days.push(day);
    i = j + 1;
  }
  return days.length === 0 ? undefined : { value: days, next: i };
}

/**
 * `[the] first monday [of the month]`, `every last friday`: cron's nth weekday (`1#1`, `5#L`),
 * which croner evaluates; months with no fifth such day are skipped.
 */
function matchNthWeekday(
  tokens: readonly Token[],
  at: number,
  nth: number | 'last',
  weekday: number,
  from: number,
): Match<ScheduleClause> {
  const word = lowerAt(tokens, at + 1) ?? '';
  if (typeof nth === 'number' && (nth < 1 || nth > 5)) {
    throw digestErrors.unreadable(tokensText(tokens, from, at + 2));
  }
  if (word.endsWith('s') && weekdays.get(word) === undefined) {
    throw digestErrors.unreadable(tokensText(tokens, from, at + 2));
  }
  const quarter = readOfQuarter(tokens, at + 2);
  if (quarter !== undefined) {
    return withTime(tokens, quarter, { kind: 'nth-weekday', weekday, nth, quarterly: true }, false);
  }
  const end = readOfMonth(tokens, at + 2) ?? at + 2;
  return withTime(tokens, end, { kind: 'nth-weekday', weekday, nth }, false);
}

/** `of every quarter`, `of each quarter`, `of the quarter`, `every quarter` -> index after. */
function readOfQuarter(tokens: readonly Token[], at: number): number | undefined {
  const of = lowerAt(tokens, at) === 'of' ? at + 1 : at;
  const which = lowerAt(tokens, of);
  if (
    (which === 'every' || which === 'each' || which === 'the') &&
    quarterWords.has(lowerAt(tokens, of + 1) ?? '')
  ) {
    return of + 2;
  }
  if (of !== at && quarterWords.has(which ?? '')) return of + 1;
  return undefined;
}

/** `of every month`, `of each month`, `of the month`, `every month`, `each month` -> index after. */
function readOfMonth(tokens: readonly Token[], at: number): number | undefined {
  const of = lowerAt(tokens, at) === 'of' ? at + 1 : at;
  const which = lowerAt(tokens, of);
  if (
    (which === 'every' || which === 'each' || which === 'the') &&
    monthWords.has(lowerAt(tokens, of + 1) ?? '')
  ) {
    return of + 2;
  }
  if (of !== at && monthWords.has(which ?? '')) return of + 1;
  return undefined;
}

/**
 * Days of the week joined by commas, `and`, `&`, and ranges (`mon-fri`, `monday to friday`). A
 * misspelt day after a joiner is an error: the list has announced a day.
 */
export function matchDayList(tokens: readonly Token[], at: number): Match<ScheduleClause> {
  const days = new Set<number>();
  let i = at;
  for (;;) {
    const range = readDayRange(tokens, i);
    if (range === undefined) break;
    for (const day of range.value) days.add(day);
    i = range.next;
    let separator = i;
    if (tokens[separator]?.kind === 'comma') separator++;
    const joiner = lowerAt(tokens, separator);
    if (joiner === 'and' || joiner === '&') separator++;
    // "every mon wed fri": days side by side need no joiner.
    if (separator === i && startsDayList(tokens, i)) continue;
    if (separator === i) break;
    const after = lowerAt(tokens, separator);
    if (after !== undefined && weekdayOf(after) === undefined && looksLikeWeekday(after)) {
      throw digestErrors.unknownWeekday(
        tokensText(tokens, at, separator + 1),
        tokens[separator]?.text ?? after,
      );
    }
    if (!startsDayList(tokens, separator)) break;
    i = separator;
  }
  const sorted = [...days].sort((a, b) => a - b);
  return withTime(tokens, i, { kind: 'weekly', days: sorted }, false);
}

/** Whether a weekday, a list or a range of them starts at `at`, so the schedule's days go on. */
export function startsDayList(tokens: readonly Token[], at: number): boolean {
  return readDayRange(tokens, at) !== undefined;
}

function readDayRange(tokens: readonly Token[], at: number): Match<number[]> | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  const glued = /^([a-z]+)-([a-z]+)$/.exec(word);
  if (glued !== null) {
    const from = weekdayOf(glued[1]);
    const to = weekdayOf(glued[2]);
    if (from === undefined || to === undefined) return undefined;
    return { value: dayRange(from, to), next: at + 1 };
  }
  const from = weekdayOf(word);
  if (from === undefined) return undefined;
  const separator = tokens[at + 1];
  const isRange =
    separator !== undefined &&
    (separator.kind === 'dash' || (separator.kind === 'word' && rangeWords.has(separator.lower)));
  const to = isRange ? weekdayOf(lowerAt(tokens, at + 2)) : undefined;
  if (to === undefined) return { value: [from], next: at + 1 };
  return { value: dayRange(from, to), next: at + 3 };
}

/** Monday-first, so `fri-mon` is Friday to the next Monday. */
function dayRange(from: number, to: number): number[] {
  const days: number[] = [];
  const start = (from + 6) % 7;
  const end = (to + 6) % 7;
  for (let i = start; ; i = (i + 1) % 7) {
    days.push((i + 1) % 7);
    if (i === end) break;
  }
  return days;
}
