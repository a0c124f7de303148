/**
 * Words no unquoted phrase database may contain. The grammars read these words as times, ranges,
 * schedules or options; when one is left over inside a phrase, the grammar could not read it that
 * way, and taking the phrase as a database would silently answer for the wrong window. So the
 * command is refused, quoting the phrase: the person either rewrites the time or puts the phrase
 * in quotes (`"cancer in children"`), which always makes it a database.
 *
 * The list holds only words with a grammar meaning, so phrases without them (`breast cancer`,
 * `patient safety`, `type 2 diabetes`, `clinical trials`) still need no quotes. `and` counts only
 * when a time follows it (`9am and 5pm`), so `diet and exercise` stays a phrase.
 */
import { zoneAbbreviations } from '../time/zone-places.ts';
import { perWord } from './per-word.ts';
import { months, rangeSeparators, weekdays } from './time/vocabulary.ts';

/** The words that open or join a time range (`and` too, in `between … and …`). */
export const rangeWords: ReadonlySet<string> = new Set([
  ...rangeSeparators,
  'from',
  'since',
  'between',
  'and',
]);

const grammarWords = [
  // Ranges (`and` is handled apart: it is reserved only before a time).
  ...[...rangeWords].filter((word) => word !== 'and'),
  // Prepositions the time and option clauses start with.
  'at',
  'on',
  'in',
  'over',
  'for',
  'during',
  // Relative periods.
  'this',
  'last',
  'past',
  'next',
  'previous',
  'prior',
  'within',
  'current',
  'ago',
  'now',
  'today',
  'yesterday',
  'tomorrow',
  'tonight',
  'overnight',
  'ytd',
  'mtd',
  'qtd',
  'wtd',
  // Units and parts of the day.
  'minute',
  'minutes',
  'hour',
  'hours',
  'day',
  'days',
  'week',
  'weeks',
  'weekend',
  'weekends',
  'weekday',
  'weekdays',
  'fortnight',
  'fortnights',
  'month',
  'months',
  'quarter',
  'quarters',
  'year',
  'years',
  'night',
  'nights',
  'morning',
  'mornings',
  'afternoon',
  'afternoons',
  'evening',
  'evenings',
  'noon',
  'midday',
  'midnight',
  // Comparisons and rankings.
  'vs',
  'versus',
  'by',
  // Zones and options.
  'tz',
  'timezone',
  'utc',
  'gmt',
  'z',
  'top',
  'limit',
  // A digest's option (`canvas`, `canvas off`): beside a filter it ends the filter's words.
  'canvas',
  // Schedules.
  'every',
  'each',
  'daily',
  'weekly',
  'monthly',
  'hourly',
  'biweekly',
  'fortnightly',
  'bimonthly',
  'cron',
];

const reserved: ReadonlySet<string> = new Set([
  ...grammarWords,
  ...[...zoneAbbreviations.keys()].filter((abbreviation) => abbreviation.length >= 3),
  ...months.keys(),
  ...weekdays.keys(),
  ...[...weekdays.keys()].filter((w) => !w.endsWith('.')).map((w) => `${w}s`),
]);

/** `9th`, `1st`, `22nd`: ordinals are days of a month here. */
const ordinal = /^\d{1,3}(st|nd|rd|th)$/;
/** Clock times, offsets and glued shorthands: `9am`, `14:05`, `+02:00`, `48h`, `top10`. */
const timeShaped = /^(\d{1,2}(:\d{2})?([ap]\.?m\.?)|[+-]\d{2}:?\d{2}|(top|limit)\d+)$/;

/**
 * True for a word the grammars keep for times, ranges, schedules and options, in any case and
 * with trailing punctuation ignored (`Monday,` `sept.`).
 */
export const isReservedWord: (word: string) => boolean = perWord(readsAsReserved);

function readsAsReserved(word: string): boolean {
  const lower = word.toLowerCase();
  if (reserved.has(lower)) return true;
  const bare = lower.replace(/[.!?;:]+$/, '');
  if (reserved.has(bare) || ordinal.test(bare) || timeShaped.test(bare)) return true;
  // "28-Dec", "mon-fri", "9am-5pm": a glued part is as telling as a word ("covid-19" is not).
  return (
    bare.includes('-') && bare.split('-').some((part) => part !== bare && isReservedWord(part))
  );
}

/** Every reserved word, for tests and documentation. */
export const reservedWords: readonly string[] = [...reserved].sort();
