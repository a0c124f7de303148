/**
 * The top of the time grammar: a range (`from A to B`, `between A and B`, `Sep 1-8`), `since A`,
 * or one moment standing for its period, read from the token stream into a `TimeExpression`.
 */
import type { ParseError } from '../../errors.ts';
import type { Match, Matcher } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import { type Moment, type TimeExpression, yearAfterDay, yearAt } from './ast.ts';
import { gluedTimes } from './clock.ts';
import { inOneOrder } from './date-order.ts';
import { checkedDate, dayOfMonth, matchDate } from './dates.ts';
import { withGluedRanges } from './glued.ts';
import { nearest } from './misspelt.ts';
import { matchMoment } from './moment.ts';
import { misspellableWords, months, rangeSeparators, units } from './vocabulary.ts';

/** The separators that also say where a window ends: alone, they need a start before them. */
const openEndWords = new Set([...rangeSeparators].filter((word) => word !== 'to'));
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
export const matchTimeExpression: Matcher<TimeExpression> = withGluedRanges((tokens, at) => {
  const word = lowerAt(tokens, at);
  if (word === 'since' || word === 'from') {
    const days = word === 'from' ? daysBeforeMonth(tokens, at + 1) : undefined;
    if (days !== undefined) return days;
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
    return rangeWithDay(tokens, at, first, tail.value.end, tail.next);
  }
  if (word === 'between') {
    const days = daysBeforeMonth(tokens, at + 1, 'and');
    if (days !== undefined) return days;
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
    return rangeWithDay(tokens, at, start.value, end.value, end.next);
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
    return rangeWithDay(tokens, at, start, tail.value.end, tail.next);
  }
  const glued = gluedTimes(tokens[at]);
  if (glued !== undefined) {
    const [start, end] = glued;
    return rangeWithDay(
      tokens,
      at,
      { kind: 'local', date: undefined, time: start },
      { kind: 'local', date: undefined, time: end },
      at + 1,
    );
  }
  const days = daysBeforeMonth(tokens, at);
  if (days !== undefined) return days;
  const moment = matchMoment(tokens, at, 'free');
  if (moment === undefined) return undefined;
  const tail = matchRangeTail(tokens, moment.value, moment.next, false);
  if (tail === undefined)
    return { value: { kind: 'period', moment: moment.value }, next: moment.next };
  const first = tail.value.start ?? moment.value;
  return rangeWithDay(tokens, at, first, tail.value.end, tail.next);
});

/**
 * `1st to 15th November`, `1 - 15 Nov 2025`, `1.-15. Oktober`, `the 1st to the 15th of October`
 * (after `from`), `1 and 15 October` (after `between`): the month (and year) named once, at the
 * end. `joiner`: the word between the days besides a range's separators.
 */
function daysBeforeMonth(
  tokens: readonly Token[],
  from: number,
  joiner?: string,
): Match<TimeExpression> | undefined {
  const at = lowerAt(tokens, from) === 'the' ? from + 1 : from;
  const first = dayOfMonth.exec(lowerAt(tokens, at) ?? '');
  const joined = isRangeSeparator(tokens[at + 1]) || lowerAt(tokens, at + 1) === joiner;
  if (first === null || !joined) return undefined;
  const second = lowerAt(tokens, at + 2) === 'the' ? at + 3 : at + 2;
  if (!dayOfMonth.test(lowerAt(tokens, second) ?? '')) return undefined;
  const end = matchDate(tokens, second);
  if (end?.value.kind !== 'day' || end.value.date.kind !== 'ymd') return undefined;
  const { year, month } = end.value.date;
  const fragment = tokensText(tokens, from, end.next);
  const start: Moment = { kind: 'day', date: checkedDate(fragment, year, month, Number(first[1])) };
  return rangeWithDay(tokens, from, start, end.value, end.next);
}

function isRangeSeparator(token: Token | undefined): boolean {
  return token?.kind === 'dash' || (token?.kind === 'word' && rangeSeparators.has(token.lower));
}

/** Why no time follows the range keyword at `keyword`: unix milliseconds, or no time at all. */
function endpointError(tokens: readonly Token[], keyword: number, at: number): ParseError {
  const word = lowerAt(tokens, at);
  if (word !== undefined && unixMillis.test(word)) {
    return parseErrors.unixMilliseconds(tokensText(tokens, keyword, at + 1));
  }
  const meant = word === undefined ? undefined : nearest(word, misspellableWords);
  if (meant !== undefined) return parseErrors.didYouMean(tokensText(tokens, at, at + 1), meant);
  return parseErrors.badTime(tokensText(tokens, keyword, at + 1));
}

/**
 * A range; when both ends are times of day without a date and a day follows (`9am to 5pm
 * yesterday`, `between 9am and 5pm on Sep 9`), that day is the date of both.
 */
function rangeWithDay(
  tokens: readonly Token[],
  from: number,
  first: Moment,
  last: Moment,
  next: number,
): Match<TimeExpression> {
  const { start, end } = inOneOrder(first, last, () => tokensText(tokens, from, next));
  if (start.kind === 'local' && start.date === undefined && end.kind === 'local') {
    if (end.date !== undefined) {
      // "between 9am and 5pm yesterday": the end read "5pm yesterday" as one time-first moment.
      return end.dateAfterTime === true
        ? { value: { kind: 'range', start: { ...start, date: end.date }, end }, next }
        : { value: { kind: 'range', start, end }, next };
    }
    const dayAt = lowerAt(tokens, next) === 'on' ? next + 1 : next;
    const day = matchMoment(tokens, dayAt, 'prefixed');
    if (day !== undefined && day.value.kind === 'day') {
      const date = day.value.date;
      return {
        value: { kind: 'range', start: { ...start, date }, end: { ...end, date } },
        next: day.next,
      };
    }
    // "noon to 2pm", "10pm to 2am": today's, as "this afternoon" is; the end follows the start.
    const today = { ...start, date: { kind: 'relative-day', days: 0 }, today: true } as const;
    return { value: { kind: 'range', start: today, end }, next };
  }
  return { value: { kind: 'range', start, end }, next };
}

function matchRangeTail(
  tokens: readonly Token[],
  start: Moment,
  at: number,
  committed: boolean,
): Match<{ start?: Moment; end: Moment }> | undefined {
  const token = tokens[at];
  if (!isRangeSeparator(token)) return undefined;
  const separator = lowerAt(tokens, at);
  if (separator === 'to' && lowerAt(tokens, at + 1) === 'date') {
    return { value: { end: { kind: 'now' } }, next: at + 2 };
  }
  const compact = compactEnd(tokens, start, at + 1);
  if (compact !== undefined) return compact;
  const end = matchEndpoint(tokens, at + 1);
  if (end === undefined) {
    if (committed || unixMillis.test(lowerAt(tokens, at + 1) ?? '')) {
      throw endpointError(tokens, at, at + 1);
    }
    return undefined;
  }
  return { value: { end: end.value }, next: end.next };
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
    const day = dayOfMonth.exec(word);
    const following = lowerAt(tokens, at + 1) ?? '';
    // `Sep 1 to 9 Sep`, `Oct 1 to 1 week ago`: the number starts a moment of its own.
    if (day === null || months.has(following) || units.has(following)) return undefined;
    const after = start.date.year === undefined ? yearAfterDay(tokens, at + 1) : undefined;
    const next = after?.next ?? at + 1;
    const year = after?.value ?? start.date.year;
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
