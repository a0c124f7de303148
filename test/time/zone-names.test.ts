import { describe, expect, it } from 'vitest';
import { resolveZone } from '../../src/time/zone-names.ts';

describe('resolveZone', () => {
  it.each([
    ['europe/paris', 'Europe/Paris'],
    ['EUROPE/LONDON', 'Europe/London'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['asia/calcutta', 'Asia/Kolkata'],
    ['europe/kiev', 'Europe/Kyiv'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['utc', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['us/eastern', 'America/New_York'],
  ])('resolves %s to %s', (input, zone) => {
    expect(resolveZone(input)).toBe(zone);
  });

  it.each(['Mars/Base', 'EST', 'paris', '', 'Europe/'])('refuses %j', (input) => {
    expect(resolveZone(input)).toBeUndefined();
  });
});
