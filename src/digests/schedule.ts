/**
 * Schedule math for digests, pure: every function takes the instant it reasons from and reads the
 * zone from the schedule; none reads the clock.
 *
 * Cron expressions have five fields and are evaluated by croner in the schedule's IANA zone, with
 * the classic Vixie semantics:
 * - A restricted day-of-month AND a restricted day-of-week match either one (OR): `0 9 1 * 1`
 *   runs on the 1st and on every Monday. Prefix the weekday with `+` (`0 9 1 * +1`) for AND.
 * - Fixed-time schedules (no `*` or step in the minute and hour fields, e.g. `30 2 * * *` or
 *   `0 9,17 * * *`): a local time skipped by spring-forward (02:30 on that day) runs once, at the
 *   first valid time after the gap (03:00 local, same day); a local time repeated by fall-back runs
 *   once, at its first occurrence. A 09:00 digest is never near a transition and stays at 09:00
 *   local on both sides of it.
 * - Interval schedules (`0 *\/6 * * *`): times in a gap are skipped and a repeated hour runs on
 *   both occurrences, because each is a real, distinct instant an hour apart.
 * - Day 29, 30 or 31 (`0 10 31 * *`) runs only in months that have that day: months without it
 *   are skipped, never moved. `L` (`0 10 L * *`) means the last day of every month.
 */
import { Cron } from 'croner';
import { DateTime } from 'luxon';
import { ParseError } from '../errors.ts';
import {
  type Cadence,
  type CalendarWindowUnit,
  type CronSchedule,
  type DigestWindow,
  runsAtMonthEnd,
  type ScheduleSlots,
} from '../model/digest.ts';
import { weekdays } from '../time/cron.ts';
import { formatInstant } from '../time/format.ts';
import { isValidZone } from '../time/zone-names.ts';
import { zoneFor } from '../time/zones.ts';

/** Digests post to channels people read: more often than hourly is almost certainly a mistake. */
export const minScheduleIntervalMs = 60 * 60 * 1000;

const cronCacheLimit = 2000;
const cronCache = new Map<string, Cron>();

function cronFor(schedule: Pick<CronSchedule, 'expression' | 'zone'>): Cron {
  const key = `${schedule.expression}\u0000${schedule.zone}`;
  let cron = cronCache.get(key);
  if (!cron) {
    cron = new Cron(schedule.expression, {
      timezone: schedule.zone,
      paused: true,
      mode: '5-part',
      domAndDow: false,
      fixedTimeRule: 'no-wildcard',
    });
    if (cronCache.size >= cronCacheLimit) cronCache.clear();
    cronCache.set(key, cron);
  }
  return cron;
}

/**
 * Checks a schedule before it is stored, so a bad one fails at creation and not at 9:00 on Monday.
 * Throws a ParseError whose message is written for the person who typed it.
 */
export function validateSchedule(
  schedule: ScheduleSlots,
  now: Date,
  options: { readonly minIntervalMs?: number } = {},
): void {
  if (!isValidZone(schedule.zone)) {
    throw new ParseError(
      'unknown_zone',
      `Unknown time zone "${schedule.zone}". Use an IANA name such as Europe/London or America/New_York.`,
      schedule.zone,
    );
  }
  try {
    cronFor(schedule);
  } catch {
    throw new ParseError(
      'bad_schedule',
      `Cannot read the cron expression "${schedule.expression}": it needs five fields (minute hour day-of-month month day-of-week), for example cron "0 9 * * 1" for Mondays at 09:00.`,
      schedule.expression,
    );
  }
  const runs = nextRuns(schedule, now, 12);
  if (runs.length === 0) {
    throw new ParseError(
      'bad_schedule',
      `The schedule "${schedule.expression}" never runs.`,
      schedule.expression,
    );
  }
  const minIntervalMs = options.minIntervalMs ?? minScheduleIntervalMs;
  for (let i = 1; i < runs.length; i++) {
    const gap = (runs[i]?.getTime() ?? 0) - (runs[i - 1]?.getTime() ?? 0);
    if (gap < minIntervalMs) {
      throw new ParseError(
        'bad_schedule',
        `The schedule "${schedule.expression}" runs more often than once every ${Math.round(minIntervalMs / 60_000)} minutes; a digest can run at most that often.`,
        schedule.expression,
      );
    }
  }
}

/**
 * A key for what decides a schedule's slots, for caches: two schedules with one key run at the
 * same instants.
 */
export function slotsKey(schedule: ScheduleSlots): string {
  return [
    schedule.expression,
    schedule.zone,
    schedule.everyWeeks ?? '',
    schedule.anchor ?? '',
  ].join('\u0000');
}

/**
 * Whether `slot` falls in a week the schedule runs: always, unless it runs every `everyWeeks`
 * weeks, counted in the zone's ISO weeks from its anchor's (so a DST change never shifts it).
 */
function inRunningWeek(schedule: ScheduleSlots, slot: Date): boolean {
  const every = schedule.everyWeeks;
  if (every === undefined || every <= 1 || schedule.anchor === undefined) return true;
  const zone = zoneFor(schedule.zone);
  const anchor = DateTime.fromISO(schedule.anchor, { zone }).startOf('week');
  const week = DateTime.fromJSDate(slot, { zone }).startOf('week');
  const weeks = Math.round(week.diff(anchor, 'days').days / 7);
  return ((weeks % every) + every) % every === 0;
}

/** Cron slots tried at most to find one in a running week: every day of `everyWeeks` weeks. */
function slotsToTry(schedule: ScheduleSlots): number {
  return (schedule.everyWeeks ?? 1) * 7 * 24 + 1;
}

/** The next `count` slots strictly after `after`, in time order. */
export function nextRuns(schedule: ScheduleSlots, after: Date, count: number): Date[] {
  if (schedule.everyWeeks === undefined) return cronFor(schedule).nextRuns(count, after);
  const runs: Date[] = [];
  let cursor: Date | undefined = after;
  while (runs.length < count && cursor !== undefined) {
    cursor = nextRunAfter(schedule, cursor);
    if (cursor !== undefined) runs.push(cursor);
  }
  return runs;
}

/** The first slot strictly after `after`; undefined when the schedule never runs again. */
export function nextRunAfter(schedule: ScheduleSlots, after: Date): Date | undefined {
  const cron = cronFor(schedule);
  let cursor: Date | undefined = after;
  for (let tried = 0; tried < slotsToTry(schedule); tried++) {
    cursor = cron.nextRun(cursor) ?? undefined;
    if (cursor === undefined || inRunningWeek(schedule, cursor)) return cursor;
  }
  return undefined;
}

/** The last slot strictly before `before`; undefined when there is none. */
export function previousRun(schedule: ScheduleSlots, before: Date): Date | undefined {
  const cron = cronFor(schedule);
  let cursor: Date | undefined = before;
  for (let tried = 0; tried < slotsToTry(schedule); tried++) {
    cursor = cron.previousRuns(1, cursor)[0];
    if (cursor === undefined || inRunningWeek(schedule, cursor)) return cursor;
  }
  return undefined;
}

/** The latest slot at or before `now`: the one a recovering runner would still post. */
export function latestRunAtOrBefore(schedule: ScheduleSlots, now: Date): Date | undefined {
  return previousRun(schedule, new Date(now.getTime() + 1));
}

/**
 * Counts the slots from `from` (inclusive) to `until` (exclusive), stopping at `limit` so a
 * schedule left unattended for months costs nothing: the answer is only recorded, never replayed.
 */
export function countRunsBetween(
  schedule: ScheduleSlots,
  from: Date,
  until: Date,
  limit = 1000,
): number {
  if (from.getTime() >= until.getTime()) return 0;
  let count = 1;
  let cursor: Date | undefined = from;
  while (count < limit) {
    cursor = nextRunAfter(schedule, cursor);
    if (!cursor || cursor.getTime() >= until.getTime()) break;
    count++;
  }
  return count;
}

/** A run's window as the analytics service takes it: ISO 8601 with the zone's offset, to the second. */
export interface RunWindow {
  readonly start: string;
  readonly end: string;
  readonly timezone: string;
}

const fallbackSpan: Record<Cadence, { days?: number; weeks?: number; months?: number }> = {
  daily: { days: 1 },
  weekly: { weeks: 1 },
  monthly: { months: 1 },
  custom: { days: 1 },
};

/**
 * The period the run for `slot` covers, ending at the slot.
 * - `calendar`: the last whole week, month, quarter or year before the slot, in the zone; it ends
 *   at that period's end, not at the slot.
 * - `last N unit`: N units before the slot, counted on the zone's calendar (so `last 1 days` over
 *   a DST change is 23 or 25 hours, midnight to midnight stays midnight to midnight).
 * - `since-previous-run`, monthly cadence on the 1st to the 28th: whole calendar months, midnight
 *   to midnight in the zone, from the start of the month of the previous slot to the start of the
 *   slot's month: the previous calendar month (the run on 1 March covers all of February).
 * - `since-previous-run`, monthly cadence at the month's end (`runsAtMonthEnd`: the last day, or
 *   the 29th to 31st): the slot's own month so far, from its 1st at 00:00 to the slot, together
 *   with every month since the previous run's month: `L` on 31 March covers 1 to 31 March, and
 *   `0 10 31 * *` on 31 March covers February (which had no run) and March so far. The hours
 *   after a run until the month ends belong to no window.
 * - `since-previous-run`, otherwise: from the previous scheduled slot, so daily covers the day
 *   before (23 or 25 hours across a DST change), weekly 7 days, and "weekdays at 8:30" on Monday
 *   covers the weekend too.
 */
export function runWindow(
  digest: { readonly schedule: CronSchedule; readonly window: DigestWindow },
  slot: Date,
): RunWindow {
  const { zone, cadence } = digest.schedule;
  const end = DateTime.fromJSDate(slot, { zone: zoneFor(zone) });
  let start: DateTime;
  if (digest.window.kind === 'calendar') return calendarWindow(digest.window.unit, end, zone);
  if (digest.window.kind === 'last') {
    start = end.minus({ [digest.window.unit]: digest.window.amount });
  } else if (cadence === 'monthly') {
    const monthStart = end.startOf('month');
    const previous = previousRun(digest.schedule, slot);
    const previousMonthStart = previous
      ? DateTime.fromJSDate(previous, { zone: zoneFor(zone) }).startOf('month')
      : undefined;
    if (runsAtMonthEnd(digest.schedule.expression)) {
      const afterPrevious = previousMonthStart?.plus({ months: 1 });
      const from =
        afterPrevious !== undefined && afterPrevious < monthStart ? afterPrevious : monthStart;
      return { start: formatInstant(from), end: formatInstant(end), timezone: zone };
    }
    const from =
      previousMonthStart && previousMonthStart < monthStart
        ? previousMonthStart
        : monthStart.minus({ months: 1 });
    return { start: formatInstant(from), end: formatInstant(monthStart), timezone: zone };
  } else {
    const previous = previousRun(digest.schedule, slot);
    start = previous
      ? DateTime.fromJSDate(previous, { zone: zoneFor(zone) })
      : end.minus(fallbackSpan[cadence]);
  }
  return { start: formatInstant(start), end: formatInstant(end), timezone: zone };
}

/**
 * The last whole calendar `unit` that ended at or before `at`, in the zone: weeks are ISO weeks
 * (Monday 00:00 to Monday 00:00), so `last week` on a Monday at 09:00 is the week just ended.
 */
function calendarWindow(unit: CalendarWindowUnit, at: DateTime, zone: string): RunWindow {
  const end = at.startOf(unit);
  const start = end.minus({ [`${unit}s`]: 1 });
  return { start: formatInstant(start), end: formatInstant(end), timezone: zone };
}

/**
 * The window of a manual run ("Run now") at `now`: as long as a scheduled run's, ending now. A
 * `last N unit` or calendar window is taken as it is; a monthly digest covers the previous calendar month, or
 * at the month's end (`runsAtMonthEnd`) this month so far; otherwise the span between the two
 * latest slots (a weekly digest run now covers the past 7 days, not the minutes since this
 * morning's slot).
 */
export function manualRunWindow(
  digest: { readonly schedule: CronSchedule; readonly window: DigestWindow },
  now: Date,
): RunWindow {
  const { zone, cadence } = digest.schedule;
  if (digest.window.kind !== 'since-previous-run') return runWindow(digest, now);
  if (cadence === 'monthly') {
    const current = DateTime.fromJSDate(now, { zone: zoneFor(zone) });
    const monthStart = current.startOf('month');
    if (runsAtMonthEnd(digest.schedule.expression)) {
      return { start: formatInstant(monthStart), end: formatInstant(current), timezone: zone };
    }
    return {
      start: formatInstant(monthStart.minus({ months: 1 })),
      end: formatInstant(monthStart),
      timezone: zone,
    };
  }
  const end = DateTime.fromJSDate(now, { zone: zoneFor(zone) });
  const latest = latestRunAtOrBefore(digest.schedule, now);
  const previous = latest ? previousRun(digest.schedule, latest) : undefined;
  const start =
    latest && previous
      ? end.minus({ milliseconds: latest.getTime() - previous.getTime() })
      : end.minus(fallbackSpan[cadence]);
  return { start: formatInstant(start), end: formatInstant(end), timezone: zone };
}

/**
 * The cadence a cron expression implies, for digests created from a raw expression: it picks the
 * default window (see `runWindow`).
 */
export function inferCadence(expression: string): Cadence {
  const [minute, hour, dom, month, dow] = expression.trim().split(/\s+/);
  const fixed = /^\d{1,2}$/.test(minute ?? '') && /^\d{1,2}$/.test(hour ?? '');
  if (!fixed || month !== '*') return 'custom';
  if (dom === '*' && dow === '*') return 'daily';
  if (dom === '*' && dow !== undefined && weekdays(dow)?.length === 1) return 'weekly';
  if (dow === '*' && (dom === 'L' || /^\d{1,2}$/.test(dom ?? ''))) return 'monthly';
  return 'custom';
}
