/**
 * A filter whose clauses cancel each other (`pharma non-pharma`): the two honest fixes, each the
 * person's own request without one of the clauses.
 */
import type { ChoicesError } from '../errors.ts';
import { vocabularyErrors } from './messages/vocabulary.ts';

export interface StakeholderClause {
  readonly fragment: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

/**
 * `pharma non-pharma`, `doctors no doctors`: two clauses, one keeping the people the other leaves
 * out. Both fixes are honest, so the person is asked: their own request without the one clause,
 * or without the other. Undefined when there is no such pair (one clause contradicting itself is
 * refused by `checkStakeholders`).
 */
export function contradictoryFilters(
  text: string,
  filters: readonly StakeholderClause[],
  conversation: boolean,
): ChoicesError | undefined {
  const both = filters
    .flatMap((filter) => filter.include)
    .filter((category) => filters.some((filter) => filter.exclude.includes(category)));
  if (both.length === 0) return undefined;
  const keeping = filters.filter((filter) => filter.include.some((c) => both.includes(c)));
  const leaving = filters.filter((filter) => filter.exclude.some((c) => both.includes(c)));
  if (keeping.some((filter) => leaving.includes(filter))) return undefined;
  const without = (dropped: readonly StakeholderClause[]): string =>
    dropped
      .reduce((rest, filter) => withoutFragment(rest, filter.fragment), text)
      .replace(/\s+/g, ' ')
      .trim();
  const words = (chosen: readonly StakeholderClause[]): string =>
    chosen.map((filter) => filter.fragment).join(', ');
  return vocabularyErrors.contradictoryFilterChoices(
    [...new Set(both)],
    [
      { meaning: `keep ${words(keeping)}`, command: without(leaving) },
      { meaning: words(leaving), command: without(keeping) },
    ],
    conversation,
  );
}

/** `text` without `fragment`, and without the comma that joined it to a neighbour. */
function withoutFragment(text: string, fragment: string): string {
  const at = text.indexOf(fragment);
  if (at < 0) return text;
  let from = at;
  let to = at + fragment.length;
  const before = /,\s*$/.exec(text.slice(0, from));
  const after = /^\s*,/.exec(text.slice(to));
  if (before !== null) from -= before[0].length;
  else if (after !== null) to += after[0].length;
  return `${text.slice(0, from)} ${text.slice(to)}`;
}
