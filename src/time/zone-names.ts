/**
 * Time-zone names as people type them (`europe/paris`, `UTC`) resolved to the spelling the
 * analytics service and luxon expect (`Europe/Paris`).
 */

/**
 * ICU still reports some zones under names IANA has since replaced; people type the current ones
 * and the service documents them, so these are answered with the current spelling.
 */
const currentIanaName: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

const utcNames = ['utc', 'etc/utc', 'gmt', 'etc/gmt', 'z', 'zulu', 'etc/zulu', 'universal'];

let known: Map<string, string> | undefined;
const resolved = new Map<string, string | undefined>();

/** Lower-case name -> canonical spelling, built once from the runtime's own zone list. */
function knownZones(): Map<string, string> {
  if (known === undefined) {
    known = new Map();
    for (const name of Intl.supportedValuesOf('timeZone')) {
      known.set(name.toLowerCase(), currentIanaName[name] ?? name);
    }
    for (const [old, current] of Object.entries(currentIanaName)) {
      known.set(old.toLowerCase(), current);
      known.set(current.toLowerCase(), current);
    }
    for (const name of utcNames) known.set(name, 'UTC');
  }
  return known;
}

/**
 * The canonical IANA spelling of a zone name typed in any case, `UTC` for UTC (and GMT), or
 * `undefined` when it is not a zone. Only `Area/City` names and UTC are zones here: abbreviations
 * like `EST` or `CET` are ambiguous or not what people mean, so they are refused. Old link names
 * (`US/Eastern`) resolve to the zone they point to. Results are cached: this runs on every command.
 */
export function resolveZone(input: string): string | undefined {
  const key = input.trim().toLowerCase();
  if (resolved.has(key)) return resolved.get(key);
  let zone = knownZones().get(key);
  if (zone === undefined && key.includes('/') && /^[a-z0-9_+\-/]+$/.test(key)) {
    try {
      const name = new Intl.DateTimeFormat('en-US', { timeZone: key }).resolvedOptions().timeZone;
      zone = currentIanaName[name] ?? name;
    } catch {
      zone = undefined;
    }
  }
  if (resolved.size < 10_000) resolved.set(key, zone);
  return zone;
}

let cities: Map<string, readonly string[]> | undefined;

/** Areas of IANA names: regions with many zones, never one. */
const areas: ReadonlySet<string> = new Set([
  'africa',
  'america',
  'americas',
  'antarctica',
  'arctic',
  'asia',
  'atlantic',
  'australia',
  'europe',
  'indian',
  'pacific',
]);

/** The canonical name of every zone this runtime knows. */
export function knownZoneNames(): ReadonlySet<string> {
  return new Set(knownZones().values());
}

/** City part of every zone name (`new york`, `kolkata`) -> the canonical zones that end with it. */
export function cityZones(): ReadonlyMap<string, readonly string[]> {
  if (cities === undefined) {
    const found = new Map<string, Set<string>>();
    for (const [name, canonical] of knownZones()) {
      const parts = name.split('/');
      if (parts.length < 2 || parts[0] === 'etc' || parts[0] === 'antarctica') continue;
      const city = (parts[parts.length - 1] as string).replace(/_/g, ' ');
      if (city === 'center') continue;
      const zones = found.get(city) ?? new Set<string>();
      zones.add(canonical);
      found.set(city, zones);
    }
    cities = new Map([...found].map(([city, zones]) => [city, [...zones]]));
  }
  return cities;
}

/**
 * A place typed after `in` (`London`, `new york`, `Kolkata`): the zone whose IANA name ends with
 * that city, matched in any case with spaces for underscores, when exactly one zone does. Returns
 * `region` for an area with many zones (`Europe`), `undefined` for anything else.
 */
export function resolveCity(place: string): string | 'region' | undefined {
  const key = place.trim().toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ');
  if (areas.has(key)) return 'region';
  const zones = cityZones().get(key);
  return zones?.length === 1 ? zones[0] : undefined;
}

/** A zone a digest may run in: the canonical names the command grammar produces, or `UTC`. */
export function isValidZone(zone: string): boolean {
  return resolveZone(zone) === zone;
}
