import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneFor } from '../../src/time/zones.ts';

const zoneNames = [
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'America/Santiago',
  'Pacific/Chatham',
];

describe('zoneFor', () => {
  it('gives the same offsets and names as an uncached zone, at any instant', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zoneNames),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (name, ts) => {
          const plain = IANAZone.create(name);
          const memo = zoneFor(name);
          expect(memo.offset(ts)).toBe(plain.offset(ts));
          expect(memo.offsetName(ts, { format: 'short', locale: 'en-US' })).toBe(
            plain.offsetName(ts, { format: 'short', locale: 'en-US' }),
          );
          expect(memo.offsetName(ts, { format: 'long', locale: 'fr' })).toBe(
            plain.offsetName(ts, { format: 'long', locale: 'fr' }),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    // US spring-forward: 02:00 EST becomes 03:00 EDT, within one hour of UTC time.
    ['America/New_York', '2026-03-08T06:59:59Z', -300, 'EST'],
    ['America/New_York', '2026-03-08T07:00:00Z', -240, 'EDT'],
    // US fall-back: 02:00 EDT becomes 01:00 EST.
    ['America/New_York', '2026-11-01T05:59:59Z', -240, 'EDT'],
    ['America/New_York', '2026-11-01T06:00:00Z', -300, 'EST'],
    // Lord Howe moves by half an hour.
    ['Australia/Lord_Howe', '2026-04-04T14:59:59Z', 660, 'GMT+11'],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', 630, 'GMT+10:30'],
  ])('is exact on both sides of a DST change: %s at %s is %i (%s)', (name, iso, offset, short) => {
    const ts = Date.parse(iso);
    // Ask for the whole hour first, so a wrongly cached hour would answer the second call.
    zoneFor(name).offset(ts - 1_800_000);
    expect(zoneFor(name).offset(ts)).toBe(offset);
    expect(zoneFor(name).offsetName(ts, { format: 'short', locale: 'en-US' })).toBe(short);
  });

  it('builds the same local times through luxon as a zone name does', () => {
    const start = DateTime.fromObject(
      { year: 2026, month: 3, day: 8, hour: 1, minute: 30 },
      { zone: zoneFor('America/New_York') },
    );
    expect(start.plus({ hours: 1 }).toISO()).toBe('2026-03-08T03:30:00.000-04:00');
    expect(start.zoneName).toBe('America/New_York');
  });

  it('gives the offset luxon gives in every zone, seconds of local mean time included', () => {
    const differences: string[] = [];
    for (const name of Intl.supportedValuesOf('timeZone')) {
      const plain = IANAZone.create(name);
      for (let ts = Date.UTC(1850, 0, 1); ts < Date.UTC(2040, 0, 1); ts += 1_733 * 86_400_000) {
        if (zoneFor(name).offset(ts) !== plain.offset(ts)) differences.push(`${name} ${ts}`);
      }
    }
    expect(differences).toEqual([]);
  });
});
