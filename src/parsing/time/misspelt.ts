/**
 * Catches time words that did not parse, so `#hcsm yesterdy` is an error naming `yesterdy`
 * instead of a silent lookup of a phrase database called "yesterdy".
 */

import { distance } from 'fastest-levenshtein';
import type { Matcher } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { perWord } from '../per-word.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import { misspellableUnits, misspellableWords, months, units } from './vocabulary.ts';

const relativeWords = ['last', 'past', 'this', 'next'];
const lettersOnly = /^[a-z]+$/;
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
 * after last/past/this/next or a count, anything before `ago`), with the words as they were most
 * likely meant when they are near one (`lst week`: did you mean `last week`?), and `bad_top` or
 * `unknown_zone` for a misspelt `top N` or `timezone <zone>`; otherwise it claims nothing.
 */
export const rejectMisspeltTime: Matcher<never> = (tokens, at) => {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const word = token.lower;
  if (word === 'ago') {
    const from = Math.max(0, at - 2);
    const fragment = tokensText(tokens, from, at + 1);
    const unit = lowerAt(tokens, at - 1);
    const meant = unit === undefined ? undefined : nearest(unit, unitWords);
    if (meant === undefined || at < 2) throw parseErrors.badTime(fragment);
    throw parseErrors.didYouMean(fragment, `${tokensText(tokens, from, at - 1)} ${meant} ago`);
  }
  if (dateShaped.test(word) && !supportedShape.test(word)) {
    const month = months.has(lowerAt(tokens, at + 1) ?? '');
    throw parseErrors.unsupportedDate(tokensText(tokens, at, month ? at + 2 : at + 1));
  }
  if (dateShaped.test(word) || clockShaped.test(word)) throw parseErrors.invalidDate(token.text);
  // Keywords are letters only: a hashtag, a number or an id is no slip of one.
  if (!lettersOnly.test(word)) return undefined;
  if (word.length >= 5) {
    const meant = nearest(word, misspellableWords);
    if (meant !== undefined) throw parseErrors.didYouMean(token.text, meant);
  }
  rejectMisspeltOption(tokens, at);
  const count = lowerAt(tokens, at + 1);
  const unitAt = count !== undefined && /^\d{1,6}$/.test(count) ? at + 2 : at + 1;
  const next = tokens[unitAt];
  if (next?.kind !== 'word' || next.lower.length < 3) return undefined;
  const relative = relativeWords.includes(word) ? word : nearest(word, relativeWords);
  if (relative === undefined) return undefined;
  const unit = misspellableUnits.includes(next.lower)
    ? next.lower
    : (soundSlips.get(next.lower) ?? nearest(next.lower, unitWords));
  if (unit === undefined || (relative === word && unit === next.lower)) return undefined;
  const counted = unitAt === at + 2 ? ` ${count}` : '';
  throw parseErrors.didYouMean(tokensText(tokens, at, unitAt + 1), `${relative}${counted} ${unit}`);
};

/** `tpo 10`, `limt 5`, `timezon Europe/Paris`: an option keyword one slip away, before its value. */
function rejectMisspeltOption(tokens: readonly Token[], at: number): void {
  const word = lowerAt(tokens, at) ?? '';
  const value = tokens[at + 1];
  if (word.length < 3 || value?.kind !== 'word') return;
  const meant = nearest(word, optionWords);
  if (meant === undefined) return;
  const fragment = tokensText(tokens, at, at + 2);
  if (meant === 'timezone') {
    throw parseErrors.didYouMean(fragment, `${meant} ${value.text}`, 'unknown_zone');
  }
  if (/^\d{1,3}$/.test(value.lower)) {
    throw parseErrors.didYouMean(fragment, `${meant} ${value.text}`, 'bad_top');
  }
}

const optionWords = ['top', 'limit', 'timezone'];
/** Units spelled as they sound, too far from the word for an edit to find (`fortnite`). */
const soundSlips: ReadonlyMap<string, string> = new Map([
  ['fortnite', 'fortnight'],
  ['fortnit', 'fortnight'],
  ['minits', 'minutes'],
]);
/** Unit words a slip in can be corrected to (`wekks` -> `weeks`). */
const unitWords: readonly string[] = [
  ...[...units.keys()].filter((unit) => unit.length >= 3),
  'fortnight',
];

/**
 * The keyword `word` is a slip of: within one edit (two for words of 8 letters or more) or one
 * swap of two neighbouring letters; undefined for the keyword itself, its plural, or anything
 * farther. The first keyword that near wins, so lists put the likelier words first.
 */
export function nearest(word: string, keywords: readonly string[]): string | undefined {
  let near = nearestIn.get(keywords);
  if (near === undefined) {
    near = perWord((typed) => nearestAmong(typed, keywords));
    nearestIn.set(keywords, near);
  }
  return near(word);
}

/**
 * {@link nearest}, kept per list and word: every word of a command is measured against the time
 * words, the units and the options' keywords, one edit distance each.
 */
const nearestIn = new WeakMap<readonly string[], (word: string) => string | undefined>();

function nearestAmong(word: string, keywords: readonly string[]): string | undefined {
  for (const keyword of keywords) {
    if (word === keyword) return undefined;
    const plural = word.length === keyword.length + 1 && word.endsWith('s');
    if (plural && word.startsWith(keyword)) return undefined;
  }
  return keywords.find((keyword) => isSlipOf(word, keyword));
}

/** Within one edit of `keyword` (two from 8 letters on), or one swap of neighbouring letters. */
export function isSlipOf(word: string, keyword: string): boolean {
  const allowed = keyword.length >= 8 ? 2 : 1;
  if (Math.abs(word.length - keyword.length) > allowed) return false;
  return distance(word, keyword) <= allowed || isSwap(word, keyword);
}

/** `lsat` for `last`: the same letters with two neighbours swapped. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first !== -1) {
      return (
        i === first + 1 &&
        a[first] === b[i] &&
        a[i] === b[first] &&
        a.slice(i + 1) === b.slice(i + 1)
      );
    }
    first = i;
  }
  return false;
}
