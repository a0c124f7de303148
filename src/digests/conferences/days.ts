/**
 * An event's days as whole days in its zone. A day starts at local midnight and ends at the next
 * one, so a day that crosses a DST change lasts 23 or 25 hours; luxon does that arithmetic in
 * the zone. Pure: every function takes the instant it is about.
 */
import { DateTime } from 'luxon';
import type { ConferenceSpec } from '../../model/conference.ts';
import { formatInstant } from '../../time/format.ts';
import { zoneFor } from '../../time/zones.ts';

type Days = Pick<ConferenceSpec, 'firstDay' | 'lastDay' | 'zone'>;

const emptyWindowMs = 60_000;

/** The instant `day` (`yyyy-MM-dd`) begins in `zone`. */
export function dayStart(day: string, zone: string): Date {
  return DateTime.fromISO(day, { zone: zoneFor(zone) })
    .startOf('day')
    .toJSDate();
}

/** The instant `day` ends in `zone`: the next day's start. */
export function dayEnd(day: string, zone: string): Date {
  return DateTime.fromISO(day, { zone: zoneFor(zone) })
    .plus({ days: 1 })
    .startOf('day')
    .toJSDate();
}

/** The local day `now` falls on in `zone`. */
export function dayOf(now: Date, zone: string): string {
  return DateTime.fromJSDate(now, { zone: zoneFor(zone) }).toISODate() ?? '';
}

/** Every day of the event, first to last. */
export function eventDays(spec: Days): string[] {
  const days: string[] = [];
  let day = DateTime.fromISO(spec.firstDay, { zone: 'UTC' });
  const last = DateTime.fromISO(spec.lastDay, { zone: 'UTC' });
  while (day <= last && days.length < 366) {
    days.push(day.toISODate() ?? '');
    day = day.plus({ days: 1 });
  }
  return days;
}

/** When the event starts and ends, as instants. */
export function eventSpan(spec: Days): { readonly start: Date; readonly end: Date } {
  return { start: dayStart(spec.firstDay, spec.zone), end: dayEnd(spec.lastDay, spec.zone) };
}

/** The event day `now` falls on; undefined before the first and after the last. */
export function eventDayAt(spec: Days, now: Date): string | undefined {
  const { start, end } = eventSpan(spec);
  if (now.getTime() < start.getTime() || now.getTime() >= end.getTime()) return undefined;
  return dayOf(now, spec.zone);
}

/** 1 for the first day. */
export function dayNumber(spec: Days, day: string): number {
  return eventDays(spec).indexOf(day) + 1;
}

/** The question's bounds for `day` up to `until` (the whole day when it is over). */
export function dayWindow(
  day: string,
  zone: string,
  until: Date,
): { readonly start: string; readonly end: string } {
  const luxonZone = zoneFor(zone);
  const start = DateTime.fromISO(day, { zone: luxonZone }).startOf('day');
  // At the very start of a day the window would be empty, which the service refuses: its first
  // minute stands for it.
  const at = Math.max(until.getTime(), start.toMillis() + emptyWindowMs);
  const end = DateTime.fromJSDate(new Date(Math.min(at, dayEnd(day, zone).getTime())), {
    zone: luxonZone,
  }).startOf('second');
  return { start: formatInstant(start), end: formatInstant(end) };
}

/** The whole event's bounds up to `until`, for the final recap. */
export function eventWindow(
  spec: Days,
  until: Date,
): { readonly start: string; readonly end: string } {
  return {
    start: dayWindow(spec.firstDay, spec.zone, until).start,
    end: dayWindow(spec.lastDay, spec.zone, until).end,
  };
}
