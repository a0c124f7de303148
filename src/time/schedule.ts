/**
 * Schedule math, pure: when a schedule's slots fall, whether a schedule can be stored, and the
 * cadence an expression implies. Every function takes the instant it reasons from and reads the
 * zone from the schedule; none reads the clock. What a run at a slot covers is the engine's
 * (`runWindow`).
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
import type { Cadence, CronSchedule, ScheduleSlots } from '../model/digest.ts';
import { weekdays } from './cron.ts';
import { isValidZone } from './zone-names.ts';
import { zoneFor } from './zones.ts';

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
