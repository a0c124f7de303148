/**
 * Clauses that tune a request rather than name data: the time zone and the number of results.
 * Shared by every command grammar.
 */
import type { Match, Matcher } from './grammar.ts';
import { parseErrors } from './messages.ts';
import type { Token } from './tokens.ts';
import { resolveZone } from './zone.ts';

/** Limits of `top N` / `limit N`. */
export const topRange = { min: 1, max: 50 } as const;

const zoneKeywords = new Set(['tz', 'timezone']);
const zoneShaped = /^[a-z][a-z0-9_+-]*(\/[a-z0-9_+-]+)+$/i;
const utcLike = /^(utc|gmt)$/i;
/**
 * Abbreviations people add after a time. They are ambiguous (IST, CST) or not zones at all (EST
 * is not New York in summer), so they are refused by name rather than read as a phrase database.
 */
const zoneAbbreviations = new Set([
  'est',
  'edt',
  'cst',
  'cdt',
  'mst',
  'mdt',
  'pst',
  'pdt',
  'akst',
  'akdt',
  'hst',
  'bst',
  'cet',
  'cest',
  'eet',
  'eest',
  'ist',
  'jst',
  'kst',
  'aest',
  'aedt',
  'acst',
  'acdt',
  'awst',
  'nzst',
  'nzdt',
]);

/**
 * `in <Area/City>`, `in UTC`, `tz <zone>`, `tz:<zone>`, `timezone <zone>`, `timezone:<zone>` ->
 * the canonical zone name. `in` claims only zone-shaped words, so `in September` stays a time and
 * `in` inside a phrase stays a word; after `tz` anything is taken as a zone and checked.
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
    if (next?.kind !== 'word' || !(zoneShaped.test(next.text) || utcLike.test(next.text))) {
      return undefined;
    }
    return zoneMatch(next, at + 2);
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
  if (zone === undefined) throw parseErrors.unknownZone(token.text);
  return { value: zone, next };
}

const topKeywords = new Set(['top', 'limit']);

/**
 * `top N`, `limit N`, `top:N`, `limit:N` -> N. The keyword always claims what follows, so a typo
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
  } else {
    return undefined;
  }
  const value = count !== undefined && /^\d{1,3}$/.test(count) ? Number(count) : Number.NaN;
  if (!(value >= topRange.min && value <= topRange.max)) {
    throw parseErrors.badTop(fragment, topRange.min, topRange.max);
  }
  return { value, next };
};
