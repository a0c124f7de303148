/**
 * Catches time words that did not parse, so `#hcsm yesterdy` is an error naming `yesterdy`
 * instead of a silent lookup of a phrase database called "yesterdy".
 */
import type { Matcher } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { lowerAt, tokensText } from '../tokens.ts';
import { misspellableUnits, misspellableWords, months } from './vocabulary.ts';

const relativeWords = ['last', 'past', 'this', 'next'];
/** Digits joined by date or time punctuation: `2026-13-45`, `32/11/26`, `01.09.2026`, `25:00`. */
const dateShaped = /^\d+([./:-]\d+)+([ap]\.?m\.?|[tz].*)?$/i;
const clockShaped = /^\d+([ap]\.?m\.?)$/i;
/**
 * The numeric shapes the grammar reads (ISO dates and date-times, US dates, clock times), so a
 * date-shaped token of another shape (`01.09.2026`, `1-8 Sep`) is called unsupported rather than
 * impossible.
 */
const supportedShape =
  /^(\d{4}[-/]\d{1,2}[-/]\d{1,2}(t.*)?|\d{1,2}\/\d{1,2}(\/\d{2}|\/\d{4})?|\d{1,2}:\d{2}(:\d{2})?([ap]\.?m\.?)?)$/i;

/**
 * Tried after the time grammar at each position: throws `bad_time` when the token there looks
 * like a time that failed (a date-shaped token, a misspelt day or month name, a misspelt unit
 * after last/past/this/next, anything before `ago`), and otherwise claims nothing.
 */
export const rejectMisspeltTime: Matcher<never> = (tokens, at) => {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const word = token.lower;
  if (word === 'ago') throw parseErrors.badTime(tokensText(tokens, Math.max(0, at - 2), at + 1));
  if (dateShaped.test(word) && !supportedShape.test(word)) {
    const month = months.has(lowerAt(tokens, at + 1) ?? '');
    throw parseErrors.unsupportedDate(tokensText(tokens, at, month ? at + 2 : at + 1));
  }
  if (dateShaped.test(word) || clockShaped.test(word)) throw parseErrors.invalidDate(token.text);
  if (word.length >= 5 && isMisspelling(word, misspellableWords))
    throw parseErrors.badTime(token.text);
  const next = tokens[at + 1];
  if (
    next?.kind === 'word' &&
    next.lower.length >= 3 &&
    (relativeWords.includes(word) || isMisspelling(word, relativeWords)) &&
    (misspellableUnits.includes(next.lower) || isMisspelling(next.lower, misspellableUnits))
  ) {
    throw parseErrors.badTime(tokensText(tokens, at, at + 2));
  }
  return undefined;
};

/** Within one edit (two for long words) of a keyword, and not that keyword or its plural. */
function isMisspelling(word: string, keywords: readonly string[]): boolean {
  for (const keyword of keywords) {
    if (word === keyword || word === `${keyword}s`) return false;
  }
  for (const keyword of keywords) {
    const allowed = keyword.length >= 8 ? 2 : 1;
    if (
      Math.abs(word.length - keyword.length) <= allowed &&
      editDistance(word, keyword, allowed) <= allowed
    ) {
      return true;
    }
  }
  return false;
}

/** Optimal string alignment distance (adjacent swaps count one), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(
        (d[(i - 1) * cols + j] as number) + 1,
        (d[i * cols + j - 1] as number) + 1,
        (d[(i - 1) * cols + j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (d[(i - 2) * cols + j - 2] as number) + 1);
      }
      d[i * cols + j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > limit) return limit + 1;
  }
  return d[rows * cols - 1] as number;
}
