/**
 * Clauses that tune a request rather than name data: the time zone, the number of results, and how
 * a lookup shows them. The zone and the count are shared by every command grammar.
 */

import { ParseError } from '../errors.ts';
import { resolveCity, resolveZone } from '../time/zone-names.ts';
import {
  nearestZone,
  type PlaceZones,
  resolvePlace,
  standaloneZone,
  zoneAbbreviations,
  zoneNameStarts,
} from '../time/zone-places.ts';
import type { Match, Matcher } from './grammar.ts';
import { isPhraseWord } from './known-words.ts';
import { parseErrors } from './messages/lookup.ts';
import { isMarkedDatabase, topNouns } from './question.ts';
import { isReservedWord } from './reserved.ts';
import { normaliseSlackText } from './slack-text.ts';
import { months, units } from './time/vocabulary.ts';
import { lowerAt, type Token, tokenize, tokensText } from './tokens.ts';
import {
  countWords,
  type FormatWord,
  formatWords,
  looseFormatWords,
  meaningOfTyped,
} from './vocabulary.ts';

/** Limits of `top N` / `limit N`. */
export const topRange = { min: 1, max: 50 } as const;

const zoneKeywords = new Set(['tz', 'timezone']);
const zoneShaped = /^[a-z][a-z0-9_+-]*(\/[a-z0-9_+-]+)+$/i;
const utcLike = /^(utc|gmt)([+-]\d{1,2}(:?\d{2})?)?$/i;
/** Abbreviations read as a zone wherever they stand; the others are words too (`west`, `CT`). */
const bareAbbreviation = (word: string): boolean =>
  word.length >= 3 && word !== 'wet' && word !== 'west' && zoneAbbreviations.has(word);

/**
 * `in <Area/City>`, `in UTC`, `in UTC+2`, `in <place>` (`in Paris`, `in New York`, `in NYC`, `in
 * Eastern time`, `in India`, `in California`, `in EST`: see `resolvePlace`), `tz <zone>`,
 * `tz:<zone>`, `timezone <zone>`, `timezone:<zone>`, and alone an abbreviation (`since 9am EST`;
 * `ET`, `PT`, `CT`, `MT` apart from a phrase's words), a fixed offset (`UTC+2`) or a zone's spoken
 * name (`Eastern time`, `US Pacific`) -> the canonical zone name. `in` claims only zone-shaped
 * words and places, so `in September` stays a time; after `tz` anything is taken as a zone and
 * checked.
 * @throws ParseError `unknown_zone` naming the zone when it does not exist (with the nearest one
 *   when one is near), when `tz` has none, when the place has several zones (`in the US`, `in
 *   Europe`, `in Springfield`), listing them, or when an offset has no zone that keeps it.
 */
export const matchZoneOption: Matcher<string> = (tokens, at, scan) => {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const lower = token.lower;
  if (bareAbbreviation(lower)) return zoneMatch(token, at + 1);
  if (lower === 'in') {
    const next = tokens[at + 1];
    if (next?.kind !== 'word') return undefined;
    if (zoneShaped.test(next.text) || utcLike.test(next.text)) return zoneMatch(next, at + 2);
    return matchPlace(tokens, at + 1);
  }
  if (zoneKeywords.has(lower)) {
    const next = tokens[at + 1];
    if (next?.kind !== 'word') throw parseErrors.missingZone(token.text);
    if (zoneShaped.test(next.text) || utcLike.test(next.text)) return zoneMatch(next, at + 2);
    return matchPlace(tokens, at + 1) ?? zoneMatch(next, at + 2);
  }
  // `tz:Europe/Madrid`, and as a query string writes it, `tz=Europe/Madrid`.
  const colon = lower.search(/[:=]/);
  if (colon > 0 && zoneKeywords.has(lower.slice(0, colon))) {
    const name = token.text.slice(colon + 1);
    if (name !== '') return zoneMatch({ ...token, text: name }, at + 1);
    const next = tokens[at + 1];
    if (next?.kind !== 'word') throw parseErrors.missingZone(token.text);
    return zoneMatch(next, at + 2);
  }
  // `yesterday +05:30`: an offset standing after a clause, as `in UTC+05:30` reads it.
  if (scan?.afterClause === true && bareOffset.test(lower)) {
    return zoneMatch({ ...token, text: `UTC${token.text}` }, at + 1);
  }
  return matchStandaloneZone(tokens, at, scan?.afterClause === true);
};

const bareOffset = /^[+-]\d{1,2}(:?\d{2})?$/;

/**
 * A zone named on its own (the console's `--tz`), read as a lookup reads what follows `in`: an
 * IANA name, UTC, a fixed offset, a place, an abbreviation or a zone's spoken name.
 */
export function readZoneName(text: string): string | ParseError {
  try {
    const tokens = tokenize(`in ${normaliseSlackText(text).trim()}`);
    const match = matchZoneOption(tokens, 0);
    if (match !== undefined && match.next === tokens.length) return match.value;
    throw parseErrors.unknownZone(text.trim(), nearestZone(text));
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
}

/** Most words in a zone's spoken name (`US Eastern standard time`). */
const maxSpokenWords = 5;
const timeWords: ReadonlySet<string> = new Set(['time', 'timezone', 'tz', 'zone']);

/**
 * Whether a zone's name may start at `at`: its first word starts one (`Eastern`, `US`, `UTC+2`,
 * `ET`), or `time` follows within the name's length (`London time`). Every other word is passed
 * by at once, so the longer names are tried only where one can be.
 */
function mayStartZoneName(tokens: readonly Token[], at: number): boolean {
  const first = lowerAt(tokens, at);
  if (first === undefined) return false;
  if (zoneNameStarts.has(first) || zoneAbbreviations.has(first) || utcLike.test(first)) return true;
  for (let i = at + 1; i < at + maxSpokenWords; i++) {
    if (timeWords.has(lowerAt(tokens, i) ?? '')) return true;
  }
  return false;
}

/**
 * A zone named without `in` (`Eastern time`, `US Pacific`, `UTC+2`, `ET`), apart from the words
 * of a phrase (`eastern medicine` stays one, and so does `CT scan`).
 */
function matchStandaloneZone(
  tokens: readonly Token[],
  at: number,
  afterClause: boolean,
): Match<string> | undefined {
  if (!afterClause && isPhraseWord(tokens[at - 1])) return undefined;
  if (!mayStartZoneName(tokens, at)) return undefined;
  for (let words = maxSpokenWords; words >= 1; words--) {
    if (at + words > tokens.length || isPhraseWord(tokens[at + words])) continue;
    const run = tokens.slice(at, at + words);
    if (run.some((t) => t.kind !== 'word')) continue;
    const name = run.map((t) => t.text).join(' ');
    const lower = name.toLowerCase();
    const found =
      words === 1 && zoneAbbreviations.has(lower)
        ? { kind: 'zone' as const, zone: zoneAbbreviations.get(lower) as string }
        : standaloneZone(lower);
    if (found !== undefined) return { value: zoneOf(found, name), next: at + words };
  }
  return undefined;
}

function zoneMatch(token: Token, next: number): Match<string> {
  const zone = resolveZone(token.text) ?? placeZone(token.text);
  if (zone !== undefined) return { value: zone, next };
  const near = nearestZone(token.text);
  throw parseErrors.unknownZone(token.text, near);
}

/**
 * The one zone of a place (an IANA city, then the dataset), undefined when it is none.
 * @throws ParseError `unknown_zone` for a place with several zones, listing them.
 */
function placeZone(place: string): string | undefined {
  const city = resolveCity(place);
  if (city !== undefined && city !== 'region') return city;
  const found = resolvePlace(place);
  if (found === undefined && city === 'region') throw parseErrors.regionNotZone(place);
  return found === undefined ? undefined : zoneOf(found, place);
}

/**
 * The zone a place names.
 * @throws ParseError `unknown_zone` when it names several (listing them) or an offset no zone keeps.
 */
function zoneOf(found: PlaceZones, place: string): string {
  switch (found.kind) {
    case 'zone':
      return found.zone;
    case 'zones':
      throw parseErrors.severalZones(place, found.zones);
    case 'no-fixed-zone':
      throw parseErrors.noFixedZone(place, found.offset);
  }
}

/**
 * The name the person gave a zone when it is not the zone's own (`EST`, `Boston`, `the UK` for
 * America/New_York, America/New_York, Europe/London), so the answer can say how it was read, and
 * that a fixed offset stays fixed (`UTC+2 (a fixed offset, without summer time)`); undefined for
 * an IANA name, its city (`in Paris`) or UTC. `fragment`: the zone clause as typed.
 */
export function zoneAlias(fragment: string, zone: string): string | undefined {
  const typed = fragment.replace(/^(in|tz|timezone)(\s+|:|=)/i, '').trim();
  const plain = (name: string): string => name.toLowerCase().replace(/_/g, ' ');
  const city = zone.split('/').at(-1) ?? zone;
  if (zone === 'UTC' || [plain(zone), plain(city)].includes(plain(typed))) return undefined;
  if (resolveZone(typed) === zone && typed.includes('/')) return undefined;
  return fixedOffset.test(typed) ? `${typed} (a fixed offset, without summer time)` : typed;
}

const fixedOffset = /^((utc|gmt|z)\s*)?[+-]/i;

/** Most words in a place name (`the United States`, `Ho Chi Minh City`). */
const maxPlaceWords = 4;

/**
 * `in London`, `in New York`, `in the US`: the place named by the longest run of words (without
 * the grammar's own words, so `in September` and `in the last week` stay times) that names one.
 * Anything else after `in` is left to the other clauses.
 */
function matchPlace(tokens: readonly Token[], at: number): Match<string> | undefined {
  for (let words = maxPlaceWords; words >= 1; words--) {
    const run = tokens.slice(at, at + words);
    if (run.length < words || run.some((t) => t.kind !== 'word')) continue;
    const place = run.map((t) => t.text).join(' ');
    if (words === 1 && zoneAbbreviations.has(run[0]?.lower ?? ''))
      return zoneMatch(run[0] as Token, at + 1);
    const grammar = run.some(
      (t, i) => (i > 0 || t.lower !== 'the') && (isReservedWord(t.text) || /^\d/.test(t.text)),
    );
    if (grammar) continue;
    const zone = placeZone(place);
    if (zone !== undefined) return { value: zone, next: at + words };
  }
  return undefined;
}

const topKeywords = new Set(['top', 'limit']);
const gluedTop = /^(top|limit)-?\d+$/;

/**
 * `top N`, `limit N`, `top:N`, `limit:N`, `top10`, `limit20` -> N. The keyword always claims what follows, so a typo
 * in the count is reported instead of becoming a phrase.
 * @throws ParseError `bad_top` unless N is a whole number in `topRange`.
 */
export const matchTopOption: Matcher<number> = (tokens, at) => {
  const top = readTop(tokens, at);
  if (top === undefined) return undefined;
  if (!(top.value >= topRange.min && top.value <= topRange.max)) {
    throw parseErrors.badTop(top.fragment, topRange.min, topRange.max);
  }
  return top;
};

/**
 * Limits of a lookup's `top N`: a table shows up to 100 people, a CSV export up to the 500 the
 * service gives at most; a list shows `listMax`, and a count above it asks for the table.
 */
export const lookupTopRange = { min: 1, listMax: 10, tableMax: 100, exportMax: 500 } as const;

/**
 * A lookup's `top N`, read as {@link matchTopOption} reads it. Which counts are allowed depends on
 * what else the lookup asks for (a table, a chart, an export), so the parser checks the count once
 * the whole text is read.
 * @throws ParseError `bad_top` unless N is a whole number from 1 to the export's 500.
 */
export const matchLookupTop: Matcher<number> = (tokens, at) => {
  const top = readTop(tokens, at);
  if (top === undefined) return undefined;
  if (!(top.value >= lookupTopRange.min && top.value <= lookupTopRange.exportMax)) {
    throw parseErrors.badLookupTop(top.fragment);
  }
  return top;
};

/**
 * A count in words at `at`: `ten`, `twenty five`, `twenty-five`, `a dozen`, `a hundred`, `one
 * hundred`, and hundreds for an export (`five hundred`).
 */
function countInWords(tokens: readonly Token[], at: number): Match<number> | undefined {
  let i = at;
  const first = lowerAt(tokens, i);
  if (first === 'a' || (first === 'one' && lowerAt(tokens, i + 1) === 'hundred')) i++;
  const word = lowerAt(tokens, i) ?? '';
  const [tens, units] = word.split('-');
  let value = countWords.get(tens ?? '');
  if (value === undefined) return undefined;
  if (i > at && value !== 100 && value !== 12) return undefined;
  const unit = units === undefined ? undefined : countWords.get(units);
  if (units !== undefined) {
    if (unit === undefined || unit > 9 || value % 10 !== 0 || value < 20) return undefined;
    return { value: value + unit, next: i + 1 };
  }
  const following = countWords.get(lowerAt(tokens, i + 1) ?? '');
  if (value >= 20 && value < 100 && following !== undefined && following <= 9) {
    value += following;
    i++;
  } else if (value <= 9 && following === 100) {
    // "five hundred", the most an export holds.
    value *= 100;
    i++;
  }
  return { value, next: i + 1 };
}

/** What people rank besides people (`top posts`): the service ranks accounts only. */
const contentWords: ReadonlySet<string> = new Set([
  'posts',
  'tweets',
  'content',
  'links',
  'articles',
  'hashtags',
  'topics',
]);

/** Words after a count that make it the number of people (`10 influencers`, `5 most retweeted`). */
const countedWords: ReadonlySet<string> = new Set([
  ...topNouns,
  'top',
  'most',
  'biggest',
  'leading',
]);

/** `10 influencers`, `ten top voices`, `5 most retweeted`: the count, the words left to others. */
function countBeforeNoun(
  tokens: readonly Token[],
  at: number,
): (Match<number> & { readonly fragment: string }) | undefined {
  const word = lowerAt(tokens, at) ?? '';
  const count = /^\d{1,3}$/.test(word)
    ? { value: Number(word), next: at + 1 }
    : countInWords(tokens, at);
  if (count === undefined || !countedWords.has(lowerAt(tokens, count.next) ?? '')) return undefined;
  return { ...count, fragment: tokensText(tokens, at, count.next) };
}

function readTop(
  tokens: readonly Token[],
  at: number,
): (Match<number> & { readonly fragment: string }) | undefined {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const lower = token.lower;
  let count: string | undefined;
  let fragment: string;
  let next: number;
  const colon = lower.indexOf(':');
  // "Show 20.", "show me 25": a count to show, when no unit makes it a window (`show 20 days`).
  const shown = lower === 'show' ? (lowerAt(tokens, at + 1) === 'me' ? at + 2 : at + 1) : -1;
  const shownCount = shown === -1 ? undefined : lowerAt(tokens, shown);
  if (
    shownCount !== undefined &&
    /^\d{1,3}$/.test(shownCount) &&
    tokens[shown + 1]?.kind !== 'word'
  ) {
    return {
      value: Number(shownCount),
      next: shown + 1,
      fragment: tokensText(tokens, at, shown + 1),
    };
  }
  if (topKeywords.has(lower)) {
    const following = tokens[at + 1];
    // "top influencers for #hcsm", "top retweeted": a question's words, not a count.
    if (following?.kind === 'word' && topNouns.has(following.lower)) return undefined;
    if (following?.kind === 'word' && contentWords.has(following.lower)) {
      throw parseErrors.topPosts(tokensText(tokens, at, at + 2));
    }
    const spelled = countInWords(tokens, at + 1);
    if (spelled !== undefined) {
      return { ...spelled, fragment: tokensText(tokens, at, spelled.next) };
    }
    if (following?.kind === 'word' && meaningOfTyped(following.text) !== undefined) {
      return undefined;
    }
    // "ten top #hcsm": no count follows, the count came first.
    if (following !== undefined && isMarkedDatabase(following)) return undefined;
    count = following?.kind === 'word' ? following.text : undefined;
    fragment = count === undefined ? token.text : `${token.text} ${count}`;
    next = count === undefined ? at + 1 : at + 2;
  } else if (colon > 0 && topKeywords.has(lower.slice(0, colon))) {
    count = token.text.slice(colon + 1);
    fragment = token.text;
    next = at + 1;
  } else if (gluedTop.test(lower)) {
    count = lower.replace(/^(top|limit)-?/, '');
    fragment = token.text;
    next = at + 1;
  } else if (lower === 'first' && firstCount(tokens, at + 1)) {
    // "first 25": the top 25, unless a unit follows (`first 2 weeks of October`).
    count = tokens[at + 1]?.text;
    fragment = tokensText(tokens, at, at + 2);
    next = at + 2;
  } else {
    return countBeforeNoun(tokens, at);
  }
  const value = count !== undefined && /^\d{1,3}$/.test(count) ? Number(count) : Number.NaN;
  return { value, next, fragment };
}

function firstCount(tokens: readonly Token[], at: number): boolean {
  const after = lowerAt(tokens, at + 1) ?? '';
  return /^\d{1,3}$/.test(lowerAt(tokens, at) ?? '') && !units.has(after) && !months.has(after);
}

/** What a lookup asks to see besides the ranking: a table, a chart, or the CSV file. */
export type ShowOption = FormatWord;

/** Words before a format that only introduce it (`as csv`, `in a table`, `with a chart`). */
const formatLeads: ReadonlySet<string> = new Set(['as', 'in', 'into', 'with', 'via']);
const articles: ReadonlySet<string> = new Set(['a', 'an']);
const categoryWords: ReadonlySet<string> = new Set(['categories', 'category', 'stakeholders']);
/** Words after an export that belong to it (`csv file`, `excel format`). */
const exportTails: ReadonlySet<string> = new Set(['file', 'format', 'sheet', 'spreadsheet']);

/** A format word at `at`: one that always means itself (`strong`), or an everyday word too. */
function formatAt(
  tokens: readonly Token[],
  at: number,
): { format: FormatWord; strong: boolean } | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined) return undefined;
  const strong = formatWords.get(word);
  if (strong !== undefined) return { format: strong, strong: true };
  const loose = looseFormatWords.get(word);
  return loose === undefined ? undefined : { format: loose, strong: false };
}

/**
 * `table`, `chart` (`graph`), `chart categories` (`categories chart`, `pie chart`), `export` and
 * `csv`, and these with the words people put around them (`as csv`, `in a table`, `bar chart`,
 * `export to excel`, `csv file`, `download as csv`): how a lookup shows its ranking, and whether it
 * comes as a CSV file too. `table`, `chart`, `graph`, `export` and `csv` always claim their place,
 * as `top` does: a phrase holding one needs quotes (`"chart review"`). Formats that are everyday
 * words too (`excel`, `bar`, `pie`, `download`) are claimed here only with such words around them;
 * alone they are the vocabulary's (`known-words.ts`).
 */
export const matchShowOption: Matcher<ShowOption> = (tokens, at) => {
  const first = lowerAt(tokens, at);
  if (first === undefined) return undefined;
  let i = at;
  const led = formatLeads.has(first) || first === 'by';
  if (led) i++;
  if (articles.has(lowerAt(tokens, i) ?? '')) i++;
  if (first === 'by') {
    // "by category": how the people split, shown as the pie.
    return categoryWords.has(lowerAt(tokens, i) ?? '')
      ? { value: 'category_chart', next: i + 1 }
      : undefined;
  }
  if (!led && categoryWords.has(first) && formatAt(tokens, at + 1)?.format === 'chart') {
    return { value: 'category_chart', next: at + 2 };
  }
  const found = formatAt(tokens, i);
  if (found === undefined) return undefined;
  let { format } = found;
  let next = i + 1;
  if (format === 'chart' || format === 'category_chart') {
    // "bar chart", "pie graph", "chart categories", "chart by category", "chart of categories".
    if (!found.strong && formatAt(tokens, next)?.format === 'chart') next++;
    // "chart by category", "pie chart of categories".
    const joined = lowerAt(tokens, next);
    const by = joined === 'by' || joined === 'of' ? next + 1 : next;
    if (categoryWords.has(lowerAt(tokens, by) ?? '')) {
      format = 'category_chart';
      next = by + 1;
    }
  } else if (format === 'export') {
    // "csv export", "export to excel", "download as a csv file".
    for (;;) {
      const joined = ['to', 'as', 'in'].includes(lowerAt(tokens, next) ?? '') ? next + 1 : next;
      const word = articles.has(lowerAt(tokens, joined) ?? '') ? joined + 1 : joined;
      if (formatAt(tokens, word)?.format === 'export') next = word + 1;
      else if (exportTails.has(lowerAt(tokens, next) ?? '')) next++;
      else break;
    }
  }
  // An everyday word alone is left to the vocabulary, which reads it only apart from a phrase.
  if (!found.strong && !led && next === i + 1) return undefined;
  return { value: format, next };
};
