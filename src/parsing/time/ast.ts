/**
 * What the time grammar reads, syntax only: a `TimeExpression` says what the person named without
 * deciding any instant. `evaluate.ts` gives it meaning at a `now` in a zone, so a grammar can read
 * the whole command (the zone may come last) before evaluating.
 */
import type { Match } from '../grammar.ts';
import { lowerAt, type Token } from '../tokens.ts';
import type { CalendarUnit, PartOfDay, Unit } from './vocabulary.ts';

/**
 * A calendar day. A missing year means the most recent one that has started (past bias), or at
 * the end of a range the first one on or after the range's start.
 */
export type DateRef =
  | {
      readonly kind: 'ymd';
      readonly year: number | undefined;
      readonly month: number;
      readonly day: number;
      /**
       * How a numeric date (`1/11/2026`) was read: `day-first` when the first number cannot be a
       * month, `month-first` when the second cannot, `either` when both can (read month first,
       * unless the other end of its range proves the other way).
       */
      readonly order?: NumericOrder;
    }
  /** yesterday -1, today 0, tomorrow 1. */
  | { readonly kind: 'relative-day'; readonly days: number }
  /**
   * `recent`: a bare weekday, read like a date without a year; `last`: the one before today;
   * `this`: in the current ISO week; `next`: the first after today.
   */
  | {
      readonly kind: 'weekday';
      readonly weekday: number;
      readonly which: 'recent' | 'last' | 'this' | 'next';
    };

/** A period the calendar of the year names (`named-periods.ts` says which days it covers). */
export type NamedPeriod =
  | 'thanksgiving'
  | 'black-friday'
  | 'cyber-monday'
  | 'breast-cancer-awareness-month';

export type NumericOrder = 'day-first' | 'month-first' | 'either';

export interface TimeOfDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** One time expression that names an instant or a span. */
export type Moment =
  | { readonly kind: 'now' }
  /** An instant fixed regardless of zone: ISO 8601 with an offset, unix seconds. */
  | { readonly kind: 'instant'; readonly epochSeconds: number }
  /**
   * A wall-clock time in the zone; without a date, the most recent such time. `offsetMinutes`
   * (`14:05 GMT`, `2pm +02:00`): the clock is read at that offset instead, and the offset wins.
   */
  | {
      readonly kind: 'local';
      readonly date: DateRef | undefined;
      readonly time: TimeOfDay;
      readonly offsetMinutes?: number;
      /** The day came after the time (`5pm yesterday`), so a range may share it. */
      readonly dateAfterTime?: boolean;
      /** No day was named: a range of times of day is today's (`noon to 2pm`). */
      readonly today?: boolean;
    }
  /** `2 weeks ago`: now minus the amount. */
  | { readonly kind: 'ago'; readonly amount: number; readonly unit: Unit }
  /** A whole day. */
  | { readonly kind: 'day'; readonly date: DateRef }
  | { readonly kind: 'month'; readonly year: number | undefined; readonly month: number }
  | { readonly kind: 'quarter'; readonly year: number | undefined; readonly quarter: number }
  /** `H1 2026`, `second half of 2025`: January to June, or July to December. */
  | { readonly kind: 'half'; readonly year: number | undefined; readonly half: 1 | 2 }
  /** `2026-W46`, `week 46`: that ISO week; without a year the most recent one that has started. */
  | { readonly kind: 'iso-week'; readonly year: number | undefined; readonly week: number }
  /** `this morning`, `last night`: the stated hours of that part of the day (`partsOfDay`). */
  | { readonly kind: 'part-of-day'; readonly date: DateRef; readonly part: PartOfDay }
  /** `2025`, `in 2025`: that whole calendar year. */
  | { readonly kind: 'year'; readonly year: number }
  /** `the last week of October`: its first or last seven days. */
  | {
      readonly kind: 'month-week';
      readonly year: number | undefined;
      readonly month: number;
      readonly which: 'first' | 'last';
    }
  /** `week of Nov 9`: the ISO week (Monday 00:00 to Monday 00:00) holding that day. */
  | { readonly kind: 'week-of'; readonly date: DateRef }
  /**
   * `last weekend` (-1), `this weekend` (0): Saturday 00:00 to Monday 00:00; `the weekend`,
   * `over the weekend` (`recent`): the one in progress, else the last one.
   */
  | { readonly kind: 'weekend'; readonly offset: number | 'recent' }
  /**
   * Days or months listed with a dash (`Sep 1-8`, `Jan-Mar`): from the start of the first to the
   * end of the last, which is read forward from the first.
   */
  | { readonly kind: 'through'; readonly first: Moment; readonly last: Moment }
  /** `last week` (-1), `this month` (0), `next year` (1): whole calendar periods. */
  | { readonly kind: 'calendar'; readonly unit: CalendarUnit; readonly offset: number }
  /**
   * `Thanksgiving`, `Black Friday`, `Breast Cancer Awareness Month` (`named-periods.ts`): the days
   * the calendar gives it in that year; without one the most recent that has started.
   */
  | { readonly kind: 'named'; readonly name: NamedPeriod; readonly year: number | undefined }
  /** `last 7 days`, `past 48 hours`, `48h`: now minus the amount, to now. */
  | { readonly kind: 'rolling'; readonly amount: number; readonly unit: Unit };

export type TimeExpression =
  | { readonly kind: 'period'; readonly moment: Moment }
  | { readonly kind: 'since'; readonly start: Moment }
  /**
   * Whatever joins the ends (`to`, `until`, a dash, `and`, `through`), the end is the end of what
   * it names: a day, month or other period whole, an instant exactly.
   */
  | { readonly kind: 'range'; readonly start: Moment; readonly end: Moment };

/**
 * Where a moment stands. Only an `endpoint` (after from, since, between, and, to, through) may be
 * unix seconds; a bare abbreviation (`sun`, `sat`, `mar`) is a time only when something around it
 * says so (an endpoint, or `on`/`in`), because alone it is more often a word of a phrase.
 */
export type MomentContext = 'free' | 'endpoint' | 'prefixed';

/** A year 1900 to 2099 at `at`; other numbers are database IDs or days. */
export function yearAt(tokens: readonly Token[], at: number): number | undefined {
  const word = lowerAt(tokens, at);
  if (word === undefined || !/^(19|20)\d\d$/.test(word)) return undefined;
  return Number(word);
}

/**
 * The year that may close a day's date at `at`, a comma allowed before it (`Sep 9, 2026`, `Sep 1-8
 * 2026`); without one, `next` stays at `at` so the comma is left to what follows.
 */
export function yearAfterDay(tokens: readonly Token[], at: number): Match<number | undefined> {
  const yearFrom = tokens[at]?.kind === 'comma' ? at + 1 : at;
  const year = yearAt(tokens, yearFrom);
  return { value: year, next: year === undefined ? at : yearFrom + 1 };
}
