import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatInstant } from '../../src/time/format.ts';
import { zoneFor } from '../../src/time/zones.ts';

/** Half-hour and 45-minute offsets, negative ones, UTC, and local mean time with seconds. */
const zoneNames = [
  'UTC',
  'America/New_York',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Europe/Amsterdam',
  'Africa/Monrovia',
];

describe('formatInstant', () => {
  it('writes what luxon toFormat writes, for instants all through years 1 to 9999', () => {
    const differences: string[] = [];
    const step = 3 * 86_400_000 + 3_677_000;
    for (const name of zoneNames) {
      for (let ms = Date.UTC(1, 0, 1); ms < Date.UTC(9999, 11, 31); ms += step * 97) {
        const instant = DateTime.fromMillis(ms, { zone: zoneFor(name) });
        const expected = instant.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
        if (formatInstant(instant) !== expected) differences.push(`${name} ${expected}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it.each([
    ['UTC', '2026-11-14T05:00:00Z', '2026-11-14T05:00:00+00:00'],
    ['America/New_York', '2026-11-14T05:00:00Z', '2026-11-14T00:00:00-05:00'],
    ['America/St_Johns', '2026-11-14T05:00:00Z', '2026-11-14T01:30:00-03:30'],
    ['Asia/Kathmandu', '0999-03-01T00:00:00Z', '0999-03-01T05:41:16+05:41'],
  ])('writes an instant in %s with its offset', (zone, iso, expected) => {
    const instant = DateTime.fromISO(iso, { zone: zoneFor(zone) });
    expect(formatInstant(instant)).toBe(expected);
  });
});
