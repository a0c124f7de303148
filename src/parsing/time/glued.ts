/**
 * Ranges typed without spaces round their dash (`Oct 20-Nov 5`, `11/02/2026-11/08/2026`,
 * `1.-15. Oktober`): read as if the dash stood apart, where that reads further than the word did.
 */
import type { Match, Matcher } from '../grammar.ts';
import type { Token } from '../tokens.ts';

/**
 * One dash between two ends: the first ends with a digit or a dot, the second starts with a
 * letter or digit. Forms read whole elsewhere stay whole: ISO dates and weeks (`2026-11-01`,
 * `2026-W46`), days (`1-8`), months (`Jan-Mar`) and times (`8:00-12:00`, `9-17h`).
 */
const gluedRange = /^([^-]*[\d.])-([\p{L}\d][^-]*)$/u;
const readWhole = /^\d{4}-|^\d{1,2}-\d{1,2}$|:|\dh$|[ap]m$/;

/** How far after a reading's start a glued word may stand (`Oct 20-Nov`: the second word). */
const reach = 2;

function splitAt(token: Token | undefined): Token[] | undefined {
  if (token?.kind !== 'word' || !token.text.includes('-') || readWhole.test(token.lower)) {
    return undefined;
  }
  const parts = gluedRange.exec(token.text);
  if (parts === null) return undefined;
  const [first, second] = [parts[1] as string, parts[2] as string];
  const dash = token.from + first.length;
  return [
    { kind: 'word', text: first, lower: first.toLowerCase(), from: token.from, to: dash },
    { kind: 'dash', text: '-', lower: '-', from: dash, to: dash + 1 },
    { kind: 'word', text: second, lower: second.toLowerCase(), from: dash + 1, to: token.to },
  ];
}

/**
 * `read` at `at`, or, when a glued word stands within reach, `read` over the tokens with that
 * word split, if it reads past the word: a reading that ends inside it reads nothing.
 */
export function withGluedRanges<T>(read: Matcher<T>): Matcher<T> {
  return (tokens, at) => {
    for (let i = at; i <= at + reach && i < tokens.length; i++) {
      const split = splitAt(tokens[i]);
      if (split === undefined) continue;
      const spread = [...tokens.slice(0, i), ...split, ...tokens.slice(i + 1)];
      let match: Match<T> | undefined;
      try {
        match = read(spread, at);
      } catch {
        // The split reading fails where the word read whole may not: the word's own answer.
        break;
      }
      if (match !== undefined && match.next >= i + split.length) {
        return { value: match.value, next: match.next - split.length + 1 };
      }
      break;
    }
    return read(tokens, at);
  };
}
