/**
 * The tokenizer shared by every command grammar. Tokens keep their place in the text so an error
 * can quote exactly what the person wrote.
 */
import { parseErrors } from './messages/lookup.ts';
import { isReservedWord } from './reserved.ts';

/**
 * - `word`: a run of characters between spaces, commas, quotes and dashes; `lower` is for keyword
 *   matching, `text` keeps the case for names.
 * - `quoted`: the inside of `"..."` or of `'...'`, whitespace collapsed; `prefix` holds a glued
 *   `group:` (or `group` before a quote, read as `group:`).
 * - `comma`, `dash` (a lone `-`, or any `–` `—`): separators the grammars give meaning to.
 */
export type TokenKind = 'word' | 'quoted' | 'comma' | 'dash';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly lower: string;
  /** For `group:"Rare Diseases"`: `group:` (as typed); the text is then `Rare Diseases`. */
  readonly prefix?: string;
  /** Offsets in the normalised text, end exclusive. */
  readonly from: number;
  readonly to: number;
}

/**
 * The lower-cased word at `i`, for keyword matching; undefined for a quote, a comma, a dash or past
 * the end, so a quoted `"last week"` never reads as a keyword.
 */
export function lowerAt(tokens: readonly Token[], i: number): string | undefined {
  const token = tokens[i];
  return token?.kind === 'word' ? token.lower : undefined;
}

const isSpace = (c: string): boolean => c === ' ';
/**
 * Ends a sentence, a question or a clause (`#hcsm last week; DROP …`): ignored at the end of a
 * word or after a quote; what follows a `;` is the slots' to read (`slots.ts`).
 */
const isClosingPunctuation = (c: string): boolean =>
  c === '?' || c === '.' || c === '!' || c === ';';
const hasLetterOrDigit = /[\p{L}\p{N}]/u;
const isBreak = (c: string): boolean =>
  c === ' ' || c === ',' || c === '"' || c === '\u2013' || c === '\u2014';

/**
 * Splits normalised text (see `normaliseSlackText`) into tokens. `?`, `.` and `!` at the end of a
 * word or right after a closing quote end nothing (`#hcsm last week?`, `"breast cancer"!`) and are
 * left out; a word made only of them (`???`) stays, for the grammar to report.
 * @throws ParseError `unrecognised` when a quote is never closed: guessing where the phrase ends
 *   would silently swallow the rest of the command.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (isSpace(c)) {
      i++;
    } else if (c === ',') {
      tokens.push(token('comma', ',', i, i + 1));
      i++;
    } else if (c === '\u2013' || c === '\u2014') {
      tokens.push(token('dash', c, i, i + 1));
      i++;
    } else if (c === '"' || (c === "'" && closingSingleQuote(text, i) !== -1)) {
      const close = c === '"' ? closingQuote(text, i) : closingSingleQuote(text, i);
      tokens.push(token('quoted', collapse(text.slice(i + 1, close)), i, close + 1));
      i = skipClosingPunctuation(text, close + 1);
    } else {
      const start = i;
      while (i < text.length && !isBreak(text.charAt(i))) i++;
      const word = text.slice(start, i);
      // `group "Patient Advocates"`: the group, with a space where the colon goes.
      const open = /^group$/i.test(word) ? quoteAfterSpaces(text, i) : -1;
      if ((word.endsWith(':') && text.charAt(i) === '"') || open !== -1) {
        const from = open === -1 ? i : open;
        const close = closingQuote(text, from);
        tokens.push({
          ...token('quoted', collapse(text.slice(from + 1, close)), start, close + 1),
          prefix: open === -1 ? word : `${word}:`,
        });
        i = skipClosingPunctuation(text, close + 1);
      } else {
        let end = i;
        while (end > start && isClosingPunctuation(text.charAt(end - 1))) end--;
        if (end === i || !hasLetterOrDigit.test(text.slice(start, end))) end = i;
        end = withoutTrail(text, start, end);
        const kept = text.slice(start, end);
        tokens.push(token(kept === '-' ? 'dash' : 'word', wordAsMeant(kept), start, end));
      }
    }
  }
  return tokens;
}

/**
 * Where a word ends without what people add to it in a sentence: a colon after a hashtag
 * (`#hcsm: last week`) and a possessive after a time word (`last week's`).
 */
function withoutTrail(text: string, start: number, end: number): number {
  const word = text.slice(start, end);
  if (word.startsWith('#') && /[:;]$/.test(word) && word.length > 2) return end - 1;
  if (/'s$/i.test(word) && isReservedWord(word.slice(0, -2))) return end - 2;
  return end;
}

const profileUrl =
  /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/([A-Za-z0-9_]{1,15})\/?$/i;

/**
 * A word as the grammar reads it: a hashtag in full-width letters (`#ｈｃｓｍ`, typed with an East
 * Asian keyboard) is the hashtag, and a profile's address (`https://x.com/DrFerreiraI`) its
 * handle. Offsets stay those of the text typed, so errors quote what the person wrote.
 */
function wordAsMeant(word: string): string {
  if (word.startsWith('#') || word.startsWith('\uff03')) {
    return /^[\x21-\x7e]*$/.test(word) ? word : word.normalize('NFKC');
  }
  if (!word.includes('.com/')) return word;
  const handle = profileUrl.exec(word)?.[1];
  return handle === undefined ? word : `@${handle}`;
}

/** The text a run of tokens covers, as the person typed it. */
export function fragmentOf(
  text: string,
  tokens: readonly Token[],
  from: number,
  to: number,
): string {
  const first = tokens[from];
  const last = tokens[to - 1];
  if (first === undefined || last === undefined) return '';
  return text.slice(first.from, last.to);
}

function token(kind: TokenKind, text: string, from: number, to: number): Token {
  return { kind, text, lower: text.toLowerCase(), from, to };
}

function closingQuote(text: string, open: number): number {
  const close = text.indexOf('"', open + 1);
  if (close === -1) {
    throw parseErrors.unclosedQuote(text.slice(open));
  }
  return close;
}

/**
 * The most characters a phrase in single quotes spans: a name, never a sentence, and the search
 * for its close stays linear in the text however many apostrophes it holds.
 */
const maxSingleQuoted = 120;

/**
 * Where a phrase in single quotes opened at `open` closes (`'rare disease'`): the first `'` that
 * ends a word, so apostrophes inside stay (`'people's voices'`); -1 when none does, and the `'`
 * is then part of a word.
 */
function closingSingleQuote(text: string, open: number): number {
  const end = Math.min(text.length, open + maxSingleQuoted);
  for (let j = open + 2; j < end; j++) {
    const c = text.charAt(j);
    if (c === '"') return -1;
    if (c !== "'" || text.charAt(j - 1) === ' ') continue;
    const after = text.charAt(j + 1);
    if (after === '' || isBreak(after) || isClosingPunctuation(after)) {
      return hasLetterOrDigit.test(text.slice(open + 1, j)) ? j : -1;
    }
  }
  return -1;
}

/** The `"` after the spaces at `at`, or -1. */
function quoteAfterSpaces(text: string, at: number): number {
  let j = at;
  while (text.charAt(j) === ' ') j++;
  return j > at && text.charAt(j) === '"' ? j : -1;
}

function skipClosingPunctuation(text: string, at: number): number {
  let i = at;
  while (i < text.length && isClosingPunctuation(text.charAt(i))) i++;
  return i;
}

function collapse(text: string): string {
  return text.trim().replace(/ +/g, ' ');
}

/** The tokens as typed, joined by spaces: for messages from matchers, which see no raw text. */
export function tokensText(tokens: readonly Token[], from: number, to: number): string {
  let text = '';
  for (let i = from; i < Math.min(to, tokens.length); i++) {
    const token = tokens[i] as Token;
    const shown = token.kind === 'quoted' ? `"${token.text}"` : token.text;
    text += text === '' || token.kind === 'comma' ? shown : ` ${shown}`;
  }
  return text;
}
