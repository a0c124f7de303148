/**
 * The vocabulary's words where they stand (`vocabulary.ts`): what a ranking is by (`by reach`,
 * `most retweeted`, `mentions`), formats that are also everyday words (`excel`, `bar`), fillers
 * and politeness (left out), and words for what the service cannot do yet (refused, saying what
 * they would mean). A known word beside the words of a phrase is no database either: the phrase is
 * refused, to be quoted.
 */
import type { Reading } from '../errors.ts';
import type { Metric } from '../model/metrics.ts';
import { organisationCategories, type StakeholderFilter } from '../model/stakeholders.ts';
import type { Match, Matcher } from './grammar.ts';
import { parseErrors } from './messages/lookup.ts';
import { byMetric, vocabularyErrors } from './messages/vocabulary.ts';
import { perWord } from './per-word.ts';
import { isMarkedDatabase } from './question.ts';
import { isReservedWord } from './reserved.ts';
import { isSlipOf } from './time/misspelt.ts';
import { lowerAt, type Token, tokensText } from './tokens.ts';
import {
  type FormatWord,
  followerWords,
  looseStakeholderWords,
  meaningOf,
  meaningOfTyped,
  metricAdjectives,
  metricSpellings,
  metricWords,
  stakeholderPairs,
  stakeholderWords,
} from './vocabulary.ts';

/** A known word read where it stands. */
export type KnownWord =
  | { readonly kind: 'metric'; readonly metric: Metric }
  | { readonly kind: 'format'; readonly format: FormatWord };

/**
 * A word that can only be a word of a phrase: neither a database with a mark of its own, nor a
 * number, nor a word the grammars or the vocabulary know.
 */
export function isPhraseWord(token: Token | undefined): boolean {
  return token?.kind === 'word' && !isMarkedDatabase(token) && isPhraseText(token.text);
}

/** Asked of the words on either side of every position, by several clauses: kept per word. */
const isPhraseText = perWord(
  (text) =>
    startsWithLetter.test(text) && !isReservedWord(text) && meaningOfTyped(text) === undefined,
);

const startsWithLetter = /^\p{L}/u;

/**
 * A bare known word at `at`, apart from any phrase: a metric or a format is read, and words for
 * what cannot be asked yet (who people are, followers, trends, vague periods, counts the service
 * has not) are refused, saying what they would mean. Beside a phrase's words a known word is left
 * to the phrase, which it makes no database (`grammar.ts`); fillers and politeness always are.
 */
export const matchKnownWord: Matcher<KnownWord> = (tokens, at, scan) => {
  const token = tokens[at];
  if (token?.kind !== 'word') return undefined;
  const most = matchMost(tokens, at);
  if (most !== undefined) return { value: { kind: 'metric', metric: most.value }, next: most.next };
  const meaning = meaningOfTyped(token.text);
  const before = scan?.afterClause !== true && isPhraseWord(tokens[at - 1]);
  const apart = !before && !isPhraseWord(tokens[at + 1]);
  if (meaning === undefined) {
    // "impresions" alone: a slip of a metric, not a database.
    const meant = apart && token.lower.length >= 7 ? metricSlip(token.lower) : undefined;
    if (meant !== undefined) throw parseErrors.didYouMean(token.text, meant, 'unrecognised');
    return undefined;
  }
  if (meaning.kind === 'filler' || meaning.kind === 'politeness') return undefined;
  // "tweets from doctors", "only doctors": the word that leads to who people are goes with it.
  const lead = stakeholderLeads.has(lowerAt(tokens, at - 1) ?? '');
  if (meaning.kind === 'stakeholder' && lead && !isPhraseWord(tokens[at + 1])) {
    throw vocabularyErrors.stakeholder(tokensText(tokens, at - 1, at + 1), meaning.category, false);
  }
  if (!apart) return undefined;
  switch (meaning.kind) {
    case 'metric':
      return { value: { kind: 'metric', metric: meaning.metric }, next: at + 1 };
    case 'format':
      return { value: { kind: 'format', format: meaning.format }, next: at + 1 };
    case 'other-metric': {
      // "most engaged": the `most` goes with the word it ranks by.
      const from = mostWords.has(lowerAt(tokens, at - 1) ?? '') ? at - 1 : at;
      const commands = choices(tokens, from, at + 1, meaning.among);
      const fragment = tokensText(tokens, from, at + 1);
      throw vocabularyErrors.otherMetric(fragment, token.text, meaning.nearest, commands);
    }
    case 'followers':
      throw vocabularyErrors.followers(token.text);
    case 'stakeholder':
      throw vocabularyErrors.stakeholder(token.text, meaning.category, true);
    case 'trend':
      throw vocabularyErrors.trend(token.text);
    case 'vague-time':
      throw vocabularyErrors.vagueTime(token.text);
  }
};

/** The metric `word` is a slip of (`impresions`, `retweats`), when one is that near. */
const metricSlip: (word: string) => string | undefined = perWord(slipOfMetric);

function slipOfMetric(word: string): string | undefined {
  if (meaningOf(word) !== undefined) return undefined;
  return metricSpellings.find((spelling) => isSlipOf(word, spelling));
}

/** Words that lead to who people are: `from doctors`, `only doctors`, `among nurses`. */
const stakeholderLeads: ReadonlySet<string> = new Set([
  'from',
  'by',
  'among',
  'of',
  'only',
  'just',
  'for',
]);

/**
 * `most retweeted`, `most mentions`, `highest reach`, `with the most impressions`: the metric they
 * rank by.
 */
function matchMost(tokens: readonly Token[], at: number): Match<Metric> | undefined {
  let i = at;
  if (lowerAt(tokens, i) === 'with') i += lowerAt(tokens, i + 1) === 'the' ? 2 : 1;
  const word = lowerAt(tokens, i);
  if (word !== 'most' && word !== 'highest' && word !== 'biggest') return undefined;
  const next = lowerAt(tokens, i + 1) ?? '';
  const metric =
    (word === 'most' ? metricAdjectives.get(next) : undefined) ?? metricWords.get(next);
  return metric === undefined ? undefined : { value: metric, next: i + 2 };
}

const rankWords: ReadonlySet<string> = new Set([
  'ranked',
  'rank',
  'ranking',
  'sorted',
  'sort',
  'ordered',
  'order',
  'rated',
]);
/** Words between `by` and a metric that add nothing (`by number of mentions`, `by the reach`). */
const countWords: ReadonlySet<string> = new Set(['number', 'of', 'the', 'total', 'count', 'most']);
const categoryWords: ReadonlySet<string> = new Set(['category', 'categories', 'stakeholders']);
const ratioWords: ReadonlySet<string> = new Set(['rate', 'ratio', 'percentage', 'share']);
/** Units after `by`: a ranking per period is a trend (`by week`). */
const periodWords: ReadonlySet<string> = new Set([
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'hour',
  'hours',
  'year',
  'quarter',
]);

/**
 * `by <metric>`, `ranked by`, `sorted by`, `ordered by` (`by reach`, `by HSG score`, `by number of
 * mentions`) -> the metric. Once `by` is there it claims what follows: a slip of a metric gets a
 * did-you-mean, a count the service has not (`likes`), followers, who people are (`by doctors`)
 * and periods (`by week`) are refused with what they would mean, and anything else with the list
 * of metrics, so no `by …` is ever left to become a database.
 */
export const matchRanking: Matcher<Metric> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  let by: number;
  if (word === 'by') by = at;
  else if (word !== undefined && rankWords.has(word) && lowerAt(tokens, at + 1) === 'by') {
    by = at + 1;
  } else return undefined;
  let i = by + 1;
  if (tokens[i]?.kind !== 'word') return undefined;
  while (countWords.has(lowerAt(tokens, i) ?? '') && tokens[i + 1]?.kind === 'word') i++;
  const name = lowerAt(tokens, i) ?? '';
  // "by category" asks how the people split: the pie (`options.ts`).
  if (word === 'by' && categoryWords.has(name)) return undefined;
  const next = lowerAt(tokens, i + 1);
  const metric = metricWords.get(name);
  const blended = meaningOf(name);
  if (blended?.kind === 'other-metric' && blended.among !== undefined) {
    // "by engagement rate" as "by engagement": several counts, to choose from.
    const to = ratioWords.has(next ?? '') ? i + 2 : i + 1;
    const commands = choices(tokens, at, to, blended.among);
    const fragment = tokensText(tokens, at, to);
    throw vocabularyErrors.otherMetric(fragment, name, blended.nearest, commands);
  }
  if (metric !== undefined && ratioWords.has(next ?? '')) {
    // "by engagement rate": a ratio the service does not count.
    const rate = tokensText(tokens, i, i + 2);
    throw vocabularyErrors.otherMetric(tokensText(tokens, at, i + 2), rate, metric);
  }
  if (metric !== undefined) {
    const twoWords = (name === 'hsg' || name === 'influence') && next === 'score';
    const counted = next === 'count' || next === 'counts';
    const end = twoWords || counted ? i + 2 : i + 1;
    const other = secondRanking(tokens, end, metric);
    if (other !== undefined) {
      const readings = choices(tokens, at, other.next, [metric, other.value]);
      throw vocabularyErrors.twoRankings(tokensText(tokens, at, other.next), readings);
    }
    return { value: metric, next: end };
  }
  const fragment = tokensText(tokens, at, i + 1);
  const meaning = meaningOf(name);
  if (meaning?.kind === 'other-metric') {
    const commands = choices(tokens, at, i + 1, meaning.among);
    throw vocabularyErrors.otherMetric(fragment, name, meaning.nearest, commands);
  }
  if (meaning?.kind === 'followers') throw vocabularyErrors.followers(fragment);
  const category = stakeholderWords.get(name);
  if (category !== undefined) throw vocabularyErrors.stakeholder(fragment, category, false);
  if (meaning?.kind === 'trend' || periodWords.has(name)) throw vocabularyErrors.trend(fragment);
  const meant = name.length >= 4 ? metricSlip(name) : undefined;
  if (meant !== undefined) {
    throw parseErrors.didYouMean(fragment, `${tokensText(tokens, at, i)} ${meant}`, 'unrecognised');
  }
  throw parseErrors.unknownMetric(fragment);
};

/**
 * `by reposts and replies`, `by mentions or by reach`: a second count after the first, which a
 * ranking by one cannot honour; either is asked about, never one silently.
 */
function secondRanking(
  tokens: readonly Token[],
  at: number,
  first: Metric,
): Match<Metric> | undefined {
  if (!listJoiners.has(lowerAt(tokens, at) ?? '') && tokens[at]?.kind !== 'comma') return undefined;
  const i = lowerAt(tokens, at + 1) === 'by' ? at + 2 : at + 1;
  const metric = metricWords.get(lowerAt(tokens, i) ?? '');
  return metric === undefined || metric === first ? undefined : { value: metric, next: i + 1 };
}

/**
 * The command without the words `from` to `to`, ranked by each of `metrics` (`#oncology last
 * month by engagement` -> `#oncology last month by mentions`, …): what the person can run.
 */
function choices(
  tokens: readonly Token[],
  from: number,
  to: number,
  metrics: readonly Metric[] | undefined,
): Reading[] {
  if (metrics === undefined) return [];
  const rest = [tokensText(tokens, 0, from), tokensText(tokens, to, tokens.length)];
  return metrics.map((metric) => ({
    meaning: byMetric(metric),
    command: [...rest, byMetric(metric)].filter(Boolean).join(' '),
  }));
}

const mostWords: ReadonlySet<string> = new Set(['most', 'highest', 'biggest']);

/** Words that leave out who follows: `excluding orgs`, `no pharma`, `without organizations`. */
const excludeLeads: ReadonlySet<string> = new Set([
  'excluding',
  'excl',
  'exclude',
  'without',
  'except',
  'no',
  'not',
]);
const listJoiners: ReadonlySet<string> = new Set(['and', 'or', '&', ',', '+']);

/** The service's category names a word of `stakeholderWords` keeps (`include`) or leaves out. */
function categoriesOf(meaning: string): { include: string[]; exclude: string[] } {
  if (meaning === 'an organisation') return { include: [...organisationCategories], exclude: [] };
  if (meaning === 'an individual') return { include: [], exclude: [...organisationCategories] };
  return { include: [meaning], exclude: [] };
}

/**
 * Who people are, where it stands: `doctors`, `only doctors and nurses`, `excluding orgs`, `no
 * pharma`, `tweets from doctors`, `doctors in #hcsm`. The service cannot filter by it; the lookup asks for its top 500
 * and keeps these people (`analytics/local-ranking.ts`). A word beside the words of a phrase is left
 * to the phrase (`shift nurses`), which the vocabulary then refuses, to be quoted.
 */
export const matchStakeholders: Matcher<StakeholderFilter> = (tokens, at, scan) => {
  const word = lowerAt(tokens, at) ?? '';
  const non = matchNon(tokens, at);
  if (non !== undefined) return non;
  const lead = stakeholderLeads.has(word)
    ? 'include'
    : excludeLeads.has(word)
      ? 'exclude'
      : undefined;
  const first = lead === undefined ? at : at + 1;
  if (stakeholderAt(tokens, first, lead !== undefined) === undefined) return undefined;
  // "in Paris doctors": a word a clause read (a zone, a place) is no phrase's word.
  if (lead === undefined && scan?.afterClause !== true && isPhraseWord(tokens[at - 1])) {
    return undefined;
  }
  const include = new Set<string>();
  const exclude = new Set<string>();
  let next = first;
  for (;;) {
    const { meaning, next: after } = stakeholderAt(tokens, next, next > at) as StakeholderWord;
    const { include: kept, exclude: left } = categoriesOf(meaning);
    const [into, other] = lead === 'exclude' ? [exclude, include] : [include, exclude];
    for (const name of kept) into.add(name);
    for (const name of left) other.add(name);
    next = after;
    const joiner = tokens[next]?.kind === 'comma' ? ',' : (lowerAt(tokens, next) ?? '');
    if (!listJoiners.has(joiner) || stakeholderAt(tokens, next + 1, true) === undefined) break;
    next += 1;
  }
  // "doctors only": the `only` after the list says what the list says, unless it leads what
  // follows ("only when changed", "only new", "only nurses").
  if (lead !== 'exclude' && lowerAt(tokens, next) === 'only' && !leadsNext(tokens, next + 1)) {
    next += 1;
  }
  // "nurses association": the word of a phrase, which the vocabulary refuses, to be quoted.
  const after = lowerAt(tokens, next) ?? '';
  const leads =
    stakeholderLeads.has(after) || excludeLeads.has(after) || matchNon(tokens, next) !== undefined;
  if (lead === undefined && !leads && isPhraseWord(tokens[next])) return undefined;
  // "doctors in #hcsm": an `in` before a marked database belongs to the filter, never to a zone.
  const marked = tokens[next + 1];
  if (databaseWords.has(after) && marked !== undefined && isMarkedDatabase(marked)) next += 1;
  return { value: { include: [...include], exclude: [...exclude] }, next };
};

/** Whether an `only` before `at` leads the words there: a condition or who people are. */
function leadsNext(tokens: readonly Token[], at: number): boolean {
  const word = lowerAt(tokens, at);
  if (word === undefined) return false;
  return onlyConditions.has(word) || stakeholderAt(tokens, at, true) !== undefined;
}

const onlyConditions: ReadonlySet<string> = new Set(['when', 'if', 'new', 'changed', 'on']);

/** `non-pharma`, `non pharma`, `non-doctors`: everyone but them. */
function matchNon(tokens: readonly Token[], at: number): Match<StakeholderFilter> | undefined {
  const word = lowerAt(tokens, at) ?? '';
  const glued = /^non-(.+)$/.exec(word);
  const meaning =
    glued === null
      ? word === 'non'
        ? stakeholderAt(tokens, at + 1, true)
        : undefined
      : stakeholderAt([{ ...(tokens[at] as Token), lower: glued[1] as string }], 0, true);
  if (meaning === undefined) return undefined;
  const { include, exclude } = categoriesOf(meaning.meaning);
  const next = glued === null ? meaning.next : at + 1;
  return { value: { include: exclude, exclude: include }, next };
}

/**
 * A filter that keeps and leaves out the same people (`doctors excluding doctors`, `pharma
 * without organisations`) keeps nobody: refused rather than answered empty.
 * @throws ParseError naming the categories both kept and left out.
 */
export function checkStakeholders(filter: StakeholderFilter, fragment: string): void {
  const both = filter.include.filter((category) => filter.exclude.includes(category));
  if (both.length > 0) throw vocabularyErrors.contradictoryFilter(fragment, both);
}

interface StakeholderWord {
  /** A category name of the service's, or `an organisation`, `an individual`. */
  readonly meaning: string;
  readonly next: number;
}

/**
 * The category the words at `at` name: a word of {@link stakeholderWords}, two words that name
 * one (`patient advocates`), or a loose word (`media`) standing apart from a phrase's words, the
 * word before it aside when `led` (it follows `only`, `no` or a list's `and`).
 */
function stakeholderAt(
  tokens: readonly Token[],
  at: number,
  led: boolean,
): StakeholderWord | undefined {
  const word = lowerAt(tokens, at) ?? '';
  const paired = stakeholderPairs.get(word)?.get(lowerAt(tokens, at + 1) ?? '');
  if (paired !== undefined) return { meaning: paired, next: at + 2 };
  const meaning = stakeholderWords.get(word);
  if (meaning !== undefined) return { meaning, next: at + 1 };
  const loose = looseStakeholderWords.get(word);
  if (loose === undefined || isPhraseWord(tokens[at + 1])) return undefined;
  // "pharma industry", "social media": beside another word, the loose word is the phrase's.
  const before = lowerAt(tokens, at - 1) ?? '';
  const apart = led || (!isPhraseWord(tokens[at - 1]) && !stakeholderWords.has(before));
  return apart ? { meaning: loose, next: at + 1 } : undefined;
}

/** The words that put people in a conversation: `doctors in #hcsm`, `pharma on #bcsm`. */
const databaseWords: ReadonlySet<string> = new Set(['in', 'on', 'for']);

/**
 * `by followers`, `ranked by follower count`, `most followers`: the service's top 500 ranked here by followers
 * (lookups only: a digest keeps no such ranking); any other `by …` as {@link matchRanking} reads it.
 */
export const matchLookupRanking: Matcher<Metric | 'followers'> = (tokens, at) => {
  const word = lowerAt(tokens, at);
  const most = word === 'most' || word === 'highest' || word === 'biggest';
  if (most && followerWords.has(lowerAt(tokens, at + 1) ?? '')) {
    return { value: 'followers', next: at + 2 };
  }
  const by =
    word === 'by'
      ? at
      : rankWords.has(word ?? '') && lowerAt(tokens, at + 1) === 'by'
        ? at + 1
        : -1;
  if (by >= 0) {
    let i = by + 1;
    while (countWords.has(lowerAt(tokens, i) ?? '') && tokens[i + 1]?.kind === 'word') i++;
    if (followerWords.has(lowerAt(tokens, i) ?? '')) {
      const counted = ['count', 'counts'].includes(lowerAt(tokens, i + 1) ?? '');
      return { value: 'followers', next: counted ? i + 2 : i + 1 };
    }
  }
  return matchRanking(tokens, at);
};
