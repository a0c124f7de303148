/**
 * Calendar facts the time grammar checks while it reads (does Feb 29 2025 exist, has 2026 a week
 * 53), by the proleptic Gregorian rules luxon applies, without building a luxon DateTime: one
 * cost several microseconds, and the grammar asks on every date it reads.
 */

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (monthDays[month - 1] ?? Number.NaN);
}

const between = (value: number, low: number, high: number): boolean =>
  Number.isInteger(value) && value >= low && value <= high;

/** True for a day that exists: a whole year, month 1-12, a day of that month. */
export function isRealDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) && between(month, 1, 12) && between(day, 1, daysInMonth(year, month))
  );
}

/** True for a time of day luxon accepts: 00:00:00 to 23:59:59, and 24:00:00. */
export function isRealTime(hour: number, minute: number, second: number): boolean {
  const validHour = between(hour, 0, 23) || (hour === 24 && minute === 0 && second === 0);
  return validHour && between(minute, 0, 59) && between(second, 0, 59);
}

/** ISO weekday (1 Monday to 7 Sunday) of January 4, which always lies in ISO week 1. */
function weekdayOfJanuary4(year: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, 0, 4);
  return date.getUTCDay() === 0 ? 7 : date.getUTCDay();
}

/** ISO years have 52 or 53 weeks: 53 when they start on a Thursday, or a Wednesday in a leap year. */
export function weeksInYear(year: number): number {
  const days = isLeapYear(year) ? 366 : 365;
  return (days + weekdayOfJanuary4(year) - weekdayOfJanuary4(year + 1)) / 7;
}
