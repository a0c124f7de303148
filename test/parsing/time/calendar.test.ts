import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isRealDate, isRealTime, weeksInYear } from '../../../src/parsing/time/calendar.ts';

const years = [0, 1, 4, 99, 100, 400, 1582, 1900, 1999, 2000, 2020, 2024, 2025, 2026, 2100, 9999];

describe('calendar', () => {
  it('counts the weeks of every ISO year as luxon does', () => {
    const differences: number[] = [];
    for (let year = 1; year <= 2500; year++) {
      const luxon = DateTime.fromObject({ weekYear: year, weekNumber: 1 }, { zone: 'UTC' });
      if (weeksInYear(year) !== luxon.weeksInWeekYear) differences.push(year);
    }
    expect(differences).toEqual([]);
    expect([2020, 2025, 2026].map(weeksInYear)).toEqual([53, 52, 53]);
  });

  it('knows which days exist as luxon does', () => {
    const differences: string[] = [];
    for (const year of years) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const luxon = DateTime.fromObject({ year, month, day }, { zone: 'UTC' }).isValid;
          if (isRealDate(year, month, day) !== luxon) differences.push(`${year}-${month}-${day}`);
        }
      }
    }
    expect(differences).toEqual([]);
    expect(isRealDate(2024, 2, 29)).toBe(true);
    expect(isRealDate(2025, 2, 29)).toBe(false);
    expect(isRealDate(2025.5, 1, 1)).toBe(false);
  });

  it('knows which times of day exist as luxon does, 24:00:00 included', () => {
    const differences: string[] = [];
    for (const hour of [-1, 0, 12, 23, 24, 25]) {
      for (const minute of [-1, 0, 30, 59, 60]) {
        for (const second of [-1, 0, 59, 60]) {
          const luxon = DateTime.fromObject(
            { year: 2026, month: 1, day: 1, hour, minute, second },
            { zone: 'UTC' },
          ).isValid;
          if (isRealTime(hour, minute, second) !== luxon) {
            differences.push(`${hour}:${minute}:${second}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(isRealTime(24, 0, 0)).toBe(true);
    expect(isRealTime(24, 0, 1)).toBe(false);
  });
});
