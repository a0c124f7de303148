/**
 * One person in a lookup: `@DrFerreiraI in #hcsm last month`, and in a conversation `how did
 * @DrFerreiraI do in #hcsm last month?` (the question's opening is left out in `question.ts`).
 *
 * Decisions (the tests hold each):
 * - An `@` word is an X handle: `@` and 1 to 15 letters, digits or underscores; anything else
 *   after an `@` is refused rather than looked up as a phrase. One person a lookup.
 * - After the handle, `do`/`did`/`does`/`doing` and then `in`, `on` or `for` before a database
 *   belong to it, so `in #hcsm` is never read as a zone.
 * - The answer compares with the previous period unless the lookup names another comparison.
 * - `top N`, `table`, `chart` and `export` do not apply to one person and are refused; so are a
 *   filter (`doctors`) and `by followers`: the answer is the person's place in the service's own
 *   ranking, which neither changes.
 */

import { isBareNumber, readDatabaseToken } from './databases.ts';
import type { Matcher } from './grammar.ts';
import { personErrors } from './messages/trend.ts';
import { isMarkedDatabase } from './question.ts';
import { isReservedWord } from './reserved.ts';
import { lowerAt, type Token } from './tokens.ts';

const handle = /^@([A-Za-z0-9_]{1,15})$/u;
const doWords: ReadonlySet<string> = new Set(['do', 'does', 'did', 'doing']);
const inWords: ReadonlySet<string> = new Set(['in', 'on', 'for']);

/**
 * `@handle` -> the handle without its `@`, with a `do` and an `in` after it (`@x did in #hcsm`).
 * @throws ParseError for an `@` word that is not a handle.
 */
export const matchPerson: Matcher<string> = (tokens, at) => {
  const token = tokens[at];
  if (token?.kind !== 'word' || !token.text.startsWith('@') || token.text.length < 2) {
    return undefined;
  }
  const name = handle.exec(token.text)?.[1];
  if (name === undefined) throw personErrors.badHandle(token.text);
  let next = at + 1;
  if (doWords.has(lowerAt(tokens, next) ?? '')) next += 1;
  if (inWords.has(lowerAt(tokens, next) ?? '') && namesDatabase(tokens[next + 1])) next += 1;
  return { value: name, next };
};

/** A token that starts a database: a hashtag, quote, group or ID, or a plain word of a phrase. */
function namesDatabase(token: Token | undefined): boolean {
  if (token === undefined) return false;
  if (isMarkedDatabase(token) || isBareNumber(token)) return true;
  return (
    token.kind === 'word' && readDatabaseToken(token).kind === 'word' && !isReservedWord(token.text)
  );
}

/**
 * Refuses what does not apply to one person: `top N`, a way of showing, an export, and a choice
 * made here of who ranks or how (`doctors`, `by followers`).
 */
export function checkPersonOptions(others: {
  readonly top: { readonly fragment: string } | undefined;
  readonly presentation: { readonly fragment: string } | undefined;
  readonly exported: string | undefined;
  readonly chosenHere?: string | undefined;
}): void {
  const fragment =
    others.top?.fragment ?? others.presentation?.fragment ?? others.exported ?? others.chosenHere;
  if (fragment !== undefined) throw personErrors.notForPerson(fragment);
}
