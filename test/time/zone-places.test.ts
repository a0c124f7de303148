import { describe, expect, it } from 'vitest';
import { resolveZone } from '../../src/time/zone-names.ts';
import { nearestZone, resolvePlace, zoneAbbreviations } from '../../src/time/zone-places.ts';

describe('resolvePlace', () => {
  it.each([
    ['Boston', 'America/New_York'],
    ['tokyo', 'Asia/Tokyo'],
    ['India', 'Asia/Kolkata'],
    ['California', 'America/Los_Angeles'],
    ['the UK', 'Europe/London'],
    ['EST', 'America/New_York'],
    ['London', 'Europe/London'],
  ])('reads %j as the one zone %s', (place, zone) => {
    expect(resolvePlace(place)).toEqual({ kind: 'zone', zone });
  });

  it('lists the zones of a place with several, most people first', () => {
    const us = resolvePlace('US');
    expect(us?.kind).toBe('zones');
    if (us?.kind === 'zones')
      expect(us.zones.slice(0, 2)).toEqual(['America/New_York', 'America/Chicago']);
  });

  it.each(['Narnia', 'in', 'of', 'xx'])('knows no place %j', (place) => {
    expect(resolvePlace(place)).toBeUndefined();
  });

  it('maps every abbreviation to a zone this runtime knows', () => {
    for (const zone of zoneAbbreviations.values()) expect(resolveZone(zone)).toBe(zone);
  });
});

describe('nearestZone', () => {
  it.each([
    ['Europe/Londn', 'Europe/London'],
    ['europe/pariss', 'Europe/Paris'],
    ['Kolkatta', 'Asia/Kolkata'],
  ])('finds %j near %s', (typed, zone) => {
    expect(nearestZone(typed)).toBe(zone);
  });

  it.each(['Mars/Base', 'Narnia', ''])('finds nothing near %j', (typed) => {
    expect(nearestZone(typed)).toBeUndefined();
  });
});
