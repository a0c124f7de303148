/**
 * Digest schedules as people type them (`every monday at 9am`, `weekdays at 8:30`, `on the last
 * day of every month at 17:00`, `every 6 hours`, `cron "0 9 * * 1"`) read into the five-field cron
 * expression the digest engine evaluates in the digest's zone.
 *
 * Decisions the confirmation and the help repeat to people:
 * - A day-level schedule without a time runs at 09:00 (`defaultDigestTime`); `weekly` or `every
 *   week` without a day runs on Mondays; `monthly` or `every month` without a day on the 1st.
 * - A bare hour after `at` is on the 24-hour clock: `mondays at 9` is 09:00, `at 17` is 17:00.
 * - `every morning` is `every day`, with a time before noon; a part of the day after the days
 *   (`every weekday morning at 8`, `mondays in the evening at 6pm`) is a check on the time, which
 *   must fall in it (morning before noon, afternoon 12:00-17:59, evening from 17:00): `every
 *   monday evening at 6` is refused rather than run at 06:00. Without a time a part of the day
 *   runs at its start as lookups count it (morning 06:00, afternoon 12:00, evening 18:00: `every
 *   friday afternoon` is Fridays at 12:00); `night` has no single start and needs a time.
 * - Days side by side need no joiner: `every mon wed fri` is `every mon, wed and fri`.
 * - Several days of the month (`on the 1st and 15th`) and nth weekdays (`the first monday of the
 *   month`, `every last friday`, cron `1#1`, `5#L`) are custom cadences: each run covers the time
 *   since the previous run (the 1st covers the 15th to the 1st; a first Monday the four or five
 *   weeks since the previous one). A month without a fifth such weekday is skipped.
 * - One weekday is a weekly cadence; several (`every mon, wed and fri`, `weekdays`, `weekends`)
 *   are a custom cadence whose default window is the time since the previous run.
 * - `every N hours` takes N that divides the day (1, 2, 3, 4, 6, 8, 12) and runs on the hour.
 * - Day 29 to 31 of the month runs only in months that have it (the engine skips the others);
 *   `last day` (cron `L`) runs at every month's end.
 */
import type { Match, Matcher } from '../grammar.ts';
import { digestErrors } from '../messages/digest.ts';
import type { TimeOfDay } from '../time/ast.ts';
import { fullWeekdays } from '../time/vocabulary.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import { hourlySteps, type ScheduleClause, type ScheduleDays, weeklySteps } from './clause.ts';
import {
  looksLikeWeekday,
  matchDayList,
  matchDayOfMonth,
  startsDayList,
  weekdayOf,
} from './days.ts';
import { readTime, withTime } from './time-of-day.ts';

const weekdaysCron = [1, 2, 3, 4, 5] as const;
const weekendCron = [0, 6] as const;

/**
 * Reads a schedule at `at`. Returns undefined when the tokens there start no schedule (so they can
 * be a database or another clause); throws `bad_schedule` once a schedule word commits to one and
 * what follows is wrong (`every mondy`, `on the 32nd`, `every 5 hours`, `cron 0 9 * * 1`).
 */
export const matchSchedule: Matcher<ScheduleClause> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  const token = tokens[at];
  if (token?.kind === 'quoted' && token.prefix?.toLowerCase() === 'cron:') {
    return { value: cronClause(token.text), next: at + 1 };
  }
  if (word === undefined) return undefined;
  switch (word) {
    case 'cron':
      return matchCron(tokens, at);
    case 'every':
    case 'each':
      return matchEvery(tokens, at);
    case 'daily':
    case 'everyday':
      return withTime(tokens, at + 1, { kind: 'daily' }, false);
    case 'hourly':
      return withTime(tokens, at + 1, { kind: 'hourly', every: 1 }, false);
    case 'weekly':
      return matchWeekly(tokens, at + 1, at);
    case 'monthly':
      return matchMonthly(tokens, at + 1);
    case 'weekdays':
      return withTime(tokens, at + 1, { kind: 'weekly', days: weekdaysCron }, false);
    case 'weekends':
      return withTime(tokens, at + 1, { kind: 'weekly', days: weekendCron }, false);
    case 'biweekly':
    case 'fortnightly':
      return everyWeeks(matchWeekly(tokens, at + 1, at), 2);
    case 'quarterly':
      return withTime(tokens, at + 1, { kind: 'monthly', day: 1, quarterly: true }, false);
    case 'bimonthly':
      throw digestErrors.unsupportedInterval(token?.text ?? word);
    case 'on':
      return matchOn(tokens, at);
    case 'the':
      return matchDayOfMonth(tokens, at, false, at);
  }
  // Plurals (`mondays`), full names (`monday`) and ranges (`mon-fri`) are schedules; a lone `mon`
  // may be a word of a phrase.
  const day = weekdayOf(word);
  const named =
    day !== undefined && (fullWeekdays.includes(word) || (word.endsWith('s') && word.length > 4));
  if (named || (word.includes('-') && startsDayList(tokens, at))) return matchDayList(tokens, at);
  // "mon, wed and fri at 17:30", "tue at 9": an abbreviation other days or a time follow.
  if (day !== undefined && listGoesOn(tokens, at)) return matchDayList(tokens, at);
  return undefined;
};

/** After the day at `at`: another day (`, wed`, `and fri`, `- fri`) or a time (`at 9`). */
function listGoesOn(tokens: readonly Token[], at: number): boolean {
  let next = at + 1;
  if (lowerAt(tokens, next) === 'at') return true;
  if (tokens[next]?.kind === 'comma' || tokens[next]?.kind === 'dash') next++;
  const joiner = lowerAt(tokens, next);
  if (joiner === 'and' || joiner === '&' || joiner === 'to' || joiner === 'through') next++;
  return next > at + 1 && weekdayOf(lowerAt(tokens, next)) !== undefined;
}

/**
 * `at <time>` standing apart from the schedule (`#hcsm at 9am every monday`). After `at` a bare
 * hour is on the 24-hour clock.
 */
export const matchAtTime: Matcher<TimeOfDay> = (tokens, at) => {
  if (lowerAt(tokens, at) !== 'at') return undefined;
  return readTime(tokens, at + 1, true);
};

function matchEvery(tokens: readonly Token[], at: number): Match<ScheduleClause> {
  const next = lowerAt(tokens, at + 1);
  const fragment = (): string => tokensText(tokens, at, at + 2);
  if (next === undefined) throw digestErrors.unreadable(tokensText(tokens, at, at + 2));
  switch (next) {
    case 'day':
      return withTime(tokens, at + 2, { kind: 'daily' }, false);
    case 'morning':
      return withTime(tokens, at + 2, { kind: 'daily' }, 'morning');
    case 'hour':
      return withTime(tokens, at + 2, { kind: 'hourly', every: 1 }, false);
    case 'weekday':
    case 'weekdays':
      return withTime(tokens, at + 2, { kind: 'weekly', days: weekdaysCron }, false);
    case 'afternoon':
    case 'evening':
      return withTime(tokens, at + 2, { kind: 'daily' }, next);
    case 'weekend':
    case 'weekends':
      return withTime(
        tokens,
        lowerAt(tokens, at + 2) === 'day' ? at + 3 : at + 2,
        { kind: 'weekly', days: weekendCron },
        false,
      );
    case 'week':
      return matchWeekly(tokens, at + 2, at);
    case 'month':
      return matchMonthly(tokens, at + 2);
    case 'second':
      if (weekdayOf(lowerAt(tokens, at + 2)) !== undefined) {
        return matchDayOfMonth(tokens, at + 1, true, at) as Match<ScheduleClause>;
      }
      throw digestErrors.unsupportedInterval(fragment());
    case 'other':
      return matchOtherWeek(tokens, at + 2, at);
    case 'fortnight':
      return everyWeeks(matchWeekly(tokens, at + 2, at), 2);
    case 'quarter':
      return withTime(tokens, at + 2, { kind: 'monthly', day: 1, quarterly: true }, false);
    case 'minute':
    case 'year':
      throw digestErrors.unsupportedInterval(fragment());
    case 'last':
    case 'first':
    case 'third':
    case 'fourth':
    case 'fifth':
      return matchDayOfMonth(tokens, at + 1, true, at) as Match<ScheduleClause>;
  }
  const steps = matchStep(tokens, at + 1);
  if (steps !== undefined) return steps;
  if (startsDayList(tokens, at + 1)) return matchDayList(tokens, at + 1);
  if (looksLikeWeekday(next)) {
    throw digestErrors.unknownWeekday(fragment(), tokens[at + 1]?.text ?? next);
  }
  if (/^\d{1,3}(st|nd|rd|th)$/.test(next)) {
    return matchDayOfMonth(tokens, at + 1, true, at) as Match<ScheduleClause>;
  }
  return unreadable(tokens, at);
}

function unreadable(tokens: readonly Token[], at: number): never {
  throw digestErrors.unreadable(tokensText(tokens, at, at + 2));
}

const stepUnits = new Map([
  ['h', 'hour'],
  ['hr', 'hour'],
  ['hrs', 'hour'],
  ['hour', 'hour'],
  ['hours', 'hour'],
  ['min', 'minute'],
  ['mins', 'minute'],
  ['minute', 'minute'],
  ['minutes', 'minute'],
  ['d', 'day'],
  ['day', 'day'],
  ['days', 'day'],
  ['w', 'week'],
  ['week', 'week'],
  ['weeks', 'week'],
  ['month', 'month'],
  ['months', 'month'],
  ['mo', 'month'],
  ['year', 'year'],
  ['years', 'year'],
]);

/** `every 6 hours`, `every 6h`; other units (`every 2 weeks`) are refused with a reason. */
function matchStep(tokens: readonly Token[], at: number): Match<ScheduleClause> | undefined {
  const word = lowerAt(tokens, at) ?? '';
  const glued = /^(\d{1,4})([a-z]+)$/.exec(word);
  let amount: number;
  let unit: string | undefined;
  let next: number;
  if (glued !== null) {
    amount = Number(glued[1]);
    unit = stepUnits.get(glued[2] as string);
    next = at + 1;
  } else if (/^\d{1,4}$/.test(word) || word === 'two' || word === 'three') {
    amount = word === 'two' ? 2 : word === 'three' ? 3 : Number(word);
    unit = stepUnits.get(lowerAt(tokens, at + 1) ?? '');
    next = at + 2;
  } else {
    return undefined;
  }
  if (unit === undefined) return undefined;
  const fragment = tokensText(tokens, at - 1, next);
  if (unit === 'minute' || amount === 0) throw digestErrors.tooFrequent(fragment);
  if (unit === 'hour') {
    if (!hourlySteps.includes(amount)) throw digestErrors.hourlyStep(fragment);
    return withTime(tokens, next, { kind: 'hourly', every: amount }, false);
  }
  if (amount === 1 && unit === 'day') return withTime(tokens, next, { kind: 'daily' }, false);
  if (amount === 1 && unit === 'week') return matchWeekly(tokens, next, at - 1);
  if (unit === 'week' && weeklySteps.includes(amount)) {
    return everyWeeks(matchWeekly(tokens, next, at - 1), amount);
  }
  if (amount === 1 && unit === 'month') return matchMonthly(tokens, next);
  throw digestErrors.unsupportedInterval(fragment);
}

/** `every other monday`, `every other week [on <days>]` (from `from`, at the word after `other`). */
function matchOtherWeek(tokens: readonly Token[], at: number, from: number): Match<ScheduleClause> {
  const word = lowerAt(tokens, at);
  if (word === 'week') return everyWeeks(matchWeekly(tokens, at + 1, from), 2);
  if (startsDayList(tokens, at)) return everyWeeks(matchDayList(tokens, at), 2);
  throw digestErrors.unsupportedInterval(tokensText(tokens, from, at + 1));
}

/** A weekly schedule run every `every` weeks. */
function everyWeeks(match: Match<ScheduleClause>, every: number): Match<ScheduleClause> {
  const { days } = match.value;
  if (days.kind !== 'weekly') return match;
  return { ...match, value: { ...match.value, days: { ...days, every } } };
}

/** After `weekly` or `every week` (from `from`): `[on] <days>`, or nothing (Mondays by default). */
function matchWeekly(tokens: readonly Token[], at: number, from: number): Match<ScheduleClause> {
  const daysAt = lowerAt(tokens, at) === 'on' ? at + 1 : at;
  const word = lowerAt(tokens, daysAt);
  if (startsDayList(tokens, daysAt)) return matchDayList(tokens, daysAt);
  if (daysAt === at) return withTime(tokens, at, { kind: 'weekly', days: undefined }, false);
  const fragment = tokensText(tokens, from, daysAt + 1);
  if (word !== undefined && looksLikeWeekday(word)) {
    throw digestErrors.unknownWeekday(fragment, tokens[daysAt]?.text ?? word);
  }
  throw digestErrors.unreadable(fragment);
}

/**
 * After `monthly` or `every month`: `on the <Nth>`, `on the last day`, `the 15th`, or nothing (the
 * 1st by default). Without `on` or `the`, what follows is left alone: `monthly last 7 days` is a
 * window, not the last day.
 */
function matchMonthly(tokens: readonly Token[], at: number): Match<ScheduleClause> {
  const word = lowerAt(tokens, at);
  if (word === 'on') return matchDayOfMonth(tokens, at + 1, true, at - 1) as Match<ScheduleClause>;
  if (word === 'the') return matchDayOfMonth(tokens, at, true, at - 1) as Match<ScheduleClause>;
  return withTime(tokens, at, { kind: 'monthly', day: undefined }, false);
}

/** `on mondays`, `on the 1st`, `on the last day of every month`, `on weekdays`. */
function matchOn(tokens: readonly Token[], at: number): Match<ScheduleClause> | undefined {
  const next = lowerAt(tokens, at + 1);
  if (next === undefined) return undefined;
  if (next === 'weekdays')
    return withTime(tokens, at + 2, { kind: 'weekly', days: weekdaysCron }, false);
  if (next === 'weekends')
    return withTime(tokens, at + 2, { kind: 'weekly', days: weekendCron }, false);
  if (startsDayList(tokens, at + 1)) return matchDayList(tokens, at + 1);
  if (next === 'the') return matchDayOfMonth(tokens, at + 1, false, at);
  return undefined;
}

/** `cron "0 9 * * 1"`, also with single quotes or backticks around the unquoted fields. */
function matchCron(tokens: readonly Token[], at: number): Match<ScheduleClause> {
  const next = tokens[at + 1];
  if (next?.kind === 'quoted' && next.prefix === undefined) {
    return { value: cronClause(next.text), next: at + 2 };
  }
  if (next?.kind === 'word' && /^['`]/.test(next.text)) {
    const open = next.text.charAt(0);
    for (let end = at + 1; end < tokens.length; end++) {
      const token = tokens[end] as Token;
      const closes =
        token.kind === 'word' &&
        token.text.endsWith(open) &&
        (end > at + 1 || token.text.length > 1);
      if (closes) {
        const inner = joinCronTokens(tokens, at + 1, end + 1).slice(1, -1);
        return { value: cronClause(inner), next: end + 1 };
      }
    }
  }
  throw digestErrors.unquotedCron(tokensText(tokens, at, Math.min(tokens.length, at + 6)));
}

/** Cron fields as typed: commas (separate tokens) rejoined without spaces. */
function joinCronTokens(tokens: readonly Token[], from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) {
    const token = tokens[i] as Token;
    const glue = text === '' || token.kind === 'comma' || tokens[i - 1]?.kind === 'comma';
    text += glue ? token.text : ` ${token.text}`;
  }
  return text;
}

/** The longest schedule text read: five cron fields with lists and steps fit in far less. */
export const maxScheduleLength = 200;

function cronClause(expression: string): ScheduleClause {
  if (expression.length > maxScheduleLength) {
    throw digestErrors.scheduleTooLong(expression.length, maxScheduleLength);
  }
  const days: ScheduleDays = { kind: 'cron', expression: expression.trim().replace(/\s+/g, ' ') };
  return { days, time: undefined, timeFragment: undefined, morning: false };
}
