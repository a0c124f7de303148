/**
 * The words people use with the grammar outside the clauses that read them, each with what it
 * means: fillers, the metrics and what people call them, formats and presentations, who people
 * are (stakeholders), trends, follower counts and vague periods. The grammars read a bare word from
 * here for what it is, or refuse it saying what it would mean; none of them is ever taken as part
 * of a database unless quoted. What later work builds (filters by who people are, rankings by
 * followers, trends) is declared here first, so it is refused with words rather than read as data.
 */
import { type Metric, metricNames } from '../model/metrics.ts';
import type { Presentation } from '../model/presentation.ts';
import { perWord } from './per-word.ts';

/** Politeness that asks nothing: left out wherever it stands outside a phrase. */
export const politenessWords: ReadonlySet<string> = new Set([
  'please',
  'pls',
  'plz',
  'kindly',
  'thanks',
  'thank',
  'thx',
  'ty',
  'cheers',
]);

/**
 * Words of a request that name what every answer is anyway (`top`, `influencers`, `show me`):
 * left out when they stand apart from a phrase (`top people #hcsm last week please`), kept when
 * they are words of one (`people with diabetes`).
 */
export const fillerWords: ReadonlySet<string> = new Set([
  'show',
  'me',
  'us',
  'give',
  'get',
  'find',
  'tell',
  'who',
  'whos',
  "who's",
  'whom',
  'what',
  'which',
  'top',
  'most',
  'influencers',
  'influencer',
  'influential',
  'voices',
  'people',
  'accounts',
  'users',
  'posters',
  'tweeters',
  'leaders',
  // Key opinion leaders: the influencers every answer ranks, whoever they are.
  'kols',
  'kol',
  'biggest',
  'loudest',
  'drove',
  'the',
  'for',
  'a',
  'an',
  'of',
  'i',
  'we',
  'you',
  'can',
  'could',
  'would',
  'want',
  'need',
  'see',
  'were',
  'was',
  'are',
  'is',
  'it',
  'them',
  'just',
  'so',
  'far',
  'compare',
  'comparing',
  'stats',
  'statistics',
  'leaderboard',
  'leaderboards',
  'ranking',
  'rankings',
  'report',
  'summary',
  'overview',
  'results',
  'everyone',
  'everybody',
  'all',
]);

/** The service's metrics by every name people give them: after `by`, and standing alone. */
export const metricWords: ReadonlyMap<string, Metric> = new Map<string, Metric>([
  ...metricNames.map((name) => [name, name] as const),
  ['hsg', 'hsg_score'],
  ['score', 'hsg_score'],
  ['influence', 'hsg_score'],
  ['mention', 'mentions'],
  ['retweet', 'retweets'],
  ['rts', 'retweets'],
  ['reposts', 'retweets'],
  ['repost', 'retweets'],
  ['shares', 'retweets'],
  ['amplification', 'retweets'],
  ['tweet', 'tweets'],
  ['posts', 'tweets'],
  ['post', 'tweets'],
  ['activity', 'tweets'],
  ['volume', 'tweets'],
  ['reach', 'impressions'],
  ['views', 'impressions'],
  ['impression', 'impressions'],
  ['visibility', 'impressions'],
  ['reply', 'replies'],
  ['replys', 'replies'],
  ['comments', 'replies'],
]);

/** Metric words spelled in full, which a slip is measured against (`impresions`). */
export const metricSpellings: readonly string[] = [
  'mentions',
  'retweets',
  'reposts',
  'tweets',
  'impressions',
  'replies',
  'engagement',
  'influence',
];

/** What `most <word>` ranks by: `most retweeted`, `most mentioned`, `most active`. */
export const metricAdjectives: ReadonlyMap<string, Metric> = new Map<string, Metric>([
  ['retweeted', 'retweets'],
  ['reposted', 'retweets'],
  ['shared', 'retweets'],
  ['amplified', 'retweets'],
  ['mentioned', 'mentions'],
  ['talked', 'mentions'],
  ['active', 'tweets'],
  ['prolific', 'tweets'],
  ['influential', 'hsg_score'],
  ['viewed', 'impressions'],
  ['seen', 'impressions'],
  ['visible', 'impressions'],
  ['replied', 'replies'],
]);

/** Adjectives that name their metric alone too (`retweeted`); the others only after `most`. */
const bareAdjectives: ReadonlySet<string> = new Set([
  'retweeted',
  'reposted',
  'mentioned',
  'replied',
  'viewed',
]);

/**
 * Counts people ask to rank by that the service does not have, each with the metric nearest to
 * what they want, for the command that works instead.
 */
export const otherMetrics: ReadonlyMap<string, Metric> = new Map<string, Metric>([
  ['likes', 'retweets'],
  ['like', 'retweets'],
  ['liked', 'retweets'],
  ['favorites', 'retweets'],
  ['favourites', 'retweets'],
  ['favs', 'retweets'],
  ['hearts', 'retweets'],
  ['bookmarks', 'retweets'],
  ['quotes', 'retweets'],
  ['clicks', 'impressions'],
]);

/**
 * Words for several of the service's counts at once (`engagement`: mentions, retweets and replies
 * together): never read as one of them silently, refused with the near ones to choose from.
 */
export const blendedMetrics: ReadonlyMap<string, readonly Metric[]> = new Map(
  ['engagement', 'engagements', 'interactions', 'engaged', 'engaging'].map(
    (word) => [word, ['mentions', 'retweets', 'replies'] as const] as const,
  ),
);

/** Ranking by audience size: a ranking the service's followers count will make (issue 20). */
export const followerWords: ReadonlySet<string> = new Set([
  'followers',
  'follower',
  'following',
  'followed',
  'audience',
]);

/**
 * Who people are, as people say it, with the service's category it would keep: a filter the
 * answers' categories will make (issue 20); until then refused with what it would mean.
 */
export const stakeholderWords: ReadonlyMap<string, string> = new Map([
  ...['doctors', 'doctor', 'physicians', 'physician', 'docs', 'mds', 'surgeons', 'oncologists'].map(
    (word) => [word, 'Doctor'] as const,
  ),
  ...['hcps', 'hcp', 'nurses', 'nurse', 'clinicians', 'pharmacists'].map(
    (word) => [word, 'HCP'] as const,
  ),
  ...['patients', 'patient-advocates', 'advocates', 'epatients', 'e-patients'].map(
    (word) => [word, 'Patient Advocate'] as const,
  ),
  ...['caregivers', 'carers'].map((word) => [word, 'Caregiver'] as const),
  ...['researchers', 'academics', 'scientists'].map(
    (word) => [word, 'Researcher/Academic'] as const,
  ),
  ...['journalists', 'reporters', 'press'].map((word) => [word, 'Journalist/Media'] as const),
  ...['pharma', 'pharmaceutical', 'biotech', 'biopharma'].map(
    (word) => [word, 'Org. Pharma'] as const,
  ),
  ...['medtech', 'meddevice'].map((word) => [word, 'Org. MedDevice'] as const),
  ...['hospitals', 'providers'].map((word) => [word, 'Org. Provider'] as const),
  ...['organisations', 'organizations', 'orgs', 'companies', 'brands'].map(
    (word) => [word, 'an organisation'] as const,
  ),
  ...['individuals', 'persons'].map((word) => [word, 'an individual'] as const),
  ...['bots', 'spam'].map((word) => [word, 'Spam'] as const),
]);

/**
 * Words for who people are that are also everyday words of a phrase (`social media`, `health
 * industry`): a filter only where they stand apart from a phrase's words, and otherwise words of
 * the phrase, not refused.
 */
export const looseStakeholderWords: ReadonlyMap<string, string> = new Map([
  ['media', 'Journalist/Media'],
  ['industry', 'Org. Pharma'],
]);

/** Two words that name one category (`patient advocates`): the first, then the second. */
export const stakeholderPairs: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'patient',
    new Map([
      ['advocates', 'Patient Advocate'],
      ['advocate', 'Patient Advocate'],
    ]),
  ],
  // "pharma companies", "medtech firms": that kind of organisation, not every organisation.
  ...['pharma', 'pharmaceutical', 'biotech', 'biopharma', 'medtech', 'meddevice'].map(
    (word) =>
      [
        word,
        new Map(
          ['companies', 'company', 'orgs', 'organisations', 'organizations', 'firms', 'brands'].map(
            (noun) => [noun, stakeholderWords.get(word) as string] as const,
          ),
        ),
      ] as const,
  ),
]);

/** Asking how a ranking moved over time, window by window: a trend (issue 20). */
export const trendWords: ReadonlySet<string> = new Set([
  'trend',
  'trends',
  'trending',
  'timeline',
  'weekly',
  'daily',
  'monthly',
  'hourly',
  'quarterly',
  'yearly',
]);

/** Periods with no agreed length, refused with concrete windows to choose from. */
export const vagueTimeWords: ReadonlySet<string> = new Set([
  'recently',
  'recent',
  'lately',
  'latest',
  'nowadays',
]);

/** How an answer can be shown or sent, by every name people give it. */
export type FormatWord = Presentation | 'export';

/**
 * Formats that always mean themselves (`table`, `chart`, `csv`): read wherever they stand, so a
 * phrase holding one needs quotes (`"chart review"`).
 */
export const formatWords: ReadonlyMap<string, FormatWord> = new Map<string, FormatWord>([
  ['table', 'table'],
  ['chart', 'chart'],
  ['graph', 'chart'],
  ['export', 'export'],
  ['csv', 'export'],
]);

/**
 * Formats that are also everyday words (`excel`, `download`, `bar`, `pie`): read alone or beside
 * another format word (`as excel`, `bar chart`), refused as words of a phrase.
 */
export const looseFormatWords: ReadonlyMap<string, FormatWord> = new Map<string, FormatWord>([
  ['excel', 'export'],
  ['xlsx', 'export'],
  ['xls', 'export'],
  ['spreadsheet', 'export'],
  ['sheet', 'export'],
  ['download', 'export'],
  ['file', 'export'],
  ['barchart', 'chart'],
  ['bar', 'chart'],
  ['bars', 'chart'],
  ['histogram', 'chart'],
  ['pie', 'category_chart'],
  ['piechart', 'category_chart'],
  ['donut', 'category_chart'],
  ['breakdown', 'category_chart'],
  ['tabular', 'table'],
  ['list', 'list'],
]);

/** Counts in words, up to a hundred: `ten`, `twenty`, `a dozen`; tens take a unit after them. */
export const countWords: ReadonlyMap<string, number> = new Map([
  ...[
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
    'thirteen',
    'fourteen',
    'fifteen',
    'sixteen',
    'seventeen',
    'eighteen',
    'nineteen',
  ].map((word, i) => [word, i + 1] as const),
  ...['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'].map(
    (word, i) => [word, (i + 2) * 10] as const,
  ),
  ['dozen', 12],
  ['hundred', 100],
]);

/** What a word the grammar knows means where no clause claimed it. */
export type WordMeaning =
  | { readonly kind: 'politeness' }
  | { readonly kind: 'filler' }
  | { readonly kind: 'metric'; readonly metric: Metric }
  /** `among`: the near ones to choose from, for a word that blends several (`engagement`). */
  | { readonly kind: 'other-metric'; readonly nearest: Metric; readonly among?: readonly Metric[] }
  | { readonly kind: 'followers' }
  | { readonly kind: 'stakeholder'; readonly category: string }
  | { readonly kind: 'trend' }
  | { readonly kind: 'vague-time' }
  | { readonly kind: 'format'; readonly format: FormatWord };

/**
 * Fillers that are words of a topic too (`people with diabetes`, `the lancet`): allowed among a
 * phrase's words; every other known word makes the phrase no database.
 */
export const phraseFillers: ReadonlySet<string> = new Set(['people', 'the', 'a', 'an', 'of']);

/** The question's nouns, left out at the end of a phrase (`breast cancer influencers`). */
export const trailingFillers: ReadonlySet<string> = new Set([
  'influencers',
  'influencer',
  'voices',
  'accounts',
  'leaders',
  'tweeters',
  'posters',
]);

/**
 * The meaning of a word as typed; a word in capitals of two letters or more is a name (`WHO`,
 * `US`), never a filler.
 */
export const meaningOfTyped: (text: string) => WordMeaning | undefined = perWord(typedMeaning);

function typedMeaning(text: string): WordMeaning | undefined {
  const meaning = meaningOf(text.toLowerCase());
  const name = text.length >= 2 && text === text.toUpperCase() && /\p{L}/u.test(text);
  return (meaning?.kind === 'filler' || meaning?.kind === 'politeness') && name
    ? undefined
    : meaning;
}

/** The meaning of `word` (lower-case), undefined for a word the vocabulary does not hold. */
export function meaningOf(word: string): WordMeaning | undefined {
  if (politenessWords.has(word)) return { kind: 'politeness' };
  const metric =
    metricWords.get(word) ?? (bareAdjectives.has(word) ? metricAdjectives.get(word) : undefined);
  if (metric !== undefined) return { kind: 'metric', metric };
  const blended = blendedMetrics.get(word);
  if (blended !== undefined) {
    return { kind: 'other-metric', nearest: blended[0] as Metric, among: blended };
  }
  const other = otherMetrics.get(word);
  if (other !== undefined) return { kind: 'other-metric', nearest: other };
  if (followerWords.has(word)) return { kind: 'followers' };
  const category = stakeholderWords.get(word);
  if (category !== undefined) return { kind: 'stakeholder', category };
  if (trendWords.has(word)) return { kind: 'trend' };
  if (vagueTimeWords.has(word)) return { kind: 'vague-time' };
  const format = formatWords.get(word) ?? looseFormatWords.get(word);
  if (format !== undefined) return { kind: 'format', format };
  if (fillerWords.has(word)) return { kind: 'filler' };
  return undefined;
}
