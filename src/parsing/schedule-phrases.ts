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
 *   monday evening at 6` is refused rather than run at 06:00.
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
import { ParseError } from '../errors.ts';
import type { Match, Matcher } from './grammar.ts';
import { exampleCommand, quote } from './messages.ts';
import type { TimeOfDay } from './time/ast.ts';
import { matchTimeOfDay } from './time/clock.ts';
import { editDistance } from './time/misspelt.ts';
import { weekdays } from './time/vocabulary.ts';
import { lowerAt, type Token, tokensText } from './tokens.ts';

/** When a day-level schedule names no time. */
export const defaultDigestTime: TimeOfDay = { hour: 9, minute: 0, second: 0 };

/** Hours between runs that `every N hours` accepts: those that divide the day evenly. */
export const hourlySteps: readonly number[] = [1, 2, 3, 4, 6, 8, 12];

/** Which days a schedule runs on; days of the week use cron numbers (0 Sunday to 6 Saturday). */
export type ScheduleDays =
  | { readonly kind: 'daily' }
  /** `days` undefined: `weekly` with no day named. */
  | { readonly kind: 'weekly'; readonly days: readonly number[] | undefined }
  /** `day` undefined: `monthly` with no day named. */
  | { readonly kind: 'monthly'; readonly day: number | 'last' | undefined }
  /** `on the 1st and 15th`: several days of every month, in order. */
  | { readonly kind: 'monthly-days'; readonly days: readonly number[] }
  /** `the first monday of the month` (nth 1), `every last friday` ('last'); weekday in cron numbers. */
  | { readonly kind: 'nth-weekday'; readonly weekday: number; readonly nth: number | 'last' }
  | { readonly kind: 'hourly'; readonly every: number }
  | { readonly kind: 'cron'; readonly expression: string };

/** A schedule clause as read, before defaults and the zone turn it into a cron schedule. */
export interface ScheduleClause {
  readonly days: ScheduleDays;
  readonly time: TimeOfDay | undefined;
  /** The time as typed (`at 9am`), for messages. */
  readonly timeFragment: string | undefined;
  /** `every morning`: a time, when given, must be before noon. */
  readonly morning: boolean;
  /**
   * The part of the day named with the days (`every weekday morning`, `mondays in the evening`):
   * a time, when given, must fall in it (`dayParts`).
   */
  readonly dayPart?: DayPart;
}

export type DayPart = 'morning' | 'afternoon' | 'evening';

/** Hours each part of the day allows, start inclusive, end exclusive. */
export const dayParts: Readonly<Record<DayPart, { from: number; to: number }>> = {
  morning: { from: 0, to: 12 },
  afternoon: { from: 12, to: 18 },
  evening: { from: 17, to: 24 },
};

const exampleArgs = 'digest #hcsm every monday at 9am';
/** `Try: /influencers digest #hcsm every monday at 9am`. */
export const tryDigest = `Try: ${exampleCommand(exampleArgs)}`;

const scheduleForms =
  'Say every day, every monday, mondays and thursdays, weekdays, every month on the 1st, on the ' +
  'last day of every month or every 6 hours, with a time such as at 9am or at 17:30';

/** Messages of the digest grammar: what was wrong, the fragment as typed, a command that works. */
export const digestErrors = {
  unreadable(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `I can't read ${quote(fragment)} as a schedule. ${scheduleForms}. ${tryDigest}`,
      fragment,
    );
  },

  unknownWeekday(fragment: string, word: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `I can't read ${quote(fragment)} as a schedule: ${quote(word)} is not a day of the week (monday to sunday, or mon, tue, wed, thu, fri, sat, sun). ${tryDigest}`,
      fragment,
    );
  },

  badTimeOfDay(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not a time of day: use 00:00 to 23:59, or 9am, 5:30pm, noon. Try: ${exampleCommand('digest #hcsm every day at 17:30')}`,
      fragment,
    );
  },

  secondsInTime(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} has seconds: digests run on the minute, so give hours and minutes. Try: ${exampleCommand('digest #hcsm every day at 17:30')}`,
      fragment,
    );
  },

  notMorning(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not in the morning: say every day instead of every morning for a time after noon. Try: ${exampleCommand('digest #hcsm every day at 5pm')}`,
      fragment,
    );
  },

  notInDayPart(fragment: string, part: DayPart): ParseError {
    const example = part === 'morning' ? 'at 8am' : part === 'afternoon' ? 'at 2pm' : 'at 6pm';
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not in the ${part}: give the time with am or pm, or on the 24-hour clock (${example}). Try: ${exampleCommand(`digest #hcsm every weekday ${part} ${example}`)}`,
      fragment,
    );
  },

  afterSchedule(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `I don't understand ${quote(fragment)} after the schedule: a digest is <databases> <schedule> [window] [top N] [in <zone>], so name the databases first and, after the schedule, only a window (last 7 days), top N or a zone (in Europe/London). ${tryDigest}`,
      fragment,
    );
  },

  dayOfMonth(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is not a day of the month: use the 1st to the 31st, or the last day. Try: ${exampleCommand('digest #hcsm every month on the 1st at 10:00')}`,
      fragment,
    );
  },

  hourlyStep(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} does not divide the day into equal runs: use every hour or every ${hourlySteps.slice(1).join(', ')} hours, or a daily schedule. Try: ${exampleCommand('digest #hcsm every 6 hours')}`,
      fragment,
    );
  },

  tooFrequent(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} is too often: a digest runs at most once an hour. Try: ${exampleCommand('digest #hcsm every hour')}`,
      fragment,
    );
  },

  unsupportedInterval(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)} can't be scheduled: a digest runs every day, on chosen days of the week, on a day of every month or every few hours. ${tryDigest}`,
      fragment,
    );
  },

  timeWithoutDays(fragment: string, schedule: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(schedule)} sets its own times, so ${quote(fragment)} can't be added to it: leave the time out, or use a daily schedule. Try: ${exampleCommand('digest #hcsm every day at 9am')}`,
      fragment,
    );
  },

  unquotedCron(fragment: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `${quote(fragment)}: put the five cron fields in quotes after cron. Try: ${exampleCommand('digest #hcsm cron "0 9 * * 1"')}`,
      fragment,
    );
  },

  /** The engine's own message about a cron expression, with a command that works. */
  engine(error: ParseError): ParseError {
    const message = error.message.includes('Try: ')
      ? error.message
      : `${error.message} Try: ${exampleCommand('digest #hcsm cron "0 9 * * 1"')}`;
    return new ParseError(error.reason, message, error.fragment);
  },

  twoSchedules(first: string, second: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `Two schedules given, ${quote(first)} and ${quote(second)}: give one per digest, or create a second digest. ${tryDigest}`,
      second,
    );
  },

  twoTimes(first: string, second: string): ParseError {
    return new ParseError(
      'bad_schedule',
      `Two times given, ${quote(first)} and ${quote(second)}: a digest runs at one time, so create a second digest for the other. ${tryDigest}`,
      second,
    );
  },
} as const;

const fullWeekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const weekdaysCron = [1, 2, 3, 4, 5] as const;
const weekendCron = [0, 6] as const;
const rangeWords = new Set(['-', 'to', 'through', 'thru', 'till', 'until']);
const monthWords = new Set(['month', 'months']);

/** A weekday name, abbreviation or plural (`mondays`, `tues`) -> cron day 0..6. */
function weekdayOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  const iso =
    weekdays.get(word) ?? (word.endsWith('s') ? weekdays.get(word.slice(0, -1)) : undefined);
  return iso === undefined ? undefined : iso % 7;
}

/** Close to a weekday name without being one: `mondy`, `wendesday`, `fridays` is not. */
function looksLikeWeekday(word: string): boolean {
  if (word.length < 4 || weekdayOf(word) !== undefined) return false;
  const bare = word.endsWith('s') ? word.slice(0, -1) : word;
  return fullWeekdays.some((name) => {
    const allowed = name.length >= 8 ? 2 : 1;
    return (
      editDistance(word, name, allowed) <= allowed || editDistance(bare, name, allowed) <= allowed
    );
  });
}

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
  return undefined;
};

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
    case 'fortnight':
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
  if (amount === 1 && unit === 'month') return matchMonthly(tokens, next);
  throw digestErrors.unsupportedInterval(fragment);
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
function matchDayOfMonth(
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
  const end = readOfMonth(tokens, at + 2) ?? at + 2;
  return withTime(tokens, end, { kind: 'nth-weekday', weekday, nth }, false);
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
function matchDayList(tokens: readonly Token[], at: number): Match<ScheduleClause> {
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

function startsDayList(tokens: readonly Token[], at: number): boolean {
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

function cronClause(expression: string): ScheduleClause {
  const days: ScheduleDays = { kind: 'cron', expression: expression.trim().replace(/\s+/g, ' ') };
  return { days, time: undefined, timeFragment: undefined, morning: false };
}

const partWords: ReadonlyMap<string, DayPart> = new Map([
  ['morning', 'morning'],
  ['mornings', 'morning'],
  ['afternoon', 'afternoon'],
  ['afternoons', 'afternoon'],
  ['evening', 'evening'],
  ['evenings', 'evening'],
]);

/**
 * The schedule's days, then an optional part of the day (`morning`, `in the evening`) and an
 * optional `[at] <time>` right after them. `part`: the days' own words named one (`every
 * morning`).
 */
function withTime(
  tokens: readonly Token[],
  at: number,
  days: ScheduleDays,
  part: DayPart | false,
): Match<ScheduleClause> {
  let dayPart: DayPart | undefined = part === false ? undefined : part;
  let i = at;
  if (dayPart === undefined) {
    const inThe = lowerAt(tokens, i) === 'in' && lowerAt(tokens, i + 1) === 'the' ? i + 2 : i;
    dayPart = partWords.get(lowerAt(tokens, inThe) ?? '');
    if (dayPart !== undefined) i = inThe + 1;
  }
  const morning = part === 'morning';
  const parts = dayPart === undefined ? {} : { dayPart };
  const hasAt = lowerAt(tokens, i) === 'at';
  const time = readTime(tokens, hasAt ? i + 1 : i, hasAt);
  if (time === undefined) {
    return {
      value: { days, time: undefined, timeFragment: undefined, morning, ...parts },
      next: i,
    };
  }
  const timeFragment = tokensText(tokens, i, time.next);
  return { value: { days, time: time.value, timeFragment, morning, ...parts }, next: time.next };
}

const bareHour = /^\d{1,2}$/;

/**
 * A time of day at `at`. `committed` (after `at`): a bare hour is read on the 24-hour clock and
 * anything unreadable is an error; otherwise only unmistakable times (`9am`, `17:30`, `noon`).
 */
function readTime(
  tokens: readonly Token[],
  at: number,
  committed: boolean,
): Match<TimeOfDay> | undefined {
  let time: Match<TimeOfDay> | undefined;
  try {
    time = matchTimeOfDay(tokens, at);
  } catch (error) {
    if (error instanceof ParseError)
      throw digestErrors.badTimeOfDay(error.fragment ?? tokensText(tokens, at, at + 1));
    throw error;
  }
  const word = lowerAt(tokens, at);
  if (time === undefined && committed && word !== undefined && bareHour.test(word)) {
    const hour = Number(word);
    if (hour > 23) throw digestErrors.badTimeOfDay(tokensText(tokens, at - 1, at + 1));
    time = { value: { hour, minute: 0, second: 0 }, next: at + 1 };
  }
  if (time === undefined) {
    if (committed) throw digestErrors.badTimeOfDay(tokensText(tokens, at - 1, at + 1));
    return undefined;
  }
  if (time.value.second !== 0) throw digestErrors.secondsInTime(tokensText(tokens, at, time.next));
  return time;
}

/** The cron expression of a phrase schedule; `time` already defaulted. */
export function cronExpression(
  days: Exclude<ScheduleDays, { kind: 'cron' }>,
  time: TimeOfDay,
): string {
  const clock = `${time.minute} ${time.hour}`;
  switch (days.kind) {
    case 'daily':
      return `${clock} * * *`;
    case 'weekly': {
      const list = days.days ?? [1];
      const field = list.join(',') === '1,2,3,4,5' ? '1-5' : list.join(',');
      return list.length === 7 ? `${clock} * * *` : `${clock} * * ${field}`;
    }
    case 'monthly':
      return `${clock} ${days.day === 'last' ? 'L' : (days.day ?? 1)} * *`;
    case 'monthly-days':
      return `${clock} ${days.days.join(',')} * *`;
    case 'nth-weekday':
      return `${clock} * * ${days.weekday}#${days.nth === 'last' ? 'L' : days.nth}`;
    case 'hourly':
      return days.every === 1 ? '0 * * * *' : `0 */${days.every} * * *`;
  }
}
