/**
 * What the schedule grammar hands the digest command (the days and time as typed, before defaults
 * and the zone make a cron schedule of them), and the limits its messages and the confirmation
 * repeat.
 */
import type { TimeOfDay } from '../time/ast.ts';

/** When a day-level schedule names no time. */
export const defaultDigestTime: TimeOfDay = { hour: 9, minute: 0, second: 0 };

/** Weeks between runs that `every N weeks` accepts, beside every week. */
export const weeklySteps: readonly number[] = [2, 3, 4];

/** The months of a quarterly schedule: the first of each quarter. */
export const quarterMonths = '1,4,7,10';

/** Hours between runs that `every N hours` accepts: those that divide the day evenly. */
export const hourlySteps: readonly number[] = [1, 2, 3, 4, 6, 8, 12];

/** Which days a schedule runs on; days of the week use cron numbers (0 Sunday to 6 Saturday). */
export type ScheduleDays =
  | { readonly kind: 'daily' }
  /**
   * `days` undefined: `weekly` with no day named. `every`: every other week (2) or every 3 or 4
   * weeks, which cron cannot say (see `CronSchedule.everyWeeks`).
   */
  | {
      readonly kind: 'weekly';
      readonly days: readonly number[] | undefined;
      readonly every?: number;
    }
  /** `day` undefined: `monthly` with no day named; `quarterly`: in the first month of each quarter. */
  | {
      readonly kind: 'monthly';
      readonly day: number | 'last' | undefined;
      readonly quarterly?: boolean;
    }
  /** `on the 1st and 15th`: several days of every month, in order. */
  | { readonly kind: 'monthly-days'; readonly days: readonly number[] }
  /**
   * `the first monday of the month` (nth 1), `every last friday` ('last'); weekday in cron numbers.
   * `quarterly`: `the first monday of each quarter`.
   */
  | {
      readonly kind: 'nth-weekday';
      readonly weekday: number;
      readonly nth: number | 'last';
      readonly quarterly?: boolean;
    }
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
