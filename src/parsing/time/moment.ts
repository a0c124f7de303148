/**
 * One moment or span at a position: the dispatcher that tries each reading (relative words,
 * periods, dates, times of day, and chrono-node last) in the order that keeps the common
 * phrasings fast and unambiguous.
 */
import type { Match } from '../grammar.ts';
import { parseErrors } from '../messages/lookup.ts';
import { vocabularyErrors } from '../messages/vocabulary.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import type { Moment, MomentContext } from './ast.ts';
import { matchChronoDate } from './chrono-dates.ts';
import { matchTimeOfDay, withOffset } from './clock.ts';
import { matchDate, matchRelativeDay, matchWeekday } from './dates.ts';
import { matchNamedPeriod, rejectUndatedEvent } from './named-periods.ts';
import {
  calendar,
  matchAmount,
  matchHalf,
  matchIsoWeek,
  matchQuarter,
  matchRelativePeriod,
  matchUnitPeriod,
  matchYear,
} from './periods.ts';
import { type CalendarUnit, units, weekdays } from './vocabulary.ts';

const startsReading = /^[a-z\d]/;

/**
 * How many readings one moment may nest (`in` `the` `week of` `2pm on` `Sep 9`): each prefix reads
 * the moment after it, and a bound keeps what one position reads, and the stack, independent of
 * the text (`in in in …`, `week of week of …` would otherwise read to its end from every word).
 */
const maxNesting = 4;

/**
 * One moment or span at `at`. Exported for grammars that want a single time (a digest's window)
 * rather than a range. `depth`: how many prefixes led here.
 */
export function matchMoment(
  tokens: readonly Token[],
  at: number,
  context: MomentContext,
  depth = 0,
): Match<Moment> | undefined {
  const token = tokens[at];
  if (token?.kind !== 'word' || depth > maxNesting) return undefined;
  const inner = depth + 1;
  const word = token.lower;
  // Every reading starts with a letter or a digit: a hashtag, a mention or a symbol is none.
  if (!startsReading.test(word)) return undefined;

  switch (word) {
    case 'on': {
      const m = matchMoment(tokens, at + 1, 'prefixed', inner);
      const days =
        m?.value.kind === 'day' || m?.value.kind === 'local' || m?.value.kind === 'named';
      return days ? m : undefined;
    }
    case 'in':
    case 'during':
    case 'within':
    case 'over':
    case 'for': {
      if (word === 'during' || word === 'over') rejectUndatedEvent(tokens, at + 1);
      const past = pastUnit(tokens, at + 1);
      if (past !== undefined) return past;
      const m = matchMoment(tokens, at + 1, 'prefixed', inner);
      return m !== undefined && isSpan(m.value) ? m : undefined;
    }
    case 'tonight':
    case 'overnight':
      throw parseErrors.partOfDay(token.text);
    case 'the': {
      const m = matchMoment(tokens, at + 1, context === 'free' ? 'prefixed' : context, inner);
      return m !== undefined && m.value.kind !== 'now' ? m : undefined;
    }
    case 'now':
      return { value: { kind: 'now' }, next: at + 1 };
    case 'right':
      // "right now": the end of a range, or alone the question of which window came before it.
      if (lowerAt(tokens, at + 1) !== 'now') return undefined;
      if (context === 'free') {
        throw vocabularyErrors.vagueTime(tokensText(tokens, at, at + 2), 'last 24 hours');
      }
      return { value: { kind: 'now' }, next: at + 2 };
    case 'weekend':
      // Alone it is a word; `the weekend`, `over the weekend` name the most recent one.
      if (context === 'free') return undefined;
      return { value: { kind: 'weekend', offset: 'recent' }, next: at + 1 };
    case 'today':
    case 'yesterday':
    case 'tomorrow':
      return matchRelativeDay(tokens, at, word);
    case 'day':
      // "the day before yesterday".
      if (lowerAt(tokens, at + 1) === 'before' && lowerAt(tokens, at + 2) === 'yesterday') {
        const date = { kind: 'relative-day', days: -2 } as const;
        return { value: { kind: 'day', date }, next: at + 3 };
      }
      return undefined;
    case 'start':
    case 'beginning':
      // "since the start of the month": from where that period starts.
      return context === 'free' ? undefined : matchStartOf(tokens, at);
    case 'year-to-date':
    case 'ytd':
      return calendar('year', 0, at + 1);
    case 'quarter-to-date':
    case 'qtd':
      return calendar('quarter', 0, at + 1);
    case 'month-to-date':
    case 'mtd':
      return calendar('month', 0, at + 1);
    case 'week-to-date':
    case 'wtd':
      return calendar('week', 0, at + 1);
    case 'all':
      // "all time": back to the first data, which a window names better.
      if (lowerAt(tokens, at + 1) === 'time')
        throw parseErrors.allTime(tokensText(tokens, at, at + 2));
      return undefined;
    case 'prior':
    case 'preceding':
      return matchRelativePeriod(tokens, at, 'previous');
    case 'rolling':
    case 'trailing': {
      // `rolling 30 days`, `trailing 4 weeks`: the amount back from now, never a calendar unit.
      const amount = matchAmount(tokens, at + 1);
      return amount?.value.kind === 'rolling' ? amount : undefined;
    }
    case 'last':
    case 'previous':
    case 'past':
    case 'this':
    case 'current':
    case 'next':
      return matchRelativePeriod(tokens, at, word);
    case 'year':
    case 'quarter':
    case 'month':
    case 'week':
    case 'wk':
    case 'kw':
    case 'cw':
      if (lowerAt(tokens, at + 1) === 'of') {
        const day = matchMoment(tokens, at + 2, 'prefixed', inner);
        if (day === undefined || day.value.kind !== 'day') return undefined;
        return { value: { kind: 'week-of', date: day.value.date }, next: day.next };
      }
      return matchUnitPeriod(tokens, at, weekWords.has(word) ? 'week' : (word as CalendarUnit));
    case 'first':
    case 'second':
      return matchHalf(tokens, at);
  }

  if (context === 'endpoint' && /^\d{9,11}$/.test(word)) {
    return { value: { kind: 'instant', epochSeconds: Number(word) }, next: at + 1 };
  }

  const named = matchNamedPeriod(tokens, at);
  if (named !== undefined) return named;

  const weekday = weekdays.get(word);
  if (weekday !== undefined) return matchWeekday(tokens, at, weekday, context);

  return (
    matchDate(tokens, at) ??
    matchAmount(tokens, at) ??
    matchQuarter(tokens, at) ??
    matchIsoWeek(tokens, at) ??
    matchYear(tokens, at, context) ??
    matchTimeFirst(tokens, at, inner) ??
    matchChronoDate(tokens, at)
  );
}

/** `wk 46`, and the German and ISO calendar weeks `KW 46`, `CW 46`. */
const weekWords: ReadonlySet<string> = new Set(['wk', 'kw', 'cw']);

/**
 * `in the last week`, `over the past month`: in English the span back from now, not the
 * calendar unit before (`last week` alone is the ISO week before this one).
 */
function pastUnit(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  const which = lowerAt(tokens, at + 1);
  if (lowerAt(tokens, at) !== 'the' || (which !== 'last' && which !== 'past')) return undefined;
  const word = lowerAt(tokens, at + 2) ?? '';
  const unit = units.get(word);
  if (unit === undefined || word.length < 3 || lowerAt(tokens, at + 3) === 'of') return undefined;
  return { value: { kind: 'rolling', amount: 1, unit }, next: at + 3 };
}

const isSpan = (m: Moment): boolean =>
  m.kind === 'weekend' ||
  m.kind === 'month' ||
  m.kind === 'quarter' ||
  m.kind === 'half' ||
  m.kind === 'iso-week' ||
  m.kind === 'year' ||
  m.kind === 'calendar' ||
  m.kind === 'rolling' ||
  m.kind === 'month-week' ||
  m.kind === 'named' ||
  m.kind === 'through';

const startUnits: ReadonlyMap<string, CalendarUnit> = new Map<string, CalendarUnit>([
  ['week', 'week'],
  ['month', 'month'],
  ['quarter', 'quarter'],
  ['year', 'year'],
]);

/**
 * `start of the month`, `beginning of this year`, `start of last week`: that calendar period,
 * whose start a range reads.
 */
function matchStartOf(tokens: readonly Token[], at: number): Match<Moment> | undefined {
  if (lowerAt(tokens, at + 1) !== 'of') return undefined;
  let i = at + 2;
  const which = lowerAt(tokens, i);
  let offset = 0;
  if (which === 'the' || which === 'this' || which === 'current') i++;
  else if (which === 'last' || which === 'previous') {
    offset = -1;
    i++;
  }
  const unit = startUnits.get(lowerAt(tokens, i) ?? '');
  return unit === undefined ? undefined : calendar(unit, offset, i + 1);
}

/** A time first: `2pm`, `9:30 yesterday`, `14:05 on Sep 9`. */
function matchTimeFirst(
  tokens: readonly Token[],
  at: number,
  depth: number,
): Match<Moment> | undefined {
  const start = lowerAt(tokens, at) === 'at' ? at + 1 : at;
  const time = matchTimeOfDay(tokens, start);
  if (time === undefined) return undefined;
  const dateAt = lowerAt(tokens, time.next) === 'on' ? time.next + 1 : time.next;
  const dated = matchMoment(tokens, dateAt, 'prefixed', depth);
  if (dated !== undefined && dated.value.kind === 'day') {
    const m = withOffset(tokens, dated.next, dated.value.date, time.value);
    return { value: { ...m.value, dateAfterTime: true } as Moment, next: m.next };
  }
  return withOffset(tokens, time.next, undefined, time.value);
}
