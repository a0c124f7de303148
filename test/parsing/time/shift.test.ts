import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { sameLengthBefore, shift } from '../../../src/parsing/time/shift.ts';
import type { Unit } from '../../../src/parsing/time/vocabulary.ts';
import { zoneFor } from '../../../src/time/zones.ts';

/** Zones with DST at 00:00 (Havana, Santiago, Beirut), half an hour of DST (Lord Howe), none. */
const zones = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'America/Havana',
  'America/Santiago',
  'Asia/Beirut',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
];
const units: readonly Unit[] = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
const amounts = [1, -1, 2, -13];

const state = (instant: DateTime): string =>
  instant.isValid
    ? `${instant.toMillis()} ${instant.offset} ${JSON.stringify(instant.toObject())}`
    : `invalid: ${instant.invalidReason}`;

const hourMs = 3_600_000;

/** The instants of 2026 at which the zone's offset changes, found day by day, then by the hour. */
function transitions(zone: string): number[] {
  const found: number[] = [];
  const offset = (ms: number): number => DateTime.fromMillis(ms, { zone }).offset;
  for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += 24 * hourMs) {
    if (offset(day) === offset(day + 24 * hourMs)) continue;
    for (let ms = day; ms < day + 24 * hourMs; ms += hourMs) {
      if (offset(ms) !== offset(ms + hourMs)) found.push(ms + hourMs);
    }
  }
  return found;
}

/**
 * Instants `amount` units before wall-clock times every 15 minutes within two hours of each
 * transition, so the shift lands in or beside the hour that is skipped or repeated; and the last
 * days of each month of a leap year, for the shorter months.
 */
function cases(zone: string): [DateTime, Unit, number][] {
  const found: [DateTime, Unit, number][] = [];
  for (const transition of transitions(zone)) {
    for (let ms = transition - 2 * hourMs; ms <= transition + 2 * hourMs; ms += hourMs / 4) {
      const target = DateTime.fromMillis(ms, { zone: zoneFor(zone) });
      for (const unit of units) {
        for (const amount of amounts) {
          found.push([target.minus({ [`${unit}s`]: amount }), unit, amount]);
          found.push([target.startOf('day').minus({ [`${unit}s`]: amount }), unit, amount]);
        }
      }
    }
  }
  for (let day = 0; day < 366; day++) {
    const instant = DateTime.fromMillis(Date.UTC(2024, 0, 1) + day * 24 * hourMs, {
      zone: zoneFor(zone),
    });
    for (const unit of ['month', 'quarter', 'year'] as const) found.push([instant, unit, 1]);
  }
  return found;
}

describe('shift', () => {
  it.each(zones)('lands where luxon plus lands, with the same offset, in %s', (zone) => {
    const differences: string[] = [];
    for (const [instant, unit, amount] of cases(zone)) {
      const expected = state(instant.plus({ [`${unit}s`]: amount }));
      const actual = state(shift(instant, unit, amount));
      if (actual !== expected) differences.push(`${instant.toISO()} ${amount} ${unit}: ${actual}`);
    }
    expect(differences).toEqual([]);
  });

  it('keeps the wall-clock time across a DST change for days, not for hours', () => {
    const before = DateTime.fromISO('2026-03-28T12:00', { zone: zoneFor('Europe/Paris') });
    expect(shift(before, 'day', 1).toISO()).toBe('2026-03-29T12:00:00.000+02:00');
    expect(shift(before, 'hour', 24).toISO()).toBe('2026-03-29T13:00:00.000+02:00');
  });

  it('takes the last day of a shorter month', () => {
    const end = DateTime.fromISO('2024-02-29T00:00', { zone: zoneFor('UTC') });
    expect(shift(end, 'year', 1).toISODate()).toBe('2025-02-28');
    expect(shift(end.set({ month: 1, day: 31 }), 'month', 1).toISODate()).toBe('2024-02-29');
    expect(shift(end.set({ month: 1, day: 31 }), 'quarter', 1).toISODate()).toBe('2024-04-30');
  });

  it.each(zones)('sameLengthBefore lands where luxon minus(diff) lands, in %s', (zone) => {
    const lengths = [3_600_000, 86_400_000, 7 * 86_400_000 + 3_600_000, 31 * 86_400_000 - 5_000];
    const differences: string[] = [];
    for (const transition of transitions(zone)) {
      for (let ms = transition - 9 * hourMs; ms <= transition + 9 * hourMs; ms += hourMs) {
        for (const start of [ms - 7 * 86_400_000, ms - 86_400_000, ms].map((at) =>
          DateTime.fromMillis(at, { zone: zoneFor(zone) }),
        )) {
          const ends = [
            ...lengths.map((length) =>
              DateTime.fromMillis(start.toMillis() + length, { zone: start.zone }),
            ),
            start.plus({ days: 8 }).startOf('day'),
          ];
          for (const end of ends) {
            const expected = state(start.minus(end.diff(start, ['days', 'milliseconds'])));
            const actual = state(sameLengthBefore(start, end));
            if (actual !== expected) differences.push(`${start.toISO()} ${end.toISO()}: ${actual}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
  });
});
