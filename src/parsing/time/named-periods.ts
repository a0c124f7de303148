/**
 * Periods people name by the calendar of their year rather than by dates: `Thanksgiving`, `Black
 * Friday`, `Breast Cancer Awareness Month`. One table says which days each covers in a year; the
 * year is the one the rest of a date would take (the most recent that has started, past bias).
 * Events whose dates change and are not known here (`ASCO`, `ESMO`) are asked about, never guessed.
 */
import type { Match } from '../grammar.ts';
import { vocabularyErrors } from '../messages/vocabulary.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import { type NamedPeriod, yearAfterDay } from './ast.ts';

/** The days a named period covers in a year: from `month`/`day`, `days` whole days. */
export interface NamedDays {
  readonly month: number;
  readonly day: number;
  readonly days: number;
}

/** ISO weekday (1 Monday to 7 Sunday) of a day of the proleptic Gregorian calendar. */
function weekdayOf(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCDay() === 0 ? 7 : date.getUTCDay();
}

/** US Thanksgiving: the fourth Thursday of November. */
function thanksgivingDay(year: number): number {
  return 1 + ((4 - weekdayOf(year, 11, 1) + 7) % 7) + 21;
}

interface NamedRow {
  /** The words as people type them, lower-case. */
  readonly words: readonly string[];
  readonly name: NamedPeriod;
}

const rows: readonly NamedRow[] = [
  { words: ['thanksgiving'], name: 'thanksgiving' },
  { words: ['black', 'friday'], name: 'black-friday' },
  { words: ['cyber', 'monday'], name: 'cyber-monday' },
  { words: ['breast', 'cancer', 'awareness', 'month'], name: 'breast-cancer-awareness-month' },
  { words: ['bcam'], name: 'breast-cancer-awareness-month' },
];

/** The first word of each row: most positions hold none, and are passed over at once. */
const firstWords: ReadonlySet<string> = new Set(rows.map((row) => row.words[0] ?? ''));

/**
 * Which days `name` covers in `year`. Thanksgiving runs over its long weekend, Thursday to Sunday;
 * Black Friday is the day after it and Cyber Monday the Monday after; Breast Cancer Awareness
 * Month is October.
 */
export function namedDays(name: NamedPeriod, year: number): NamedDays {
  switch (name) {
    case 'thanksgiving':
      return { month: 11, day: thanksgivingDay(year), days: 4 };
    case 'black-friday':
      return { month: 11, day: thanksgivingDay(year) + 1, days: 1 };
    case 'cyber-monday': {
      const day = thanksgivingDay(year) + 4;
      return day > 30 ? { month: 12, day: day - 30, days: 1 } : { month: 11, day, days: 1 };
    }
    case 'breast-cancer-awareness-month':
      return { month: 10, day: 1, days: 31 };
  }
}

/** Words after the name that say nothing more (`Thanksgiving weekend`, `Black Friday week`). */
const trailingWords: ReadonlySet<string> = new Set(['weekend', 'break', 'holiday']);

/** `Thanksgiving`, `Black Friday 2025`, `Breast Cancer Awareness Month` at `at`. */
export function matchNamedPeriod(
  tokens: readonly Token[],
  at: number,
):
  | Match<{ readonly kind: 'named'; readonly name: NamedPeriod; readonly year: number | undefined }>
  | undefined {
  if (!firstWords.has(lowerAt(tokens, at) ?? '')) return undefined;
  const row = rows.find((each) => each.words.every((word, i) => lowerAt(tokens, at + i) === word));
  if (row === undefined) return undefined;
  let next = at + row.words.length;
  if (row.name === 'thanksgiving' && trailingWords.has(lowerAt(tokens, next) ?? '')) next += 1;
  const year = yearAfterDay(tokens, next);
  return { value: { kind: 'named', name: row.name, year: year.value }, next: year.next };
}

/** Events whose dates change year to year and are not known here: meetings and congresses. */
const undatedEvents: ReadonlySet<string> = new Set([
  'asco',
  'esmo',
  'aacr',
  'sabcs',
  'himss',
  'ash',
  'jpm',
]);

/**
 * `during ASCO`: an event whose dates are not known here, after a word that asks for its time.
 * @throws ParseError asking for its dates; the Try keeps the rest of the person's request.
 */
export function rejectUndatedEvent(tokens: readonly Token[], at: number): void {
  const word = lowerAt(tokens, at);
  if (word === undefined || !undatedEvents.has(word)) return;
  const fragment = tokensText(tokens, at - 1, at + 1);
  throw vocabularyErrors.undatedEvent(fragment, tokens[at]?.text ?? word);
}
