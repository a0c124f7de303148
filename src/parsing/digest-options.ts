/**
 * Clauses only a digest takes, beside the schedule, window, zone and top it shares with lookups:
 * when a run posts (`only when changed`, `only new`, `post always`), the metric it ranks by
 * (`by impressions`), how it shows the ranking (`with table`, `with chart`) and whether it keeps
 * a channel canvas (`canvas`, `canvas on|off`).
 */
import type { PostWhen, Presentation } from '../model/digest.ts';
import type { Metric } from '../model/metrics.ts';
import type { Matcher } from './grammar.ts';
import { matchLookupRanking } from './known-words.ts';
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

/**
 * `by impressions`, `by mentions`, `by hsg score`, `ranked by retweets`: the metric runs rank by,
 * read as lookups read it (`known-words.ts`), and `by followers` (the top 500 by the metric,
 * ranked here by followers); `by default` goes back to the service's own order (in an edit).
 */
export const matchMetric: Matcher<Metric | 'default' | 'followers'> = (tokens, at) => {
  const by = lowerAt(tokens, at) === 'by' ? at : at + 1;
  const ranked = by === at || ['ranked', 'sorted'].includes(lowerAt(tokens, at) ?? '');
  if (ranked && lowerAt(tokens, by) === 'by' && lowerAt(tokens, by + 1) === 'default') {
    return { value: 'default', next: by + 2 };
  }
  return matchLookupRanking(tokens, at);
};

/** `for everyone`, `everyone`: an edit's way back to keeping every stakeholder. */
export const matchEveryone: Matcher<'everyone'> = (tokens, at) => {
  const first = lowerAt(tokens, at) === 'for' ? at + 1 : at;
  const word = lowerAt(tokens, first);
  if (word !== 'everyone' && word !== 'everybody') return undefined;
  return { value: 'everyone', next: first + 1 };
};

const presentationWords: ReadonlyMap<string, Presentation> = new Map<string, Presentation>([
  ['list', 'list'],
  ['table', 'table'],
  ['chart', 'chart'],
  ['graph', 'chart'],
]);

/** `with table`, `with a chart`, `as a table`, `as a list`: how each run shows its ranking. */
export const matchPresentation: Matcher<Presentation> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  if (word !== 'with' && word !== 'as') return undefined;
  const article = lowerAt(tokens, at + 1) === 'a' ? 1 : 0;
  const shown = presentationWords.get(lowerAt(tokens, at + 1 + article) ?? '');
  return shown === undefined ? undefined : { value: shown, next: at + 2 + article };
};

/**
 * `canvas`, `with a canvas`, `and canvas`: keep a canvas in the channel, rewritten at each run;
 * `canvas on` and `canvas off` (an edit) turn it on or off.
 */
export const matchCanvas: Matcher<boolean> = (tokens, at) => {
  let i = at;
  const lead = lowerAt(tokens, i);
  if (lead === 'with' || lead === 'and' || lead === 'plus') {
    i++;
    if (lowerAt(tokens, i) === 'a') i++;
  }
  if (lowerAt(tokens, i) !== 'canvas') return undefined;
  const state = lowerAt(tokens, i + 1);
  if (state === 'on') return { value: true, next: i + 2 };
  if (state === 'off') return { value: false, next: i + 2 };
  return { value: true, next: i + 1 };
};

const directWords = new Set(['dm', 'dms', 'direct']);

/**
 * `to me`, `to my dm`, `by dm`, `as a dm`: the digest goes to its creator's DM with the app
 * rather than to the channel it was typed in.
 */
export const matchToMe: Matcher<'me'> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  const next = lowerAt(tokens, at + 1);
  if (word === 'to' && next === 'me') return { value: 'me', next: at + 2 };
  if (
    (word === 'to' || word === 'in') &&
    next === 'my' &&
    directWords.has(lowerAt(tokens, at + 2) ?? '')
  ) {
    return { value: 'me', next: lowerAt(tokens, at + 2) === 'direct' ? at + 4 : at + 3 };
  }
  if (word === 'by' && next === 'dm') return { value: 'me', next: at + 2 };
  if (word === 'as' && next === 'a' && lowerAt(tokens, at + 2) === 'dm') {
    return { value: 'me', next: at + 3 };
  }
  return undefined;
};
