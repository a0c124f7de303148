import type { DateTime } from 'luxon';

/**
 * ISO 8601 to the second with the zone's numeric offset, `+00:00` for UTC as well (never `Z`), so
 * every timestamp has one shape: `2026-11-14T00:00:00-05:00`.
 */
export function formatInstant(instant: DateTime): string {
  return instant.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
