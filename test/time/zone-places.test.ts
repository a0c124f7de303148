import { describe, expect, it } from 'vitest';
import { resolveZone } from '../../src/time/zone-names.ts';
import {
  nearestZone,
  resolvePlace,
  spokenZone,
  standaloneZone,
  zoneAbbreviations,
} from '../../src/time/zone-places.ts';

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

describe('zones as people name them', () => {
  it.each([
    ['Eastern', 'America/New_York'],
    ['Eastern time', 'America/New_York'],
    ['US Eastern', 'America/New_York'],
    ['eastern standard time', 'America/New_York'],
    ['Pacific time', 'America/Los_Angeles'],
    ['Central time', 'America/Chicago'],
    ['Mountain Time', 'America/Denver'],
    ['NYC', 'America/New_York'],
    ['LA', 'America/Los_Angeles'],
    ['SF', 'America/Los_Angeles'],
    ['DC', 'America/New_York'],
    ['Washington DC', 'America/New_York'],
    ['London time', 'Europe/London'],
    ['Tokyo time zone', 'Asia/Tokyo'],
    ['Portland', 'America/Los_Angeles'],
    ['Hyderabad', 'Asia/Kolkata'],
  ])('reads %j as %s', (place, zone) => {
    expect(resolvePlace(place)).toEqual({ kind: 'zone', zone });
  });

  it.each([
    ['UTC+2', 'Etc/GMT-2'],
    ['GMT+2', 'Etc/GMT-2'],
    ['GMT-3', 'Etc/GMT+3'],
    ['utc +02:00', 'Etc/GMT-2'],
    ['UTC+5:30', 'Asia/Kolkata'],
    ['UTC+05:45', 'Asia/Kathmandu'],
    ['UTC+0', 'UTC'],
  ])('reads the offset %j as %s, which keeps it all year', (offset, zone) => {
    expect(spokenZone(offset)).toEqual({ kind: 'zone', zone, fixed: true });
  });

  it('refuses an offset no zone keeps all year', () => {
    expect(spokenZone('UTC+3:30')).toEqual({ kind: 'no-fixed-zone', offset: '+03:30' });
  });

  it.each([
    ['Springfield', ['America/New_York', 'America/Chicago', 'America/Los_Angeles']],
    ['Washington', ['America/New_York', 'America/Los_Angeles']],
    ['Birmingham', ['Europe/London', 'America/Chicago']],
  ])(
    'lists the zones of %j, a name places in several zones share, never guessing',
    (place, zones) => {
      expect(resolvePlace(place)).toEqual({ kind: 'zones', zones });
    },
  );

  it.each(['Boston', 'CT scan', 'eastern medicine', 'NYC'])(
    'reads no zone alone from %j, which may be a database',
    (text) => {
      const found = standaloneZone(text);
      expect(found).toBeUndefined();
    },
  );

  it.each([
    ['Eastern time', 'America/New_York'],
    ['US Pacific', 'America/Los_Angeles'],
    ['UTC+2', 'Etc/GMT-2'],
    ['London time', 'Europe/London'],
  ])('reads %j alone as %s', (text, zone) => {
    expect(standaloneZone(text)).toMatchObject({ kind: 'zone', zone });
  });
});
