/**
 * How a command grammar reads a token stream. A grammar is a list of clause matchers (time
 * window, zone, top, and for digests a schedule); everything between clauses is database items.
 * Anything that is neither is reported, never dropped.
 */
import {
  type DatabaseItem,
  type DatabaseToken,
  isBareNumber,
  readDatabaseToken,
} from './databases.ts';
import { parseErrors } from './messages/lookup.ts';
import { isReservedWord } from './reserved.ts';
import { fragmentOf, type Token } from './tokens.ts';

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
export type Matcher<T> = (tokens: readonly Token[], at: number) => Match<T> | undefined;

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
}

export interface CommandScan<M> {
  /** Clauses in the order they appear. */
  readonly clauses: readonly ClauseHit<M>[];
  /** Database items in the order they appear, duplicates not yet dropped. */
  readonly databases: readonly DatabaseItem[];
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
  let phraseStart = -1;
  // The first of the numbers that follow the phrase's last word: they join it only if a word does.
  let numbersFrom = -1;
  const endPhrase = (end: number): void => {
    if (phraseStart === -1) return;
    const wordsEnd = numbersFrom === -1 ? end : numbersFrom;
    const words = tokens.slice(phraseStart, wordsEnd).map((t) => t.text);
    for (let i = phraseStart; i < wordsEnd; i++) {
      const word = (tokens[i] as Token).text;
      if (isReservedWord(word) || (word.toLowerCase() === 'and' && startsTime(tokens[i + 1]))) {
        const fragment = fragmentOf(text, tokens, phraseStart, wordsEnd);
        throw parseErrors.reservedInPhrase(fragment, word, quotedExample(words.join(' ')));
      }
    }
    databases.push({
      name: words.join(' '),
      fragment: fragmentOf(text, tokens, phraseStart, wordsEnd),
      from: (tokens[phraseStart] as Token).from,
      plain: true,
    });
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
  scan: while (at < tokens.length) {
    for (const [kind, matcher] of matchers) {
      const match = matcher(tokens, at);
      if (match !== undefined) {
        endPhrase(at);
        const fragment = fragmentOf(text, tokens, at, match.next);
        const from = (tokens[at] as Token).from;
        hits.push({ kind, value: match.value, fragment, from } as ClauseHit<M>);
        at = match.next;
        afterItem = false;
        continue scan;
      }
    }
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
        endPhrase(at);
        break;
      case 'item':
        if (phraseStart !== -1 && isBareNumber(token)) {
          if (numbersFrom === -1) numbersFrom = at;
          break;
        }
        endPhrase(at);
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
  return { clauses: hits, databases };
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
