/**
 * Clauses only a digest takes, beside the schedule, window, zone and top it shares with lookups:
 * when a run posts (`only when changed`, `only new`, `post always`).
 */
import type { PostWhen } from '../model/digest.ts';
import type { Matcher } from './grammar.ts';
import { digestErrors } from './messages/digest.ts';
import { lowerAt, tokensText } from './tokens.ts';

const changeWords = new Set(['change', 'changes', 'changed', 'moves', 'moved']);
const subjectWords = new Set(['it', 'ranking', 'something', 'anything', 'anyone', 'they']);
const newcomerWords = new Set([
  'entrants',
  'entries',
  'people',
  'names',
  'accounts',
  'ones',
  'faces',
]);

/**
 * `only when changed`, `only if it changes`, `only on change`, `only when the ranking changes`:
 * `changed`; `only new`, `only newcomers`, `only new entrants`: `new`; `post always`, `always
 * post`: `always` (how an edit undoes the others). `only` always claims what follows, so a
 * misspelt condition is reported instead of becoming a database.
 */
export const matchPostWhen: Matcher<PostWhen> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  if (
    (word === 'post' && lowerAt(tokens, at + 1) === 'always') ||
    (word === 'always' && lowerAt(tokens, at + 1) === 'post')
  ) {
    return { value: 'always', next: at + 2 };
  }
  if (word !== 'only') return undefined;
  let i = at + 1;
  const next = lowerAt(tokens, i);
  if (next === 'newcomers' || next === 'new') {
    i++;
    if (next === 'new' && newcomerWords.has(lowerAt(tokens, i) ?? '')) i++;
    return { value: 'new', next: i };
  }
  if (next === 'when' || next === 'if' || next === 'on') i++;
  if (lowerAt(tokens, i) === 'the' && lowerAt(tokens, i + 1) === 'ranking') i++;
  if (subjectWords.has(lowerAt(tokens, i) ?? '')) i++;
  if (changeWords.has(lowerAt(tokens, i) ?? '')) return { value: 'changed', next: i + 1 };
  throw digestErrors.unreadableCondition(tokensText(tokens, at, Math.min(tokens.length, at + 3)));
};
