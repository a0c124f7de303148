/**
 * Database items (the spec's `databases` parameter) as people write them: `#hashtag`, a phrase,
 * a numeric ID, `group:<id or name>`.
 */
import { databaseHints, parseErrors } from './messages/lookup.ts';
import type { Token } from './tokens.ts';

export interface DatabaseItem {
  /** The item as sent to the service: `#hcsm`, `patient safety`, `4711`, `group:Rare Diseases`. */
  readonly name: string;
  /** As typed, for messages. */
  readonly fragment: string;
  /** Where the item starts in the normalised text, so a grammar can check the order of parts. */
  readonly from: number;
  /**
   * Unquoted words or a bare number, which only their place makes a database; hashtags, quoted
   * phrases and groups are databases wherever they stand.
   */
  readonly plain: boolean;
  /** A phrase a separator (`,`, `and`, `or`) sets beside another database: listed as one. */
  readonly joined?: true;
}

/** What one token contributes to the database list. */
export type DatabaseToken =
  | { readonly kind: 'item'; readonly name: string }
  /** A plain word: consecutive ones form one phrase. */
  | { readonly kind: 'word' }
  | { readonly kind: 'separator' }
  | { readonly kind: 'invalid'; readonly hint: string };

const hashtag = /^#[\p{L}\p{M}\p{N}_]+$/u;
const numericId = /^\d+$/;
const hasLetterOrDigit = /[\p{L}\p{N}]/u;
const groupPrefix = /^group:/i;

/**
 * Classifies a token no clause claimed. Hashtags (letters with their combining marks, digits,
 * underscores: `#स्वास्थ्य`) keep their `#` and case; `group:` is matched in
 * any case and written lower-case; a bare number is an ID.
 */
export function readDatabaseToken(token: Token): DatabaseToken {
  if (token.kind === 'comma') return { kind: 'separator' };
  if (token.kind === 'dash') {
    return { kind: 'invalid', hint: databaseHints.dash };
  }
  if (token.kind === 'quoted') {
    const prefix = token.prefix;
    if (prefix !== undefined && !groupPrefix.test(prefix)) {
      return { kind: 'invalid', hint: databaseHints.prefixedQuote };
    }
    if (token.text === '') return { kind: 'invalid', hint: databaseHints.emptyQuotes };
    return { kind: 'item', name: prefix === undefined ? token.text : `group:${token.text}` };
  }
  const text = token.text;
  if (text.startsWith('#')) {
    return hashtag.test(text)
      ? { kind: 'item', name: text }
      : { kind: 'invalid', hint: databaseHints.hashtag };
  }
  if (groupPrefix.test(text)) {
    const name = text.slice('group:'.length);
    return hasLetterOrDigit.test(name)
      ? { kind: 'item', name: `group:${name}` }
      : { kind: 'invalid', hint: databaseHints.emptyGroup };
  }
  if (numericId.test(text)) return { kind: 'item', name: text };
  if (text.startsWith('<')) {
    return {
      kind: 'invalid',
      hint: text.startsWith('<#') ? databaseHints.unnamedChannel : databaseHints.mention,
    };
  }
  if (!hasLetterOrDigit.test(text)) return { kind: 'invalid', hint: databaseHints.noWord };
  return { kind: 'word' };
}

/** An unquoted run of digits: a numeric ID on its own, a word inside a phrase. */
export function isBareNumber(token: Token): boolean {
  return token.kind === 'word' && numericId.test(token.text);
}

const yearShaped = /^(19|20)\d\d$/;

/**
 * The items in order with exact duplicates dropped.
 * @throws ParseError `too_many_databases` beyond `max`, naming the first item over the limit, and
 *   `bad_time` for a lone unquoted number that can be a year (`2026`): the year, or database 2026?
 */
export function uniqueDatabases(items: readonly DatabaseItem[], max: number): string[] {
  // "#hcsm 2026": a year or database 2026? Asked, not guessed; quotes make it the ID.
  const year = items.find((item) => item.plain && yearShaped.test(item.name));
  if (year !== undefined) throw parseErrors.yearOrId(year.fragment);
  const names: string[] = [];
  const seen = new Set<string>();
  let firstExtra: string | undefined;
  for (const item of items) {
    if (seen.has(item.name)) continue;
    seen.add(item.name);
    names.push(item.name);
    if (names.length === max + 1) firstExtra = item.fragment;
  }
  if (firstExtra !== undefined) throw parseErrors.tooManyDatabases(names.length, max, firstExtra);
  return names;
}
