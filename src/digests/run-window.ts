/**
 * What a digest run covers: the window of the run for a slot, and of a manual run ("Run now").
 * Pure: every function takes the instant it reasons from and reads the zone from the schedule.
 * When the slots fall is the schedule math's (time/schedule.ts); which period a slot reports is
 * the engine's policy, so it lives here.
 */
import { DateTime } from 'luxon';
import {
  type Cadence,
  type CalendarWindowUnit,
  type CronSchedule,
  type DigestWindow,
  runsAtMonthEnd,
} from '../model/digest.ts';
import { formatInstant } from '../time/format.ts';
import { latestRunAtOrBefore, previousRun } from '../time/schedule.ts';
import { zoneFor } from '../time/zones.ts';

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
