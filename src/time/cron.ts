/** Reading the fields of a five-field cron expression, for the schedule math and its words. */

const dayNames = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

/**
 * The days (0 is Sunday) of a day-of-week field made of single days and ranges, as numbers or
 * names; undefined for anything else (steps, `L`, `#`), which the caller then treats as custom.
 */
export function weekdays(field: string): number[] | undefined {
  const days = new Set<number>();
  for (const part of field.toUpperCase().split(',')) {
    const range = part.split('-');
    const ends = range.map((item) => {
      const named = dayNames.indexOf(item as (typeof dayNames)[number]);
      const value = named >= 0 ? named : /^\d$/.test(item) ? Number(item) : Number.NaN;
      return value === 7 ? 0 : value;
    });
    const [first, last] = ends;
    if (first === undefined || Number.isNaN(first) || first > 6 || ends.length > 2)
      return undefined;
    if (last === undefined) {
      days.add(first);
      continue;
    }
    if (Number.isNaN(last) || last > 6 || last < first) return undefined;
    for (let day = first; day <= last; day++) days.add(day);
  }
  return [...days].sort((a, b) => a - b);
}
