/**
 * How a command grammar reads a token stream. A grammar is a list of clause matchers (time
 * window, zone, top, and for digests a schedule); everything between clauses is database items.
 * Anything that is neither is reported, never dropped.
 */

import type { ParseError } from '../errors.ts';
import {
  type DatabaseItem,
  type DatabaseToken,
  isBareNumber,
  readDatabaseToken,
} from './databases.ts';
import { parseErrors } from './messages/lookup.ts';
import { vocabularyErrors } from './messages/vocabulary.ts';
import { isReservedWord } from './reserved.ts';
import { fragmentOf, type Token } from './tokens.ts';
import { meaningOfTyped, phraseFillers, trailingFillers } from './vocabulary.ts';

/** A clause found at a position: its value and the index of the first token after it. */
export interface Match<T> {
  readonly value: T;
  readonly next: number;
}

/**
 * Tries to read one clause starting at `tokens[at]`. Returns `undefined` when the tokens there are
 * not this clause (the grammar then tries the next matcher); throws a ParseError when they clearly
 * are this clause but are wrong (`top 0`, `tz Mars/Base`, `2026-13-45`).
 */
export type Matcher<T> = (
  tokens: readonly Token[],
  at: number,
  scan?: ScanPosition,
) => Match<T> | undefined;

/** What the scan knows of the tokens before a position, for matchers that look back. */
export interface ScanPosition {
  /** The token before was read as part of a clause (`last week`, `in Boston`), not a phrase. */
  readonly afterClause: boolean;
}

/** One matcher per clause kind; tried in the object's key order at every position. */
export type Clauses<M> = { readonly [K in keyof M]: Matcher<M[K]> };

export type ClauseHit<M> = {
  readonly [K in keyof M]: {
    readonly kind: K;
    readonly value: M[K];
    /** The clause as typed, for messages. */
    readonly fragment: string;
    /** Where the clause starts in the text. */
    readonly from: number;
  };
}[keyof M];

export interface ScanOptions {
  /** The arguments of a working command that names `phrase` in quotes, for the reserved-word error. */
  readonly quotedExample?: (phrase: string) => string;
  /**
   * Report a phrase holding a word of the grammar in `unread` rather than throw: the lookup, once
   * it knows what else was read, leaves it out or refuses it.
   */
  readonly deferReserved?: boolean;
}

/** A phrase holding a word of the grammar that no clause could read (`over Thanksgiving`). */
export interface UnreadPhrase {
  readonly fragment: string;
  /** The refusal the scan would have thrown. */
  readonly error: ParseError;
}

export interface CommandScan<M> {
  /** Clauses in the order they appear. */
  readonly clauses: readonly ClauseHit<M>[];
  /** Database items in the order they appear, duplicates not yet dropped. */
  readonly databases: readonly DatabaseItem[];
  /** With `deferReserved`: the phrases that hold a word of the grammar, in order. */
  readonly unread: readonly UnreadPhrase[];
}

/**
 * Reads a whole command: clauses where a matcher recognises one, database items elsewhere.
 * Consecutive plain words that no matcher claims form one phrase item. A bare number between two
 * words of a phrase belongs to it (`type 2 diabetes`, `covid 19 vaccine`); one at either edge of
 * a phrase (`cancer 4711`, `4711 cancer`, `type 2 last week`) stays a numeric ID, as does one
 * standing alone; quotes (`"type 2"`) keep it in the phrase. Throws the first ParseError met,
 * including `unrecognised` for a token that is neither.
 *
 * An unquoted phrase may not hold a word the grammars keep for times, ranges, schedules or options
 * (`reserved.ts`): one left over means the clause it belongs to could not be read, so the phrase
 * is refused, quoting it, rather than looked up as a database. `and` counts only before a time
 * word (`9am and 5pm`). `and`, `or`, `&` and `+` between databases separate them (see `joinerAt`).
 */
export function scanCommand<M>(
  text: string,
  tokens: readonly Token[],
  clauses: Clauses<M>,
  options: ScanOptions = {},
): CommandScan<M> {
  const quotedExample = options.quotedExample ?? ((phrase) => `"${phrase}" last week`);
  const matchers = Object.entries(clauses) as [keyof M & string, Matcher<unknown>][];
  const hits: ClauseHit<M>[] = [];
  const databases: DatabaseItem[] = [];
  const unread: UnreadPhrase[] = [];
  let phraseStart = -1;
  // The first of the numbers that follow the phrase's last word: they join it only if a word does.
  let numbersFrom = -1;
  // The index of the last separator (`,`, `and` between databases): a phrase beside one is listed.
  let separatorAt = -2;
  const endPhrase = (end: number, separated = false): void => {
    if (phraseStart === -1) return;
    const joined = separated || separatorAt === phraseStart - 1;
    const wordsEnd = numbersFrom === -1 ? end : numbersFrom;
    // Only fillers (`top influencers`, `for`, `please`, an `and` between two options): nothing to
    // look up, nothing misread.
    const fillers = tokens
      .slice(phraseStart, wordsEnd)
      .every(
        (token, i) =>
          isFiller(token.text) ||
          (joinerWords.has(token.lower) &&
            tokens[phraseStart + i + 1] !== undefined &&
            !startsTime(tokens[phraseStart + i + 1])),
      );
    for (let i = phraseStart; i < wordsEnd && !fillers; i++) {
      const word = (tokens[i] as Token).text;
      if (isReservedWord(word) || (word.toLowerCase() === 'and' && startsTime(tokens[i + 1]))) {
        const fragment = fragmentOf(text, tokens, phraseStart, wordsEnd);
        const words = tokens.slice(phraseStart, wordsEnd).map((t) => t.text);
        const error = parseErrors.reservedInPhrase(fragment, word, quotedExample(words.join(' ')));
        // "9am and 5pm": the range's own joiner, refused where it stands.
        if (options.deferReserved !== true || word.toLowerCase() === 'and') throw error;
        unread.push({ fragment: fragmentOf(text, tokens, phraseStart, end), error });
        phraseStart = -1;
        numbersFrom = -1;
        return;
      }
    }
    const kept = fillers ? undefined : keptWords(text, tokens, phraseStart, wordsEnd);
    if (kept !== undefined) {
      databases.push({
        name: tokens
          .slice(kept.from, kept.to)
          .map((t) => t.text)
          .join(' '),
        fragment: fragmentOf(text, tokens, kept.from, kept.to),
        from: (tokens[kept.from] as Token).from,
        plain: true,
        ...(joined ? { joined: true } : {}),
      });
    }
    for (let i = wordsEnd; i < end; i++) {
      const token = tokens[i] as Token;
      databases.push({
        name: token.text,
        fragment: fragmentOf(text, tokens, i, i + 1),
        from: token.from,
        plain: true,
      });
    }
    phraseStart = -1;
    numbersFrom = -1;
  };

  let at = 0;
  // The token before held a database item of its own, so a joiner after it separates.
  let afterItem = false;
  const position = { afterClause: false };
  scan: while (at < tokens.length) {
    for (const [kind, matcher] of matchers) {
      const match = matcher(tokens, at, position);
      if (match !== undefined) {
        endPhrase(at);
        const fragment = fragmentOf(text, tokens, at, match.next);
        const from = (tokens[at] as Token).from;
        hits.push({ kind, value: match.value, fragment, from } as ClauseHit<M>);
        at = match.next;
        afterItem = false;
        position.afterClause = true;
        continue scan;
      }
    }
    position.afterClause = false;
    const token = tokens[at] as Token;
    const joiner = joinerAt(tokens, at, afterItem);
    const read: DatabaseToken = joiner ? { kind: 'separator' } : readDatabaseToken(token);
    afterItem = false;
    switch (read.kind) {
      case 'word':
        if (phraseStart === -1) phraseStart = at;
        numbersFrom = -1;
        break;
      case 'separator':
        endPhrase(at, true);
        separatorAt = at;
        break;
      case 'item':
        if (phraseStart !== -1 && isBareNumber(token)) {
          if (numbersFrom === -1) numbersFrom = at;
          break;
        }
        endPhrase(at);
        // "#hcsm, 2 diabetes": an ID after a separator leaves the phrase after it listed too.
        if (isBareNumber(token) && separatorAt === at - 1) separatorAt = at;
        refuseUnquotedGroup(text, tokens, at);
        databases.push({
          name: read.name,
          fragment: fragmentOf(text, tokens, at, at + 1),
          from: token.from,
          plain: isBareNumber(token),
        });
        afterItem = true;
        break;
      case 'invalid':
        throw parseErrors.unrecognised(fragmentOf(text, tokens, at, at + 1), read.hint);
    }
    at++;
  }
  endPhrase(tokens.length);
  return { clauses: hits, databases, unread };
}

/** A filler or politeness word: left out of phrases, even where the grammar reserves it (`for`). */
function isFiller(word: string): boolean {
  const kind = meaningOfTyped(word)?.kind;
  return kind === 'filler' || kind === 'politeness';
}

/**
 * The words of the phrase from `from` to `to` that name a database: without politeness at either
 * edge (`breast cancer please`) and the question's nouns at its end (`breast cancer influencers`);
 * undefined when only fillers are left (`top influencers`, `for`, `the`).
 * @throws ParseError when another word the vocabulary knows stands among them (`excel training`,
 *   `breast cancer excel`): such a phrase is a database only in quotes.
 */
function keptWords(
  text: string,
  tokens: readonly Token[],
  from: number,
  to: number,
): { from: number; to: number } | undefined {
  const lower = (i: number): string => (tokens[i] as Token).lower;
  const politeness = (i: number): boolean =>
    meaningOfTyped((tokens[i] as Token).text)?.kind === 'politeness';
  let first = from;
  let last = to;
  while (first < last && politeness(first)) first++;
  while (last > first && (politeness(last - 1) || trailingFillers.has(lower(last - 1)))) last--;
  let content = false;
  for (let i = first; i < last; i++) {
    const word = (tokens[i] as Token).text;
    const meaning = meaningOfTyped(word);
    if (meaning === undefined) {
      content = true;
      continue;
    }
    if (meaning.kind === 'filler' && phraseFillers.has(lower(i))) continue;
    const readable = meaning.kind === 'metric' || meaning.kind === 'format';
    const apart =
      readable && i === last - 1 && i > first ? fragmentOf(text, tokens, first, i) : undefined;
    throw vocabularyErrors.wordInPhrase(
      fragmentOf(text, tokens, first, last),
      word,
      meaning,
      apart,
    );
  }
  return content ? { from: first, to: last } : undefined;
}

/**
 * `group:Digital Health`: a group's name of several words reads only its first without quotes,
 * and the rest would become a database of its own.
 * @throws ParseError when words of a phrase follow an unquoted `group:<name>`.
 */
function refuseUnquotedGroup(text: string, tokens: readonly Token[], at: number): void {
  const token = tokens[at] as Token;
  if (token.kind !== 'word' || !/^group:/i.test(token.text)) return;
  let end = at + 1;
  while (isNameWord(tokens[end])) end++;
  if (end === at + 1) return;
  const name = fragmentOf(text, tokens, at, end).slice('group:'.length);
  throw parseErrors.unquotedGroup(fragmentOf(text, tokens, at, end), name);
}

/** A plain word that can continue a name: no mark, no number, no word the grammar knows. */
function isNameWord(token: Token | undefined): boolean {
  return (
    token?.kind === 'word' &&
    /^\p{L}/u.test(token.text) &&
    !/^group:/i.test(token.text) &&
    !isReservedWord(token.text) &&
    meaningOfTyped(token.text) === undefined
  );
}

/** Symbols that only ever join two databases. */
const joinerSymbols: ReadonlySet<string> = new Set(['&', '+']);
/** Words that join two databases when one stands on either side, and are words of a phrase else. */
const joinerWords: ReadonlySet<string> = new Set(['and', 'or', 'vs', 'versus']);

/**
 * `&`, `+` anywhere, and `and`, `or` right after a database item or right before a hashtag, quoted
 * phrase or group (`#hcsm and #bcsm`, `breast cancer or #bcsm`): a separator, never a database.
 * Between two plain words (`diet and exercise`) `and` stays a word of the phrase.
 */
function joinerAt(tokens: readonly Token[], at: number, afterItem: boolean): boolean {
  const token = tokens[at] as Token;
  if (token.kind !== 'word') return false;
  if (joinerSymbols.has(token.text)) return true;
  if (!joinerWords.has(token.lower)) return false;
  const next = tokens[at + 1];
  if (afterItem) return true;
  if (next === undefined || next.kind === 'comma' || next.kind === 'dash') return false;
  return readDatabaseToken(next).kind === 'item' && !isBareNumber(next);
}

/** A token after `and` that makes it a range joiner rather than a word of a phrase. */
function startsTime(token: Token | undefined): boolean {
  return token?.kind === 'word' && (isReservedWord(token.text) || /^\d+[:/.-]\d/.test(token.text));
}
