/**
 * The refusals of words the vocabulary knows (`vocabulary.ts`): each says what the word would mean,
 * what can be asked today, and ends on the person's own command with the one fix applied (the
 * fragment's `correction`, fitted by `advice.ts`).
 */
import { ChoicesError, ParseError, type Reading } from '../../errors.ts';
import type { Metric } from '../../model/metrics.ts';
import type { FormatWord, WordMeaning } from '../vocabulary.ts';
import { listReadings } from './slots.ts';
import { exampleCommand, quote } from './wording.ts';

/** The metrics a ranking can be by, as every refusal about metrics lists them. */
export const metricList =
  'mentions, retweets (reposts), tweets (posts), impressions (reach), replies or HSG score';

/** `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** How a correction names a metric: `by HSG score`. */
export function byMetric(metric: Metric): string {
  return metric === 'hsg_score' ? 'by HSG score' : `by ${metric}`;
}

const formatMeaning: Readonly<Record<FormatWord, string>> = {
  export: 'asks for the ranking as a CSV file (export)',
  table: 'asks for the ranking as a table',
  chart: 'asks for the ranking as a bar chart',
  category_chart: "asks for a pie chart of the people's categories (chart categories)",
  list: 'asks for the ranking as a list',
};

/** What a known word would mean, for a refusal that found it among the words of a phrase. */
function meaningWords(word: string, meaning: WordMeaning): string {
  const shown = quote(word);
  switch (meaning.kind) {
    case 'politeness':
      return `${shown} is politeness I leave out`;
    case 'filler':
      return `${shown} says what every answer lists`;
    case 'metric':
      return `${shown} names what the ranking is by (${byMetric(meaning.metric)})`;
    case 'format':
      return `${shown} ${formatMeaning[meaning.format]}`;
    case 'other-metric':
    case 'followers':
      return `${shown} names a count to rank by`;
    case 'stakeholder':
      return `${shown} names who people are`;
    case 'trend':
      return `${shown} asks for a trend`;
    case 'vague-time':
      return `${shown} names a time`;
  }
}

export const vocabularyErrors = {
  /**
   * A known word among the words of an unquoted phrase: the phrase is no database unless quoted.
   * `phrase`: the phrase as typed, `word` the known word in it; `apart`: the rest of the phrase
   * when the word ends it and can be read, most likely after a database that was not quoted.
   */
  wordInPhrase(phrase: string, word: string, meaning: WordMeaning, apart?: string): ParseError {
    const quoted = `"${phrase.replace(/"/g, '')}"`;
    const head = `I can't read ${quote(phrase)}: ${meaningWords(word, meaning)}, so it is not part of a database.`;
    if (apart !== undefined) {
      const fixed = `"${apart.replace(/"/g, '')}" ${word}`;
      return new ParseError(
        'unrecognised',
        `${head} Put the database in quotes (${fixed}), or the whole phrase if it is one (${quoted}). Try: ${exampleCommand(`${fixed} last week`)}`,
        phrase,
        fixed,
      );
    }
    return new ParseError(
      'unrecognised',
      `${head} If ${quote(phrase)} is a database, put it in quotes: ${quoted}. Try: ${exampleCommand(`${quoted} last week`)}`,
      phrase,
      quoted,
    );
  },

  /** `quotable`: the word stood alone, and may be a database the person meant. */
  stakeholder(fragment: string, category: string, quotable: boolean): ParseError {
    const quoted = quotable
      ? ` If ${quote(fragment)} is a database, put it in quotes: "${fragment}".`
      : '';
    return new ParseError(
      'unrecognised',
      `${quote(fragment)} would keep only some people in the ranking (${category}): say it apart from the words of a database, as in \`#hcsm last week doctors\` (a digest keeps them too: \`digest #hcsm every monday doctors\`).${quoted} Try: ${exampleCommand('#hcsm last week only doctors')}`,
      fragment,
      '',
    );
  },

  /** `doctors excluding doctors`: `categories` both kept and left out. */
  contradictoryFilter(fragment: string, categories: readonly string[]): ParseError {
    return new ParseError(
      'unrecognised',
      `The filter keeps and leaves out the same people (${orList(categories)}), so nobody would be left: keep them (\`only doctors\`) or leave them out (\`excluding doctors\`), not both. Try: ${exampleCommand('#hcsm last week excluding pharma')}`,
      fragment,
    );
  },

  /**
   * `pharma non-pharma`: one clause keeps the people another leaves out. Keeping them or leaving
   * them out are both honest readings, each offered as the person's own request.
   */
  contradictoryFilterChoices(
    categories: readonly string[],
    readings: readonly Reading[],
    conversation: boolean,
  ): ChoicesError {
    return new ChoicesError(
      `The filter keeps and leaves out the same people (${orList(categories)}), so nobody would be left: which did you mean? ${listReadings(readings, conversation)}`,
      readings,
    );
  },

  followers(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `${quote(fragment)}: to rank by followers, say \`by followers\` (the top 500 by mentions, ranked by their followers; or by ${metricList}). Try: ${exampleCommand('#hcsm last week by followers')}`,
      fragment,
      'by followers',
    );
  },

  /** A count the service has no metric for (`likes`); `nearest` the metric for the command. */
  /**
   * `choices`: for a word that blends several counts (`engagement`), the person's command ranked
   * by each near one instead, asked about (`ChoicesError`, one button a count); the Try line gives
   * the first.
   */
  otherMetric(
    fragment: string,
    word: string,
    nearest: Metric,
    choices: readonly Reading[] = [],
  ): ParseError {
    const commands = choices.map((choice) => `\`${choice.command}\``);
    const choose =
      choices.length === 0
        ? ''
        : ` ${quote(word)} counts several of them together, and I rank by one: ${orList(commands)}.`;
    const message = `There is no ranking by ${word}: rank by ${metricList}.${choose} Try: ${exampleCommand(`#hcsm last week ${byMetric(nearest)}`)}`;
    return choices.length === 0
      ? new ParseError('unrecognised', message, fragment, byMetric(nearest))
      : new ChoicesError(message, choices, fragment, byMetric(nearest));
  },

  /** `by reposts and replies`: one ranking at a time, each offered as the person's command. */
  twoRankings(fragment: string, readings: readonly Reading[]): ChoicesError {
    const listed = readings.map((reading) => `${reading.meaning}: \`${reading.command}\``);
    return new ChoicesError(
      `${quote(fragment)} asks for two rankings, and I rank by one count at a time: which first? ${listed.join(' · ')}`,
      readings,
      fragment,
    );
  },

  /** `during ASCO`: an event whose dates change every year and are not known here. */
  undatedEvent(fragment: string, event: string): ParseError {
    const example = 'from Jun 1 to Jun 5';
    return new ParseError(
      'bad_time',
      `I don't know when ${event} is: its dates change every year. Say its first and last day and I'll read them, as in \`${example}\`. Try: ${exampleCommand(`#hcsm ${example}`)}`,
      fragment,
      example,
    );
  },

  trend(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `${quote(fragment)} asks how the ranking moves from one period to the next, which a lookup can't show yet: name the period instead (weekly, by day, by month), or compare one window with the one before (vs previous period). Try: ${exampleCommand('#hcsm last 8 weeks weekly')}`,
      fragment,
      'weekly',
    );
  },

  /** `recently`, `last few days`: `correction` the window the command shows instead. */
  vagueTime(fragment: string, correction = 'last 7 days'): ParseError {
    return new ParseError(
      'bad_time',
      `${quote(fragment)} has no agreed length: choose a window, such as last 24 hours, last 7 days or last 30 days. Try: ${exampleCommand(`#hcsm ${correction}`)}`,
      fragment,
      correction,
    );
  },
} as const;
