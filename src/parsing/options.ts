/**
 * Clauses that tune a request rather than name data: the time zone and the number of results.
 * Shared by every command grammar.
 */

import { resolveCity, resolveZone } from '../time/zone-names.ts';
import type { Match, Matcher } from './grammar.ts';
import { parseErrors } from './messages/lookup.ts';
import { zoneAbbreviations } from './reserved.ts';
import type { Token } from './tokens.ts';

/** Limits of `top N` / `limit N`. */
export const topRange = { min: 1, max: 50 } as const;

const zoneKeywords = new Set(['tz', 'timezone']);
const zoneShaped = /^[a-z][a-z0-9_+-]*(\/[a-z0-9_+-]+)+$/i;
const utcLike = /^(utc|gmt)$/i;

/**
 * `in <Area/City>`, `in UTC`, `in <city>` (`in Paris`, `in New York`: see `resolveCity`), `tz
 * <zone>`, `tz:<zone>`, `timezone <zone>`, `timezone:<zone>` -> the canonical zone name. `in`
 * claims only zone-shaped words and cities, so `in September` stays a time; after `tz` anything is
 * taken as a zone and checked. `in Europe` is refused: a region has many zones.
 * Abbreviations (`EST`, `CET`) are refused wherever they stand.
 * @throws ParseError `unknown_zone` naming the zone when it does not exist, or when `tz` has none.
 */
export const matchZoneOption: Matcher<string> = (tokens, at) => {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const lower = token.lower;
  if (zoneAbbreviations.has(lower)) throw parseErrors.unknownZone(token.text);
  if (lower === 'in') {
    const next = tokens[at + 1];
    if (next?.kind === 'word' && zoneAbbreviations.has(next.lower))
      throw parseErrors.unknownZone(next.text);
    if (next?.kind !== 'word') return undefined;
    if (zoneShaped.test(next.text) || utcLike.test(next.text)) return zoneMatch(next, at + 2);
    return matchCity(tokens, at + 1);
  }
  if (zoneKeywords.has(lower)) {
    const next = tokens[at + 1];
    if (next?.kind !== 'word') throw parseErrors.missingZone(token.text);
    return zoneMatch(next, at + 2);
  }
  const colon = lower.indexOf(':');
  if (colon > 0 && zoneKeywords.has(lower.slice(0, colon))) {
    const name = token.text.slice(colon + 1);
    if (name !== '') return zoneMatch({ ...token, text: name }, at + 1);
    const next = tokens[at + 1];
    if (next?.kind !== 'word') throw parseErrors.missingZone(token.text);
    return zoneMatch(next, at + 2);
  }
  return undefined;
};

function zoneMatch(token: Token, next: number): Match<string> {
  const zone = resolveZone(token.text);
  if (zone !== undefined) return { value: zone, next };
  const city = resolveCity(token.text);
  if (city === 'region') throw parseErrors.regionNotZone(token.text);
  if (city === undefined) throw parseErrors.unknownZone(token.text);
  return { value: city, next };
}

/** Most words in a city name (`Ho Chi Minh`). */
const maxCityWords = 3;

/**
 * `in London`, `in New York`: a city that ends exactly one IANA zone name, longest name first.
 * `in Europe` is refused as a region; anything else after `in` is left to the other clauses.
 */
function matchCity(tokens: readonly Token[], at: number): Match<string> | undefined {
  for (let words = maxCityWords; words >= 1; words--) {
    const run = tokens.slice(at, at + words);
    if (run.length < words || run.some((t) => t.kind !== 'word')) continue;
    const place = run.map((t) => t.text).join(' ');
    const city = resolveCity(place);
    if (city === 'region') throw parseErrors.regionNotZone(place);
    if (city !== undefined) return { value: city, next: at + words };
  }
  return undefined;
}

const topKeywords = new Set(['top', 'limit']);
const gluedTop = /^(top|limit)\d+$/;

/**
 * `top N`, `limit N`, `top:N`, `limit:N`, `top10`, `limit20` -> N. The keyword always claims what follows, so a typo
 * in the count is reported instead of becoming a phrase.
 * @throws ParseError `bad_top` unless N is a whole number in `topRange`.
 */
export const matchTopOption: Matcher<number> = (tokens, at) => {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const lower = token.lower;
  let count: string | undefined;
  let fragment: string;
  let next: number;
  const colon = lower.indexOf(':');
  if (topKeywords.has(lower)) {
    const following = tokens[at + 1];
    count = following?.kind === 'word' ? following.text : undefined;
    fragment = count === undefined ? token.text : `${token.text} ${count}`;
    next = count === undefined ? at + 1 : at + 2;
  } else if (colon > 0 && topKeywords.has(lower.slice(0, colon))) {
    count = token.text.slice(colon + 1);
    fragment = token.text;
    next = at + 1;
  } else if (gluedTop.test(lower)) {
    count = lower.replace(/^(top|limit)/, '');
    fragment = token.text;
    next = at + 1;
  } else {
    return undefined;
  }
  const value = count !== undefined && /^\d{1,3}$/.test(count) ? Number(count) : Number.NaN;
  if (!(value >= topRange.min && value <= topRange.max)) {
    throw parseErrors.badTop(fragment, topRange.min, topRange.max);
  }
  return { value, next };
};
