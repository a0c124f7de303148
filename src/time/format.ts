import type { DateTime } from 'luxon';

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * ISO 8601 to the second with the zone's numeric offset, `+00:00` for UTC as well (never `Z`), so
 * every timestamp has one shape: `2026-11-14T00:00:00-05:00`.
 *
 * Written from the instant's fields: luxon's `toFormat` parses its format string and builds a
 * number formatter for each field on every call, which cost as much as reading a command's window.
 * Years outside 0-9999, offsets with seconds (local mean time, before time zones) and invalid
 * instants keep luxon's rendering.
 */
export function formatInstant(instant: DateTime): string {
  const { year, offset } = instant;
  if (!(year >= 0 && year <= 9999) || !Number.isInteger(offset)) {
    return instant.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
  }
  const minutes = Math.abs(offset);
  const zone = `${offset < 0 ? '-' : '+'}${twoDigits(Math.trunc(minutes / 60))}:${twoDigits(minutes % 60)}`;
  const date = `${`${year}`.padStart(4, '0')}-${twoDigits(instant.month)}-${twoDigits(instant.day)}`;
  return `${date}T${twoDigits(instant.hour)}:${twoDigits(instant.minute)}:${twoDigits(instant.second)}${zone}`;
}
