/**
 * The clauses of the digest commands and what they build: schedules, windows, zone, top and the
 * digest's options, read by `digest …`, `watch …` and `digest edit …` alike.
 */
import { DateTime } from 'luxon';
import { ParseError } from '../errors.ts';
import type {
  CronSchedule,
  DigestWindow,
  PostWhen,
  Presentation,
  WindowUnit,
} from '../model/digest.ts';
import type { Metric } from '../model/metrics.ts';
import type { StakeholderFilter } from '../model/stakeholders.ts';
import { inferCadence, nextRunAfter, validateSchedule } from '../time/schedule.ts';
import { zoneFor } from '../time/zones.ts';
import {
  matchCanvas,
  matchEveryone,
  matchMetric,
  matchPostWhen,
  matchPresentation,
  matchToMe,
} from './digest-options.ts';
import type { ClauseHit, Clauses, Matcher } from './grammar.ts';
import {
  checkStakeholders,
  type KnownWord,
  matchKnownWord,
  matchStakeholders,
} from './known-words.ts';
import { digestErrors, digestNotes } from './messages/digest.ts';
import { matchTopOption, matchZoneOption } from './options.ts';
import { dayParts, defaultDigestTime, type ScheduleClause } from './schedule/clause.ts';
import { cronExpression } from './schedule/cron.ts';
import { matchAtTime, matchSchedule } from './schedule/grammar.ts';
import type { TimeExpression, TimeOfDay } from './time/ast.ts';
import { rejectMisspeltTime } from './time/misspelt.ts';
import { matchTimeExpression } from './time/ranges.ts';
import { partsOfDay } from './time/vocabulary.ts';
import { lowerAt } from './tokens.ts';

export type WindowClause =
  | { readonly kind: 'since-previous-run' }
  | { readonly kind: 'expression'; readonly value: TimeExpression };

export interface DigestClauses {
  schedule: ScheduleClause;
  zone: string;
  top: number;
  postWhen: PostWhen;
  metric: Metric | 'default' | 'followers';
  presentation: Presentation;
  canvas: boolean;
  everyone: 'everyone';
  stakeholders: StakeholderFilter;
  toMe: 'me';
  at: TimeOfDay;
  window: WindowClause;
  known: KnownWord;
  misspeltTime: never;
}

/** `since the previous run`, `since last run`, then any time expression (judged later). */
const matchDigestWindow: Matcher<WindowClause> = (tokens, at) => {
  if (lowerAt(tokens, at) === 'since') {
    let i = at + 1;
    if (lowerAt(tokens, i) === 'the') i++;
    const which = lowerAt(tokens, i);
    const what = lowerAt(tokens, i + 1);
    if (
      (which === 'previous' || which === 'last') &&
      (what === 'run' || what === 'digest' || what === 'one')
    ) {
      return { value: { kind: 'since-previous-run' }, next: i + 2 };
    }
  }
  const match = matchTimeExpression(tokens, at);
  if (match === undefined) return undefined;
  return { value: { kind: 'expression', value: match.value }, next: match.next };
};

/** Order matters: a schedule's `at 9am` before a lone time; zones before `in`-times. */
export const digestClauses: Clauses<DigestClauses> = {
  schedule: matchSchedule,
  zone: matchZoneOption,
  top: matchTopOption,
  // `only doctors` before `only when changed`, `by doctors` before `by <metric>`, as lookups.
  stakeholders: matchStakeholders,
  // `by dm` before `by <metric>`; `to me` before times read `to` as the end of a range.
  toMe: matchToMe,
  postWhen: matchPostWhen,
  metric: matchMetric,
  presentation: matchPresentation,
  canvas: matchCanvas,
  everyone: matchEveryone,
  at: matchAtTime,
  window: matchDigestWindow,
  known: matchKnownWord,
  misspeltTime: rejectMisspeltTime,
};

/** A clause as typed: its value and the fragment messages quote. */
export interface Typed<T> {
  readonly value: T;
  readonly fragment: string;
}

/** Every clause of a digest command, each at most once. */
export interface DigestClauseValues {
  readonly schedule: Typed<ScheduleClause> | undefined;
  readonly time: Typed<TimeOfDay> | undefined;
  readonly window: Typed<WindowClause> | undefined;
  readonly zone: string | undefined;
  readonly top: number | undefined;
  readonly postWhen: Typed<PostWhen> | undefined;
  /** `by default` clears an edited digest's metric. */
  readonly metric: Metric | 'default' | undefined;
  readonly presentation: Presentation | undefined;
  /** `canvas` (or `canvas on`): keep a channel canvas; `canvas off`: stop keeping it. */
  readonly canvas: boolean | undefined;
  /** `by followers`: the top 500 by the metric, ranked here by followers. */
  readonly orderBy: 'followers' | undefined;
  /**
   * Who the ranking keeps (`doctors`, `no pharma`, several joined); `everyone` (in an edit) keeps
   * everyone again.
   */
  readonly stakeholders: StakeholderFilter | 'everyone' | undefined;
  /** `to me`: the digest goes to its creator's DM. */
  readonly toMe: boolean;
}

/**
 * The clauses found, each at most once: a second schedule, time, window or option is refused,
 * quoting both. A lone time (`9am`) is the schedule's time.
 */
export function collectClauses(clauses: readonly ClauseHit<DigestClauses>[]): DigestClauseValues {
  let schedule: { value: ScheduleClause; fragment: string } | undefined;
  let time: { value: TimeOfDay; fragment: string } | undefined;
  let window: { value: WindowClause; fragment: string } | undefined;
  let zone: string | undefined;
  let top: number | undefined;
  let postWhen: { value: PostWhen; fragment: string } | undefined;
  let metric: Metric | 'default' | undefined;
  let presentation: Presentation | undefined;
  let canvas: boolean | undefined;
  let orderBy: 'followers' | undefined;
  let everyone: string | undefined;
  let toMe = false;
  const include: string[] = [];
  const exclude: string[] = [];
  /** The words that chose who to keep, as typed, for a refusal to quote. */
  const kept: string[] = [];
  const setMetric = (value: Metric | 'default' | 'followers', fragment: string): void => {
    if (value === 'followers') {
      if (orderBy !== undefined)
        throw digestErrors.repeatedOption(fragment, 'ranking by followers');
      orderBy = value;
      return;
    }
    if (metric !== undefined) throw digestErrors.repeatedOption(fragment, 'metric');
    metric = value;
  };
  const setPresentation = (value: Presentation, fragment: string): void => {
    if (presentation !== undefined) throw digestErrors.repeatedOption(fragment, 'presentation');
    presentation = value;
  };
  const setTime = (value: TimeOfDay, fragment: string): void => {
    if (time !== undefined) throw digestErrors.twoTimes(time.fragment, fragment);
    time = { value, fragment };
  };
  for (const clause of clauses) {
    switch (clause.kind) {
      case 'schedule':
        if (schedule !== undefined) {
          throw digestErrors.twoSchedules(schedule.fragment, clause.fragment);
        }
        schedule = clause;
        if (clause.value.time !== undefined) {
          setTime(clause.value.time, clause.value.timeFragment ?? clause.fragment);
        }
        break;
      case 'zone':
        if (zone !== undefined) throw digestErrors.repeatedOption(clause.fragment, 'time zone');
        zone = clause.value;
        break;
      case 'top':
        if (top !== undefined) {
          throw digestErrors.repeatedOption(clause.fragment, 'number of results');
        }
        top = clause.value;
        break;
      case 'postWhen':
        if (postWhen !== undefined) {
          throw digestErrors.repeatedOption(clause.fragment, 'condition for posting');
        }
        postWhen = clause;
        break;
      case 'metric':
        setMetric(clause.value, clause.fragment);
        break;
      case 'presentation':
        setPresentation(clause.value, clause.fragment);
        break;
      case 'canvas':
        if (canvas !== undefined) throw digestErrors.repeatedOption(clause.fragment, 'canvas');
        canvas = clause.value;
        break;
      case 'everyone':
        everyone = clause.fragment;
        break;
      case 'toMe':
        toMe = true;
        break;
      case 'stakeholders':
        include.push(...clause.value.include);
        exclude.push(...clause.value.exclude);
        kept.push(clause.fragment);
        break;
      case 'known':
        if (clause.value.kind === 'metric') setMetric(clause.value.metric, clause.fragment);
        if (clause.value.kind === 'format') {
          if (clause.value.format === 'export') throw digestErrors.noExport(clause.fragment);
          setPresentation(clause.value.format, clause.fragment);
        }
        break;
      case 'at':
        setTime(clause.value, clause.fragment);
        break;
      case 'window': {
        const timeOfDay = asTimeOfDay(clause.value);
        if (timeOfDay !== undefined) {
          setTime(timeOfDay, clause.fragment);
          break;
        }
        if (window !== undefined) throw digestErrors.twoWindows(window.fragment, clause.fragment);
        window = clause;
        break;
      }
      case 'misspeltTime':
        break;
    }
  }

  if (everyone !== undefined && include.length + exclude.length > 0) {
    throw digestErrors.repeatedOption(everyone, 'choice of people');
  }
  // Refused as the Edit form refuses it: such a digest would post an empty ranking every run.
  if (kept.length > 0) checkStakeholders({ include, exclude }, kept.join(' '));
  const stakeholders =
    include.length + exclude.length > 0
      ? { include: [...new Set(include)], exclude: [...new Set(exclude)] }
      : everyone === undefined
        ? undefined
        : ('everyone' as const);
  return {
    schedule,
    time,
    window,
    zone,
    top,
    postWhen,
    metric,
    presentation,
    canvas,
    orderBy,
    stakeholders,
    toMe,
  };
}

/** A lone `9am` or `17:30` the time grammar read as "today at that time": the digest's time. */
function asTimeOfDay(clause: WindowClause): TimeOfDay | undefined {
  if (clause.kind !== 'expression' || clause.value.kind !== 'period') return undefined;
  const moment = clause.value.moment;
  return moment.kind === 'local' && moment.date === undefined ? moment.time : undefined;
}

export function buildSchedule(
  clause: { value: ScheduleClause; fragment: string },
  time: { value: TimeOfDay; fragment: string } | undefined,
  zone: string,
  now: Date,
): { schedule: CronSchedule; notes: string[] } {
  const { days, morning } = clause.value;
  const notes: string[] = [];
  let expression: string;
  if (days.kind === 'cron' || days.kind === 'hourly') {
    if (time !== undefined) throw digestErrors.timeWithoutDays(time.fragment, clause.fragment);
    expression = days.kind === 'cron' ? days.expression : cronExpression(days, defaultDigestTime);
  } else {
    if (morning && time !== undefined && time.value.hour >= 12) {
      throw digestErrors.notMorning(time.fragment);
    }
    const part = clause.value.dayPart;
    if (part !== undefined && time !== undefined) {
      const hours = dayParts[part];
      if (time.value.hour < hours.from || time.value.hour >= hours.to) {
        throw digestErrors.notInDayPart(time.fragment, part);
      }
    }
    // A part of the day with no time runs at its start, as lookups count it.
    const named = part ?? (morning ? 'morning' : undefined);
    const start =
      time === undefined && named !== undefined
        ? { hour: partsOfDay[named].from, minute: 0, second: 0 }
        : undefined;
    if (start !== undefined && named !== undefined) notes.push(digestNotes.partStart(named, start));
    else if (time === undefined) notes.push(digestNotes.defaultTime(defaultDigestTime));
    if (days.kind === 'weekly' && days.days === undefined) notes.push(digestNotes.mondays);
    if (days.kind === 'monthly' && days.day === undefined) notes.push(digestNotes.firstOfMonth);
    expression = cronExpression(days, time?.value ?? start ?? defaultDigestTime);
  }

  const every = days.kind === 'weekly' ? days.every : undefined;
  const schedule: CronSchedule =
    every === undefined
      ? { kind: 'cron', expression, zone, cadence: inferCadence(expression) }
      : {
          kind: 'cron',
          expression,
          zone,
          cadence: 'custom',
          ...weeksFrom(expression, zone, every, now),
        };
  try {
    validateSchedule(schedule, now);
  } catch (error) {
    if (error instanceof ParseError) throw digestErrors.engine(error);
    throw error;
  }
  return { schedule, notes };
}

/**
 * Every `every` weeks from the week of the first run after `now`, so the next run is the one the
 * confirmation shows first.
 */
function weeksFrom(
  expression: string,
  zone: string,
  every: number,
  now: Date,
): { everyWeeks: number; anchor: string } {
  const first = nextRunAfter({ expression, zone }, now) ?? now;
  const anchor = DateTime.fromJSDate(first, { zone: zoneFor(zone) }).toISODate() ?? '';
  return { everyWeeks: every, anchor };
}

const windowUnits: Readonly<Record<string, { unit: WindowUnit; factor: number }>> = {
  hour: { unit: 'hours', factor: 1 },
  day: { unit: 'days', factor: 1 },
  week: { unit: 'weeks', factor: 1 },
  month: { unit: 'months', factor: 1 },
  quarter: { unit: 'months', factor: 3 },
  year: { unit: 'months', factor: 12 },
};

/** How far back a window may reach, per unit: a year. */
const maxWindow: Readonly<Record<WindowUnit, number>> = {
  hours: 366 * 24,
  days: 366,
  weeks: 53,
  months: 12,
};

/**
 * The window each run covers, as written. Rolling phrases (`last 24 hours`, `past 7 days`, `48h`)
 * count back from the run. Calendar phrases (`last week`, `last month`, `last quarter`, `last
 * year`) are the last whole such period before each run, in the digest's zone: `last week` on a
 * Monday is the Monday-to-Sunday week just ended. Anything fixed in time (`since Sep 1`,
 * `yesterday`) cannot repeat and is refused.
 */
export function digestWindow(clause: WindowClause, fragment: string): DigestWindow {
  if (clause.kind === 'since-previous-run') return clause;
  const expression = clause.value;
  if (expression.kind === 'period') {
    const moment = expression.moment;
    if (moment.kind === 'rolling') return lastWindow(moment.amount, moment.unit, fragment);
    if (moment.kind === 'calendar' && moment.offset === -1) {
      return { kind: 'calendar', unit: moment.unit };
    }
  }
  throw digestErrors.fixedWindow(fragment);
}

function lastWindow(amount: number, unit: string, fragment: string): DigestWindow {
  const mapped = windowUnits[unit];
  if (mapped === undefined) throw digestErrors.windowTooShort(fragment);
  const total = amount * mapped.factor;
  if (total < 1 || total > maxWindow[mapped.unit]) throw digestErrors.windowOutOfRange(fragment);
  return { kind: 'last', amount: total, unit: mapped.unit };
}
