/**
 * `digest edit <id> <what changes>`: the schedule, a time alone, the window, top N, the metric,
 * the zone, how it shows the ranking and when it posts; whatever the command leaves out stays as
 * it is. The databases stay too (a digest of other databases is a new digest). The edit is read
 * here on its own and applied to the digest it names by `applyDigestEdit`, since a new time or
 * zone is read against that digest's schedule.
 *
 * - A time alone (`at 10am`) moves a schedule that runs at one time of day to that time; an
 *   hourly or cron schedule needs a new schedule instead.
 * - A zone alone keeps the schedule's local times in the new zone.
 * - A new schedule keeps the window unless the edit gives one; `since the previous run` goes back
 *   to the default. Without a time it keeps the digest's time of day (`every other friday` keeps
 *   17:30), when the digest had one.
 * - The same people in another order (the Edit form saved unchanged) keep the digest's filter, and
 *   so its last ranking, which the next run's moves are told against.
 * - A watch tells its creator alone in a DM: `canvas on` is refused, as at its creation, and so
 *   it is for a digest in the DM.
 */
import type {
  CronSchedule,
  Digest,
  DigestWindow,
  PostWhen,
  Presentation,
} from '../model/digest.ts';
import { normalizeDigestId } from '../model/digest.ts';
import type { Metric } from '../model/metrics.ts';
import type { StakeholderFilter } from '../model/stakeholders.ts';
import {
  buildSchedule,
  collectClauses,
  type DigestClauseValues,
  digestClauses,
  digestWindow,
  type Typed,
  type WindowClause,
} from './digest-clauses.ts';
import { scanCommand } from './grammar.ts';
import { digestErrors, digestNotes } from './messages/digest.ts';
import type { ScheduleClause } from './schedule/clause.ts';
import type { TimeOfDay } from './time/ast.ts';
import type { Token } from './tokens.ts';

/** What an edit changes; absent fields keep the digest's. */
export interface DigestEdit {
  readonly schedule?: Typed<ScheduleClause>;
  readonly time?: Typed<TimeOfDay>;
  readonly window?: Typed<WindowClause>;
  readonly zone?: string;
  readonly top?: number;
  /** `default`: back to the service's own order. */
  readonly metric?: Metric | 'default';
  readonly presentation?: Presentation;
  readonly postWhen?: PostWhen;
  /** `canvas on|off`: keep a channel canvas, or stop keeping it. */
  readonly canvas?: boolean;
  /** `everyone`: keep every stakeholder again. */
  readonly stakeholders?: StakeholderFilter | 'everyone';
  /** `by followers`; a metric alone (`by mentions`, `by default`) goes back to ranking by it. */
  readonly orderBy?: 'followers';
}

/** A digest's settings after an edit, and what the grammar decided for its editor. */
export interface EditedDigest {
  readonly schedule: CronSchedule;
  readonly window: DigestWindow;
  readonly top: number;
  readonly metric: Metric | undefined;
  readonly presentation: Presentation;
  readonly postWhen: PostWhen;
  /** Set when the edit turns the canvas on or off. */
  readonly canvas?: boolean;
  readonly stakeholders: StakeholderFilter | undefined;
  readonly orderBy: 'followers' | undefined;
  /** The schedule changed (its expression or zone): the next run is worked out again. */
  readonly scheduleChanged: boolean;
  readonly notes: readonly string[];
}

/** `digest edit <id> …` from its tokens (`digest`, the verb, then the rest). */
export function readEdit(
  text: string,
  tokens: readonly Token[],
): { readonly kind: 'edit'; readonly id: string; readonly edit: DigestEdit } {
  const command = text.slice(0, tokens[1]?.to ?? text.length);
  const verb = tokens[1]?.lower ?? 'edit';
  const idToken = tokens[2];
  if (idToken === undefined) throw digestErrors.missingId(command, verb);
  const id = normalizeDigestId(idToken.text.replace(/[`'*]/g, ''));
  if (id === undefined) throw digestErrors.notAnId(idToken.text, verb);
  const body = tokens.slice(3);
  if (body.length === 0) throw digestErrors.nothingToEdit(text.slice(0, idToken.to), id);
  const scan = scanCommand(text, body, digestClauses, {
    quotedExample: () => `digest edit ${id} every monday at 9am`,
  });
  const database = scan.databases[0];
  if (database !== undefined) throw digestErrors.databaseInEdit(database.fragment, id);
  const found = collectClauses(scan.clauses);
  const toMe = scan.clauses.find((clause) => clause.kind === 'toMe');
  if (toMe !== undefined) throw digestErrors.recipientInEdit(toMe.fragment, id);
  return { kind: 'edit', id, edit: editOf(found) };
}

function editOf(found: DigestClauseValues): DigestEdit {
  return {
    ...(found.schedule === undefined ? {} : { schedule: found.schedule }),
    ...(found.time === undefined ? {} : { time: found.time }),
    ...(found.window === undefined ? {} : { window: found.window }),
    ...(found.zone === undefined ? {} : { zone: found.zone }),
    ...(found.top === undefined ? {} : { top: found.top }),
    ...(found.metric === undefined ? {} : { metric: found.metric }),
    ...(found.presentation === undefined ? {} : { presentation: found.presentation }),
    ...(found.postWhen === undefined ? {} : { postWhen: found.postWhen.value }),
    ...(found.canvas === undefined ? {} : { canvas: found.canvas }),
    ...(found.stakeholders === undefined ? {} : { stakeholders: found.stakeholders }),
    ...(found.orderBy === undefined ? {} : { orderBy: found.orderBy }),
  };
}

/**
 * The digest's settings once `edit` is applied at `now`. Throws a ParseError written for the
 * editor when the result cannot run (a time for an hourly schedule, a schedule that never runs).
 */
export function applyDigestEdit(
  digest: Pick<
    Digest,
    | 'schedule'
    | 'window'
    | 'top'
    | 'metric'
    | 'presentation'
    | 'postWhen'
    | 'stakeholders'
    | 'orderBy'
    | 'account'
  > &
    Partial<Pick<Digest, 'channelId'>>,
  edit: DigestEdit,
  now: Date,
): EditedDigest {
  if (edit.canvas === true && digest.account !== undefined) throw digestErrors.watchCanvas();
  // A DM with the app (`D…`) has no channel canvas: the Edit form offers none there.
  if (edit.canvas === true && digest.channelId?.startsWith('D') === true) {
    throw digestErrors.personalCanvas();
  }
  const zone = edit.zone ?? digest.schedule.zone;
  let schedule = digest.schedule;
  let notes: readonly string[] = [];
  if (edit.schedule !== undefined) {
    const kept =
      edit.time === undefined ? keptTime(edit.schedule.value, digest.schedule) : undefined;
    ({ schedule, notes } = buildSchedule(edit.schedule, edit.time ?? kept, zone, now));
    if (kept !== undefined) notes = [digestNotes.keptTime(kept.value), ...notes];
    // The same weeks written again (the Edit form saved unchanged) keep their first week.
    if (schedule.everyWeeks !== undefined && schedule.everyWeeks === digest.schedule.everyWeeks) {
      schedule = keepWeeks(schedule, digest.schedule);
    }
  } else if (edit.time !== undefined) {
    schedule = keepWeeks(atTime(digest.schedule, edit.time, zone, now), digest.schedule);
  } else if (zone !== digest.schedule.zone) {
    const rebuilt = buildSchedule(
      { value: cronClause(digest.schedule.expression), fragment: digest.schedule.expression },
      undefined,
      zone,
      now,
    ).schedule;
    schedule = keepWeeks(rebuilt, digest.schedule);
  }
  const window =
    edit.window === undefined
      ? digest.window
      : digestWindow(edit.window.value, edit.window.fragment);
  const metric =
    edit.metric === undefined ? digest.metric : edit.metric === 'default' ? undefined : edit.metric;
  return {
    schedule,
    window,
    top: edit.top ?? digest.top,
    metric,
    presentation: edit.presentation ?? digest.presentation,
    postWhen: edit.postWhen ?? digest.postWhen,
    ...(edit.canvas === undefined ? {} : { canvas: edit.canvas }),
    stakeholders: editedStakeholders(digest.stakeholders, edit.stakeholders),
    // A metric named alone ranks by it again, as the service does.
    orderBy: edit.orderBy ?? (edit.metric === undefined ? digest.orderBy : undefined),
    scheduleChanged:
      schedule.expression !== digest.schedule.expression || schedule.zone !== digest.schedule.zone,
    notes,
  };
}

function editedStakeholders(
  before: StakeholderFilter | undefined,
  edit: StakeholderFilter | 'everyone' | undefined,
): StakeholderFilter | undefined {
  if (edit === undefined) return before;
  if (edit === 'everyone') return undefined;
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((name) => b.includes(name));
  if (before !== undefined && same(before.include, edit.include)) {
    if (same(before.exclude, edit.exclude)) return before;
  }
  return edit;
}

/**
 * The digest's own time of day, for a new schedule of days that names none (`every other
 * friday`): what an edit leaves out stays. None when the new days set their own times (hourly,
 * cron), a part of the day is named (`every monday morning`), or the digest had no one time.
 */
function keptTime(clause: ScheduleClause, before: CronSchedule): Typed<TimeOfDay> | undefined {
  const { days } = clause;
  if (days.kind === 'cron' || days.kind === 'hourly') return undefined;
  if (clause.morning || clause.dayPart !== undefined) return undefined;
  const [minute, hour] = before.expression.trim().split(/\s+/);
  if (!/^\d{1,2}$/.test(minute ?? '') || !/^\d{1,2}$/.test(hour ?? '')) return undefined;
  const value = { hour: Number(hour), minute: Number(minute), second: 0 };
  return { value, fragment: before.expression };
}

/** A new time or zone keeps a schedule's weeks (`every other monday`): its anchor week stays. */
function keepWeeks(schedule: CronSchedule, before: CronSchedule): CronSchedule {
  if (before.everyWeeks === undefined || before.anchor === undefined) return schedule;
  return { ...schedule, cadence: 'custom', everyWeeks: before.everyWeeks, anchor: before.anchor };
}

function cronClause(expression: string): ScheduleClause {
  return {
    days: { kind: 'cron', expression },
    time: undefined,
    timeFragment: undefined,
    morning: false,
  };
}

/** The schedule moved to another time of day, when it runs at one fixed time. */
function atTime(
  schedule: CronSchedule,
  time: Typed<TimeOfDay>,
  zone: string,
  now: Date,
): CronSchedule {
  const [minute, hour, ...days] = schedule.expression.trim().split(/\s+/);
  if (!/^\d{1,2}$/.test(minute ?? '') || !/^\d{1,2}$/.test(hour ?? '') || days.length !== 3) {
    throw digestErrors.timeWithoutDays(time.fragment, schedule.expression);
  }
  const expression = [time.value.minute, time.value.hour, ...days].join(' ');
  return buildSchedule(
    { value: cronClause(expression), fragment: expression },
    undefined,
    zone,
    now,
  ).schedule;
}
