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
  ...(['aest', 'aedt', 'aet'] as const).map((a) => [a, 'Australia/Sydney'] as const),
  ...(['nzst', 'nzdt'] as const).map((a) => [a, 'Pacific/Auckland'] as const),
]);

/** The zones a place has: one, or several when it spans more (a country, a state), most people first. */
export type PlaceZones =
  | { readonly kind: 'zone'; readonly zone: string }
  | { readonly kind: 'zones'; readonly zones: readonly string[] };

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
  /** Lower-case city name -> the zone of the most populous city of that name. */
  readonly cities: ReadonlyMap<string, string>;
  /** Lower-case state, province or country name, and country codes -> zones, most people first. */
  readonly regions: ReadonlyMap<string, readonly string[]>;
}

let places: Places | undefined;

function loadPlaces(): Places {
  if (places !== undefined) return places;
  const { cityMapping } = createRequire(import.meta.url)('city-timezones') as {
    cityMapping: readonly CityData[];
  };
  const best = new Map<string, { zone: string; pop: number }>();
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
      const seen = best.get(key);
      if (seen === undefined || pop > seen.pop) best.set(key, { zone, pop });
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
  places = { cities: new Map([...best].map(([city, { zone }]) => [city, zone])), regions };
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
  const abbreviation = zoneAbbreviations.get(lower);
  if (abbreviation !== undefined) return { kind: 'zone', zone: abbreviation };
  const { cities, regions } = loadPlaces();
  const city = cities.get(lower);
  if (city !== undefined) return { kind: 'zone', zone: city };
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
