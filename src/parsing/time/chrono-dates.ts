/**
 * chrono-node as a last resort for date wordings the grammar does not list ("Sept 9th 2026 at
 * 5 in the afternoon", "09 Sep 2026 14:05:00 GMT"). Only the parts chrono is certain of are kept;
 * anything it would imply (year, zone, time) is left to our own rules, so past bias and the
 * user's zone still decide. Never reached for the common phrasings, which keeps parsing fast.
 */
import { casual, type ParsedResult } from 'chrono-node/en';
import type { Match } from '../grammar.ts';
import { type Token, tokensText } from '../tokens.ts';
import type { Moment } from './ast.ts';
import { months, rangeSeparators } from './vocabulary.ts';

/** Words that end the stretch of text offered to chrono: they belong to the surrounding grammar. */
const stopWords = new Set([
  ...rangeSeparators,
  'and',
  'from',
  'since',
  'between',
  'tz',
  'timezone',
  'top',
  'limit',
  'ago',
  'last',
  'past',
  'this',
  'next',
]);
const maxTokens = 8;
/** Any fixed date works: only the components chrono is certain of are used. */
const reference = new Date(Date.UTC(2000, 0, 1));

/**
 * chrono's readings by text. A reading depends on the text alone (the reference is fixed), the
 * same stretches come back command after command (`type 2 diabetes`, an ID), and one reading
 * costs more than all the rest of a command. Bounded: cleared when full.
 */
const readings = new Map<string, ParsedResult | undefined>();
const maxReadings = 1_000;

function chronoReading(text: string): ParsedResult | undefined {
  if (readings.has(text)) return readings.get(text);
  const [result] = casual.parse(text, reference, { forwardDate: false });
  if (readings.size >= maxReadings) readings.clear();
  readings.set(text, result);
  return result;
}

/**
 * Reads a date chrono is certain of (month and day at least) from the tokens at `at`, where the
 * grammar found nothing. Only tried when the first token starts with a digit or a month name.
 */
export function matchChronoDate(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const first = tokens[at];
  if (first?.kind !== 'word') return undefined;
  if (!/^\d/.test(first.lower) && !months.has(first.lower.replace(/\.$/, ''))) return undefined;
  // Numeric shapes are ours alone: chrono would read an ambiguous 01.09.2026 as January 9.
  if (/^\d+[./:-]\d/.test(first.lower)) return undefined;
  let end = at;
  while (end < tokens.length && end - at < maxTokens) {
    const token = tokens[end] as Token;
    if (token.kind === 'quoted' || token.kind === 'dash') break;
    if (token.kind === 'word' && (stopWords.has(token.lower) || token.text.startsWith('#'))) break;
    end++;
  }
  const text = tokensText(tokens, at, end);
  const result = chronoReading(text);
  // A range chrono found (`9am-5pm`) is not a date: taking its start alone would drop the end.
  if (result === undefined || result.index !== 0 || result.end !== undefined) return undefined;
  const start = result.start;
  if (!start.isCertain('month') || !start.isCertain('day')) return undefined;
  let next = -1;
  for (let i = at + 1; i <= end; i++) {
    if (tokensText(tokens, at, i) === result.text) next = i;
  }
  if (next === -1) return undefined;

  const month = start.get('month') as number;
  const day = start.get('day') as number;
  const year = start.isCertain('year') ? (start.get('year') ?? undefined) : undefined;
  const date = { kind: 'ymd', year, month, day } as const;
  if (!start.isCertain('hour')) return { value: { kind: 'day', date }, next };
  const time = {
    hour: start.get('hour') ?? 0,
    minute: start.isCertain('minute') ? (start.get('minute') ?? 0) : 0,
    second: start.isCertain('second') ? (start.get('second') ?? 0) : 0,
  };
  const offset = start.isCertain('timezoneOffset') ? start.get('timezoneOffset') : null;
  if (offset !== null && offset !== undefined && year !== undefined) {
    const utc = Date.UTC(year, month - 1, day, time.hour, time.minute, time.second);
    return { value: { kind: 'instant', epochSeconds: utc / 1000 - offset * 60 }, next };
  }
  return { value: { kind: 'local', date, time }, next };
}
