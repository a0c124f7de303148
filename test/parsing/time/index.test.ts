import { describe, expect, it } from 'vitest';
import { formatInstant, parseTimeWindow } from '../../../src/parsing/index.ts';

const now = new Date('2026-11-21T15:30:00Z');

describe('parseTimeWindow', () => {
  it('reads a phrase on its own in a zone', () => {
    const w = parseTimeWindow('last week', { now, zone: 'America/New_York' });
    expect([formatInstant(w.start), formatInstant(w.end)]).toEqual([
      '2026-11-09T00:00:00-05:00',
      '2026-11-16T00:00:00-05:00',
    ]);
  });

  it('refuses text that is more than one time expression', () => {
    expect(() => parseTimeWindow('last week #hcsm', { now, zone: 'UTC' })).toThrow(
      "I can't read “last week #hcsm” as a time.",
    );
  });
});
