/**
 * The period a window is compared with by `vs previous period` (and the Compare button): the
 * previous calendar unit for a window that is one (a month -> the month before, a quarter, a half,
 * a year, an ISO week, a day), the same elapsed part of the previous unit for a window that runs a
 * unit to date (month to date on Nov 26 10:28 -> Oct 1 00:00 to Oct 26 10:28, clamped to that
 * unit's end: Mar 31 month to date -> the whole of February), and the span of equal length (in
 * calendar days, then time) just before for any other window. Every step is luxon's in the window's zone, so DST days keep their wall clock.
 */
import type { DateTime } from 'luxon';
import type { TimeExpression } from './ast.ts';
import type { TimeWindow } from './evaluate.ts';
import { sameLengthBefore } from './shift.ts';

export type PeriodUnit = 'day' | 'week' | 'month' | 'quarter' | 'half' | 'year';

/** Smallest first: a window is read as the smallest unit it fits. */
const unitsBySize: readonly PeriodUnit[] = ['day', 'week', 'month', 'quarter', 'half', 'year'];

export interface PeriodShape {
  readonly unit: PeriodUnit;
  /** True when the window runs from the unit's start to a moment inside it. */
  readonly toDate: boolean;
}

/** The start of the `unit` holding `instant`, in its zone (ISO weeks start on Monday). */
export function unitStart(instant: DateTime, unit: PeriodUnit): DateTime {
  if (unit !== 'half') return instant.startOf(unit);
  const year = instant.startOf('year');
  return instant.month >= 7 ? year.set({ month: 7 }) : year;
}

/** `instant` moved by `amount` whole units; a day of the month past the target's last is clamped. */
export function plusUnits(instant: DateTime, unit: PeriodUnit, amount: number): DateTime {
  switch (unit) {
    case 'day':
      return instant.plus({ days: amount });
    case 'week':
      return instant.plus({ weeks: amount });
    case 'month':
      return instant.plus({ months: amount });
    case 'quarter':
      return instant.plus({ months: 3 * amount });
    case 'half':
      return instant.plus({ months: 6 * amount });
    case 'year':
      return instant.plus({ years: amount });
  }
}

/**
 * What calendar period `window` is: `hint` (the unit the person named, `mtd`, `last quarter`)
 * when the window fits it, else the smallest unit it is exactly or runs to date; undefined for a
 * rolling or arbitrary window.
 */
export function periodShape(window: TimeWindow, hint?: PeriodUnit): PeriodShape | undefined {
  const fits = (unit: PeriodUnit): PeriodShape | undefined => {
    if (!unitStart(window.start, unit).equals(window.start)) return undefined;
    const end = plusUnits(window.start, unit, 1);
    if (end.equals(window.end)) return { unit, toDate: false };
    return window.end < end ? { unit, toDate: true } : undefined;
  };
  const hinted = hint === undefined ? undefined : fits(hint);
  if (hinted !== undefined) return hinted;
  for (const unit of unitsBySize) {
    const shape = fits(unit);
    if (shape !== undefined && !shape.toDate) return shape;
  }
  for (const unit of unitsBySize) {
    const shape = fits(unit);
    if (shape !== undefined) return shape;
  }
  return undefined;
}

/** The window `vs previous period` compares `window` with; see the module comment. */
export function previousPeriod(window: TimeWindow, hint?: PeriodUnit): TimeWindow {
  const shape = periodShape(window, hint);
  if (shape === undefined) {
    return { start: sameLengthBefore(window.start, window.end), end: window.start };
  }
  return unitsBack(window, shape, 1);
}

/**
 * The `unit` `amount` units before `window` when `window` is that unit whole or to date (`mtd vs
 * last month`, `wtd vs 2 weeks ago`): like for like, the same elapsed part of it; undefined when
 * `window` is not shaped as `unit`.
 */
export function likeForLike(
  window: TimeWindow,
  unit: PeriodUnit,
  amount: number,
): TimeWindow | undefined {
  const shape = periodShape(window, unit);
  return shape?.unit === unit ? unitsBack(window, shape, amount) : undefined;
}

function unitsBack(window: TimeWindow, shape: PeriodShape, amount: number): TimeWindow {
  const start = plusUnits(window.start, shape.unit, -amount);
  const end = plusUnits(start, shape.unit, 1);
  if (!shape.toDate) return { start, end };
  // The same days into the unit and the same time of day, no further than the unit's end.
  const days = Math.round(window.end.startOf('day').diff(window.start.startOf('day'), 'days').days);
  const sameElapsed = start.plus({ days }).set({
    hour: window.end.hour,
    minute: window.end.minute,
    second: window.end.second,
    millisecond: window.end.millisecond,
  });
  return { start, end: sameElapsed < end ? sameElapsed : end };
}

/**
 * The calendar unit a time expression names (`last month`, `mtd`, `Q3`, `2026-W47`, `yesterday`),
 * so that `vs previous period` follows the person's unit where a window fits several (Oct 1 to
 * now is both a month and a quarter to date); undefined for ranges and rolling windows.
 */
export function periodHint(expression: TimeExpression | undefined): PeriodUnit | undefined {
  if (expression?.kind !== 'period') return undefined;
  const moment = expression.moment;
  switch (moment.kind) {
    case 'calendar':
      return moment.unit;
    case 'month':
    case 'quarter':
    case 'half':
    case 'year':
    case 'day':
      return moment.kind;
    case 'iso-week':
    case 'week-of':
      return 'week';
    default:
      return undefined;
  }
}
