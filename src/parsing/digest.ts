/**
 * The digest commands: what follows `/influencers` when it starts with `digest` or `digests`.
 *
 * - `digests` (or `digest list`): this channel's digests.
 * - `digest` alone, `digest help`: how to create one.
 * - `digest pause|resume|remove|run <id>`: act on one digest by its id; `digestVerbs` lists the
 *   other words for each action.
 * - `digest <databases> <schedule> [window] [top N] [in <zone>]`: create one, in that order: a
 *   plain word or number after the schedule starts is refused (`every monday at 9 30`, `… please`),
 *   and a phrase before it may not hold schedule or time words (see `reserved.ts`); hashtags,
 *   quoted phrases and groups are databases wherever they stand. The schedule is in
 *   words (see `schedule/grammar.ts`) or `cron "<five fields>"`; the window counts back from each
 *   run (`last 24 hours`, `past 7 days`, `last 2 weeks`) and defaults to the time since the
 *   previous run; the zone defaults to the creator's. A cron expression takes the cadence the
 *   engine's `inferCadence` reads from it, so `cron "0 9 * * 1"` behaves as `every monday at 9am`.
 */

import { inferCadence, validateSchedule } from '../digests/schedule.ts';
import { ParseError } from '../errors.ts';
import { type DigestAction, digestVerbs } from '../model/commands.ts';
import { defined } from '../model/defined.ts';
import type {
  CronSchedule,
  DigestWindow,
  PostWhen,
  Presentation,
  WindowUnit,
} from '../model/digest.ts';
import { normalizeDigestId } from '../model/digest.ts';
import type { Metric } from '../model/metrics.ts';
import { resolveZone } from '../time/zone-names.ts';
import { uniqueDatabases } from './databases.ts';
import { matchMetric, matchPostWhen, matchPresentation } from './digest-options.ts';
import { type Clauses, type Matcher, scanCommand } from './grammar.ts';
import { lookupDefaults } from './lookup.ts';
import { digestErrors, digestNotes, forDigest } from './messages/digest.ts';
import { matchTopOption, matchZoneOption } from './options.ts';
import { dayParts, defaultDigestTime, type ScheduleClause } from './schedule/clause.ts';
import { cronExpression } from './schedule/cron.ts';
import { matchAtTime, matchSchedule } from './schedule/grammar.ts';
import { normaliseSlackText } from './slack-text.ts';
import type { TimeExpression, TimeOfDay } from './time/ast.ts';
import { rejectMisspeltTime } from './time/misspelt.ts';
import { matchTimeExpression } from './time/ranges.ts';
import { lowerAt, type Token, tokenize } from './tokens.ts';

/** A digest to create, as the command describes it; the store adds ids and bookkeeping. */
export interface DigestSpec {
  /** Analytics `databases` items in the creator's order, duplicates dropped. */
  readonly databases: readonly string[];
  readonly schedule: CronSchedule;
  readonly window: DigestWindow;
  readonly top: number;
  /** The schedule's zone, repeated for callers that do not look inside the schedule. */
  readonly zone: string;
  /** When a run posts; `always` unless the command says `only when changed` or `only new`. */
  readonly postWhen: PostWhen;
  /** `by impressions`: the metric runs rank by; the service's own order without it. */
  readonly metric?: Metric;
  /** `with table`, `with chart`; `list` by default. */
  readonly presentation: Presentation;
}

export type DigestCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'list' }
  | { readonly kind: DigestAction; readonly id: string }
  | {
      readonly kind: 'create';
      readonly spec: DigestSpec;
      /**
       * What the grammar decided for the creator (no time given: 09:00; a 31st skipped in short
       * months), for the confirmation to say.
       */
      readonly notes: readonly string[];
    };

export interface DigestParseContext {
  /** The reference instant, for validating the schedule; parsing never reads the clock. */
  readonly now: Date;
  /** The creator's Slack zone, used unless the text names one. IANA name or UTC. */
  readonly zone: string;
  /** Default 10, as for lookups. */
  readonly maxDatabases?: number;
  /** Default 10, as for lookups. */
  readonly defaultTop?: number;
}

/**
 * Reads a digest command (the slash command's raw `text`, starting with `digest` or `digests`).
 * Returns the ParseError rather than throwing it, so callers cannot forget the case; the schedule
 * is already validated by the engine at `context.now`, so a bad one fails now, not at 9:00 on
 * Monday.
 */
export function parseDigestCommand(
  text: string,
  context: DigestParseContext,
): DigestCommand | ParseError {
  try {
    return readDigestCommand(text, context);
  } catch (error) {
    if (error instanceof ParseError) return forDigest(error);
    throw error;
  }
}

/**
 * True when `text` would create a digest: only then does its meaning depend on the creator's zone,
 * so a surface can skip asking Slack for it (and parse once) for every other command.
 */
export function createsDigest(text: string): boolean {
  const tokens = tokenize(normaliseSlackText(text).trim());
  const verb = lowerAt(tokens, 0);
  const next = tokens[1];
  if (verb === 'watch') return next !== undefined && !isHelp(tokens.slice(1));
  if ((verb !== 'digest' && verb !== 'digests') || next === undefined) return false;
  if (next.kind !== 'word') return true;
  if (tokens.length === 2 && (next.lower === 'help' || next.lower === '?')) return false;
  const action = digestVerbs.get(next.lower);
  return action === undefined || action === 'create';
}

function readDigestCommand(raw: string, context: DigestParseContext): DigestCommand {
  if (Number.isNaN(context.now.getTime())) {
    throw new RangeError('parseDigestCommand needs a valid `now`');
  }
  const text = normaliseSlackText(raw).trim();
  const tokens = tokenize(text);
  const verb = lowerAt(tokens, 0);
  if (verb === 'watch') {
    const body = tokens.slice(1);
    if (body.length === 0 || isHelp(body)) return { kind: 'help' };
    return readCreate(text, body, body[0]?.from ?? text.length, context, 'watch');
  }
  if (verb !== 'digest' && verb !== 'digests') {
    throw digestErrors.notDigestCommand(tokens[0]?.text ?? text);
  }
  const rest = tokens.slice(1);
  const first = lowerAt(rest, 0);
  if (rest.length === 0) return verb === 'digests' ? { kind: 'list' } : { kind: 'help' };
  if (rest.length === 1 && (first === 'help' || first === '?')) return { kind: 'help' };
  const action = first === undefined ? undefined : digestVerbs.get(first);
  if (action === 'list') return readList(text, tokens);
  if (action !== undefined && action !== 'create') return readAction(text, tokens, action);
  const body = action === 'create' ? rest.slice(1) : rest;
  const start = body[0]?.from ?? text.length;
  // Offsets stay those of the whole text, so fragments quote exactly what was typed.
  return readCreate(text, body, start, context, 'digest');
}

/** `help` or `?` alone. */
function isHelp(tokens: readonly Token[]): boolean {
  const word = lowerAt(tokens, 0);
  return tokens.length === 1 && (word === 'help' || word === '?');
}

/** A watch without a schedule checks every hour (daily when only a time is given). */
const watchSchedule: ScheduleClause = {
  days: { kind: 'hourly', every: 1 },
  time: undefined,
  timeFragment: undefined,
  morning: false,
};

function readList(text: string, tokens: readonly Token[]): DigestCommand {
  const extra = tokens[2];
  if (extra === undefined) return { kind: 'list' };
  const command = text.slice(0, tokens[1]?.to ?? text.length);
  const fragment = text.slice(extra.from);
  throw digestErrors.listTakesNothing(command, fragment);
}

function readAction(text: string, tokens: readonly Token[], action: DigestAction): DigestCommand {
  const command = text.slice(0, tokens[1]?.to ?? text.length);
  const verb = tokens[1]?.lower ?? action;
  const idToken = tokens[2];
  if (idToken === undefined) throw digestErrors.missingId(command, verb);
  if (tokens.length > 3) throw digestErrors.extraAfterId(command, text.slice(idToken.from), verb);
  const id = normalizeDigestId(idToken.text.replace(/[`'*]/g, ''));
  if (id === undefined) throw digestErrors.notAnId(idToken.text, verb);
  return { kind: action, id };
}

type WindowClause =
  | { readonly kind: 'since-previous-run' }
  | { readonly kind: 'expression'; readonly value: TimeExpression };

interface DigestClauses {
  schedule: ScheduleClause;
  zone: string;
  top: number;
  postWhen: PostWhen;
  metric: Metric;
  presentation: Presentation;
  at: TimeOfDay;
  window: WindowClause;
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
const digestClauses: Clauses<DigestClauses> = {
  schedule: matchSchedule,
  zone: matchZoneOption,
  top: matchTopOption,
  postWhen: matchPostWhen,
  metric: matchMetric,
  presentation: matchPresentation,
  at: matchAtTime,
  window: matchDigestWindow,
  misspeltTime: rejectMisspeltTime,
};

/**
 * A new digest, or a watch: a digest that posts only when someone new enters the top N, every
 * hour unless its command names a schedule.
 */
function readCreate(
  text: string,
  body: readonly Token[],
  start: number,
  context: DigestParseContext,
  kind: 'digest' | 'watch',
): DigestCommand {
  const scan = scanCommand(text, body, digestClauses, {
    quotedExample: (phrase) =>
      kind === 'watch' ? `watch "${phrase}" top 10` : `digest "${phrase}" every monday at 9am`,
  });
  let schedule: { value: ScheduleClause; fragment: string } | undefined;
  let time: { value: TimeOfDay; fragment: string } | undefined;
  let window: { value: WindowClause; fragment: string } | undefined;
  let zone: string | undefined;
  let top: number | undefined;
  let postWhen: { value: PostWhen; fragment: string } | undefined;
  let metric: Metric | undefined;
  let presentation: Presentation | undefined;
  const setTime = (value: TimeOfDay, fragment: string): void => {
    if (time !== undefined) throw digestErrors.twoTimes(time.fragment, fragment);
    time = { value, fragment };
  };
  for (const clause of scan.clauses) {
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
        if (metric !== undefined) throw digestErrors.repeatedOption(clause.fragment, 'metric');
        metric = clause.value;
        break;
      case 'presentation':
        if (presentation !== undefined) {
          throw digestErrors.repeatedOption(clause.fragment, 'presentation');
        }
        presentation = clause.value;
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

  const databases = uniqueDatabases(
    scan.databases,
    context.maxDatabases ?? lookupDefaults.maxDatabases,
  );
  if (databases.length === 0) throw digestErrors.noDatabase(text.slice(start), kind);
  if (kind === 'watch') {
    if (postWhen !== undefined && postWhen.value !== 'new') {
      throw digestErrors.watchCondition(postWhen.fragment);
    }
    // `watch #hcsm at 9am` checks daily at that time; without a time, every hour.
    schedule ??= {
      value: time === undefined ? watchSchedule : { ...watchSchedule, days: { kind: 'daily' } },
      fragment: time?.fragment ?? '',
    };
  }
  if (schedule === undefined) {
    throw digestErrors.noSchedule(scan.databases.map((item) => item.fragment).join(', '));
  }
  // After the schedule only clauses may follow: a stray word or number there ("at 9 30",
  // "please") is a misread schedule, not a database.
  const scheduleFrom =
    scan.clauses.find((clause) => clause.kind === 'schedule')?.from ?? text.length;
  const stray = scan.databases.find((item) => item.plain && item.from > scheduleFrom);
  if (stray !== undefined) throw digestErrors.afterSchedule(stray.fragment);

  const scheduleZone = zone ?? resolveZone(context.zone) ?? 'UTC';
  const built = buildSchedule(schedule, time, scheduleZone, context.now);
  return {
    kind: 'create',
    spec: {
      databases,
      schedule: built.schedule,
      window:
        window === undefined
          ? { kind: 'since-previous-run' }
          : digestWindow(window.value, window.fragment, built.schedule),
      top: top ?? context.defaultTop ?? lookupDefaults.top,
      zone: scheduleZone,
      postWhen: kind === 'watch' ? 'new' : (postWhen?.value ?? 'always'),
      ...defined({ metric }),
      presentation: presentation ?? 'list',
    },
    notes: built.notes,
  };
}

/** A lone `9am` or `17:30` the time grammar read as "today at that time": the digest's time. */
function asTimeOfDay(clause: WindowClause): TimeOfDay | undefined {
  if (clause.kind !== 'expression' || clause.value.kind !== 'period') return undefined;
  const moment = clause.value.moment;
  return moment.kind === 'local' && moment.date === undefined ? moment.time : undefined;
}

function buildSchedule(
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
    if (time === undefined) notes.push(digestNotes.defaultTime(defaultDigestTime));
    if (days.kind === 'weekly' && days.days === undefined) notes.push(digestNotes.mondays);
    if (days.kind === 'monthly' && days.day === undefined) notes.push(digestNotes.firstOfMonth);
    expression = cronExpression(days, time?.value ?? defaultDigestTime);
  }

  const schedule: CronSchedule = {
    kind: 'cron',
    expression,
    zone,
    cadence: inferCadence(expression),
  };
  try {
    validateSchedule(schedule, now);
  } catch (error) {
    if (error instanceof ParseError) throw digestErrors.engine(error);
    throw error;
  }
  return { schedule, notes };
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
 * The window each run covers. Rolling phrases (`last 24 hours`, `past 7 days`, `48h`) count back
 * from the run. Calendar phrases (`last week`, `last month`) mean the same span counted back from
 * the run, except when they name the schedule's own period (`last month` on a monthly digest,
 * `last week` on a weekly one): that is the time since the previous run, which for a monthly digest
 * is the previous calendar month. Anything fixed in time (`since Sep 1`, `yesterday`) cannot
 * repeat and is refused.
 */
function digestWindow(
  clause: WindowClause,
  fragment: string,
  schedule: CronSchedule,
): DigestWindow {
  if (clause.kind === 'since-previous-run') return clause;
  const expression = clause.value;
  if (expression.kind === 'period') {
    const moment = expression.moment;
    if (moment.kind === 'rolling') return lastWindow(moment.amount, moment.unit, fragment);
    if (moment.kind === 'calendar' && moment.offset === -1) {
      const own =
        (moment.unit === 'month' && schedule.cadence === 'monthly') ||
        (moment.unit === 'week' && schedule.cadence === 'weekly');
      return own ? { kind: 'since-previous-run' } : lastWindow(1, moment.unit, fragment);
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
