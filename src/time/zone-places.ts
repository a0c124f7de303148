/**
 * Zones as people name them rather than by IANA name: abbreviations (`EST`, `CET`), and cities,
 * states and countries (`Boston`, `California`, `India`), read through the city-timezones dataset
 * (about 7,300 places with their zone, province, country and population). The dataset is loaded
 * on the first name the IANA names do not answer, so the common path never pays for it.
 */
import { createRequire } from 'node:module';
import type { CityData } from 'city-timezones';
import { distance } from 'fastest-levenshtein';
import { cityZones, knownZoneNames, resolveZone } from './zone-names.ts';

/**
 * Abbreviations people write after a time or as a zone, each read as one representative zone: the
 * zone most people who write it mean (IST is India, CST is the US Central zone). The zone then
 * decides summer time, so EST in July is New York's summer time; the answer says how it was read.
 * Two-letter ones (`ET`, `PT`) are read only after `in` or `tz`: alone they are words (a CT scan).
 */
export const zoneAbbreviations: ReadonlyMap<string, string> = new Map([
  ...(['et', 'est', 'edt'] as const).map((a) => [a, 'America/New_York'] as const),
  ...(['ct', 'cst', 'cdt'] as const).map((a) => [a, 'America/Chicago'] as const),
  ...(['mt', 'mst', 'mdt'] as const).map((a) => [a, 'America/Denver'] as const),
  ...(['pt', 'pst', 'pdt'] as const).map((a) => [a, 'America/Los_Angeles'] as const),
  ...(['akst', 'akdt'] as const).map((a) => [a, 'America/Anchorage'] as const),
  ['hst', 'Pacific/Honolulu'],
  ['bst', 'Europe/London'],
  ...(['wet', 'west'] as const).map((a) => [a, 'Europe/Lisbon'] as const),
  ...(['cet', 'cest'] as const).map((a) => [a, 'Europe/Paris'] as const),
  ...(['eet', 'eest'] as const).map((a) => [a, 'Europe/Athens'] as const),
  ['msk', 'Europe/Moscow'],
  ['ist', 'Asia/Kolkata'],
  ['sgt', 'Asia/Singapore'],
  ['hkt', 'Asia/Hong_Kong'],
  ['jst', 'Asia/Tokyo'],
  ['kst', 'Asia/Seoul'],
  ...(['awst'] as const).map((a) => [a, 'Australia/Perth'] as const),
  ...(['acst', 'acdt'] as const).map((a) => [a, 'Australia/Adelaide'] as const),
  // AEST is UTC+10, Queensland's all year; AEDT (UTC+11) is Sydney's summer.
  ['aest', 'Australia/Brisbane'],
  ...(['aedt', 'aet'] as const).map((a) => [a, 'Australia/Sydney'] as const),
  ...(['nzst', 'nzdt'] as const).map((a) => [a, 'Pacific/Auckland'] as const),
]);

/**
 * The zones a place has: one, or several when it spans more (a country, a state) or when several
 * places of that name lie in different zones (`Springfield`), most people first. `fixed`: the
 * name was a fixed offset from UTC (`UTC+2`), read as a zone that keeps it all year.
 */
export type PlaceZones =
  | { readonly kind: 'zone'; readonly zone: string; readonly fixed?: true }
  | { readonly kind: 'zones'; readonly zones: readonly string[] }
  /** `UTC+3:30`: an offset no zone keeps all year; `offset` as written in the answer. */
  | { readonly kind: 'no-fixed-zone'; readonly offset: string };

/**
 * Zones by the names people say (`Eastern time`, `US Pacific`), lower-case and without `time`.
 * The US zone names win over the IANA areas and the dataset's places they share a word with
 * (`Pacific`, `Eastern`).
 */
const zoneNames: ReadonlyMap<string, string> = new Map([
  ...[
    'eastern',
    'us eastern',
    'eastern standard',
    'eastern daylight',
    'eastern us',
    'east coast',
  ].map((name) => [name, 'America/New_York'] as const),
  ...['central', 'us central', 'central standard', 'central daylight', 'central us'].map(
    (name) => [name, 'America/Chicago'] as const,
  ),
  ...['mountain', 'us mountain', 'mountain standard', 'mountain daylight'].map(
    (name) => [name, 'America/Denver'] as const,
  ),
  ...[
    'pacific',
    'us pacific',
    'pacific standard',
    'pacific daylight',
    'pacific us',
    'west coast',
  ].map((name) => [name, 'America/Los_Angeles'] as const),
  ['alaska', 'America/Anchorage'],
  ['hawaii', 'Pacific/Honolulu'],
  ['arizona', 'America/Phoenix'],
  ['uk', 'Europe/London'],
  ['british', 'Europe/London'],
  ['central european', 'Europe/Paris'],
  ['eastern european', 'Europe/Athens'],
  ['indian standard', 'Asia/Kolkata'],
]);

/** The first words of the zones' spoken names (`eastern`, `us`), for a quick first look. */
export const zoneNameStarts: ReadonlySet<string> = new Set(
  [...zoneNames.keys()].map((name) => name.split(' ')[0] as string),
);

/** Cities by the short names people give them (`NYC`, `LA`, `DC`), lower-case. */
const cityNicknames: ReadonlyMap<string, string> = new Map([
  ...['nyc', 'new york city', 'ny', 'manhattan', 'brooklyn'].map(
    (name) => [name, 'America/New_York'] as const,
  ),
  ...['la', 'l.a.', 'sf', 'san fran', 'bay area', 'silicon valley', 'seattle'].map(
    (name) => [name, 'America/Los_Angeles'] as const,
  ),
  ...['dc', 'd.c.', 'washington dc', 'washington d.c.', 'philly', 'atl'].map(
    (name) => [name, 'America/New_York'] as const,
  ),
  ...['vegas'].map((name) => [name, 'America/Los_Angeles'] as const),
  ...['chi-town', 'nola'].map((name) => [name, 'America/Chicago'] as const),
]);

/** Names of a place and a state, or of a city people shorten, that lie in several zones. */
const sharedNames: ReadonlyMap<string, readonly string[]> = new Map([
  ['washington', ['America/New_York', 'America/Los_Angeles']],
]);

/** `Eastern time`, `London time zone`, `UK time`: the name of the zone or place before them. */
const timeSuffix = /\s+(time(\s*zone)?|timezone|tz)$/;

/**
 * The zone a spoken name (`Eastern time`, `US Pacific`, `NYC`) or a fixed offset (`UTC+2`, `GMT
 * -3`, `UTC+5:30`) names, in any case; undefined for anything else.
 */
export function spokenZone(typed: string): PlaceZones | undefined {
  const lower = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  const offset = offsetZone(lower);
  if (offset !== undefined) return offset;
  const name = lower.replace(timeSuffix, '');
  const zone = zoneNames.get(name) ?? cityNicknames.get(name);
  if (zone !== undefined) return { kind: 'zone', zone };
  const shared = sharedNames.get(name);
  return shared === undefined ? undefined : { kind: 'zones', zones: shared };
}

/**
 * A zone named so that it can stand alone, without `in` (`#hcsm last week Eastern time`): a fixed
 * offset (`UTC+2`), a zone's spoken name (`US Eastern`, `Pacific time`) or a place followed by
 * `time` (`London time`). A city alone is not one: it may be a database.
 */
export function standaloneZone(typed: string): PlaceZones | undefined {
  const lower = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  const offset = offsetZone(lower);
  if (offset !== undefined) return offset;
  const zone = zoneNames.get(lower.replace(timeSuffix, ''));
  if (zone !== undefined) return { kind: 'zone', zone };
  return timeSuffix.test(lower) ? resolvePlace(lower) : undefined;
}

const utcOffset = /^(?:utc|gmt|z)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/;

/**
 * Zones that have kept one offset from UTC since the earliest data, with no summer time, for the
 * offsets no `Etc/GMT` zone names (those are whole hours only).
 */
const fixedOffsetZones: ReadonlyMap<string, string> = new Map([
  ['+04:30', 'Asia/Kabul'],
  ['+05:30', 'Asia/Kolkata'],
  ['+05:45', 'Asia/Kathmandu'],
  ['+06:30', 'Asia/Yangon'],
  ['+09:30', 'Australia/Darwin'],
  ['-09:30', 'Pacific/Marquesas'],
]);

/**
 * `UTC+2`, `GMT-3`, `UTC+05:30` -> the zone that keeps that offset all year: `Etc/GMT-2` for
 * whole hours (IANA's sign is the other way round), a zone without summer time for the others.
 */
function offsetZone(lower: string): PlaceZones | undefined {
  const match = utcOffset.exec(lower);
  if (match === null) return undefined;
  const [, sign, hours, minutes] = match;
  const h = Number(hours);
  const m = Number(minutes ?? 0);
  const offset = `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  if (m === 0 && h === 0) return { kind: 'zone', zone: 'UTC', fixed: true };
  if (m === 0 && (sign === '+' ? h <= 14 : h <= 12)) {
    return { kind: 'zone', zone: `Etc/GMT${sign === '+' ? '-' : '+'}${h}`, fixed: true };
  }
  const zone = fixedOffsetZones.get(offset);
  return zone === undefined
    ? { kind: 'no-fixed-zone', offset }
    : { kind: 'zone', zone, fixed: true };
}

/**
 * Short names of countries the dataset spells in full, the way people type them after `in`.
 * Codes the dataset holds (`US`, `IN`, `AUS`) are read as written in capitals.
 */
const countryNames: Readonly<Record<string, string>> = {
  us: 'US',
  usa: 'US',
  'united states': 'US',
  uk: 'GB',
  britain: 'GB',
  'great britain': 'GB',
  'united kingdom': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
};

interface Places {
  /**
   * Lower-case city name -> the zone of the cities of that name, or their zones when no one of
   * them has three times the people of the others together in another zone (`Springfield`).
   */
  readonly cities: ReadonlyMap<string, string | readonly string[]>;
  /** Lower-case state, province or country name, and country codes -> zones, most people first. */
  readonly regions: ReadonlyMap<string, readonly string[]>;
}

let places: Places | undefined;

function loadPlaces(): Places {
  if (places !== undefined) return places;
  const { cityMapping } = createRequire(import.meta.url)('city-timezones') as {
    cityMapping: readonly CityData[];
  };
  const cityPeople = new Map<string, Map<string, number>>();
  const regionPeople = new Map<string, Map<string, number>>();
  // The dataset is typed as strings but holds a few numbers and nulls: only strings are names.
  const add = (name: unknown, zone: string, pop: number): void => {
    if (typeof name !== 'string' || name === '') return;
    const key = name.toLowerCase();
    const zones = regionPeople.get(key) ?? new Map<string, number>();
    zones.set(zone, (zones.get(zone) ?? 0) + pop);
    regionPeople.set(key, zones);
  };
  for (const row of cityMapping) {
    const zone = typeof row.timezone === 'string' ? resolveZone(row.timezone) : undefined;
    if (zone === undefined) continue;
    const pop = Number.isFinite(row.pop) ? row.pop : 0;
    for (const name of new Set([row.city, row.city_ascii])) {
      if (typeof name !== 'string' || name === '') continue;
      const key = name.toLowerCase();
      const zones = cityPeople.get(key) ?? new Map<string, number>();
      zones.set(zone, (zones.get(zone) ?? 0) + pop);
      cityPeople.set(key, zones);
    }
    add(row.province, zone, pop);
    add(row.country, zone, pop);
    add(row.iso2, zone, pop);
    add(row.iso3, zone, pop);
  }
  const regions = new Map<string, readonly string[]>();
  for (const [name, zones] of regionPeople) {
    regions.set(
      name,
      [...zones].sort((a, b) => b[1] - a[1]).map(([zone]) => zone),
    );
  }
  const cities = new Map<string, string | readonly string[]>();
  for (const [name, zones] of cityPeople) {
    const ranked = [...zones].sort((a, b) => b[1] - a[1]);
    const [first, ...others] = ranked;
    if (first === undefined) continue;
    const rest = others.reduce((sum, [, pop]) => sum + pop, 0);
    cities.set(name, first[1] >= 3 * rest ? first[0] : ranked.map(([zone]) => zone));
  }
  places = { cities, regions };
  return places;
}

/**
 * The zones of a place typed after `in` or `tz`, in any case, `the` allowed before it: an
 * abbreviation, a city (the most populous of that name, `Boston`), a state or province
 * (`California`), a country (`India`, `the US`). Undefined for anything else.
 */
export function resolvePlace(typed: string): PlaceZones | undefined {
  const place = typed
    .trim()
    .replace(/^the\s+/i, '')
    .replace(/\s+/g, ' ');
  const lower = place.toLowerCase();
  const abbreviation = zoneAbbreviations.get(lower.replace(timeSuffix, ''));
  if (abbreviation !== undefined) return { kind: 'zone', zone: abbreviation };
  const spoken = spokenZone(lower);
  if (spoken !== undefined) return spoken;
  // "London time", "Tokyo time zone": the place before the words.
  if (timeSuffix.test(lower)) return resolvePlace(place.replace(/\s+\S+(\s*zone)?$/i, ''));
  const { cities, regions } = loadPlaces();
  const city = cities.get(lower);
  if (typeof city === 'string') return { kind: 'zone', zone: city };
  if (city !== undefined) return { kind: 'zones', zones: city };
  const isCode = /^[A-Z]{2,3}$/.test(place);
  const region =
    regions.get(countryNames[lower]?.toLowerCase() ?? '') ??
    (isCode || place.length > 3 ? regions.get(lower) : undefined);
  if (region === undefined || region.length === 0) return undefined;
  if (region.length === 1) return { kind: 'zone', zone: region[0] as string };
  return { kind: 'zones', zones: region };
}

/**
 * The zone nearest to a name that is none (`Europe/Londn`, `Pariss`), for a "did you mean": the
 * IANA name, or the zone of the city part, within a couple of edits; undefined when nothing is
 * that near.
 */
export function nearestZone(typed: string): string | undefined {
  const lower = typed.trim().toLowerCase();
  if (lower === '') return undefined;
  const allowed = Math.max(1, Math.min(3, Math.floor(lower.length / 4)));
  let found: string | undefined;
  let least = allowed + 1;
  const consider = (name: string, zone: string): void => {
    if (Math.abs(name.length - lower.length) >= least) return;
    const d = distance(lower, name);
    if (d < least) {
      least = d;
      found = zone;
    }
  };
  if (lower.includes('/')) {
    for (const name of knownZoneNames()) consider(name.toLowerCase(), name);
  } else {
    for (const [city, zones] of cityZones()) {
      if (zones.length === 1) consider(city, zones[0] as string);
    }
  }
  return found;
}
