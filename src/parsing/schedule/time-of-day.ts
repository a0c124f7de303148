/** The time of day a schedule runs at, and the part of the day its words may name. */
import { ParseError } from '../../errors.ts';
import type { Match } from '../grammar.ts';
import { digestErrors } from '../messages/digest.ts';
import type { TimeOfDay } from '../time/ast.ts';
import { matchTimeOfDay } from '../time/clock.ts';
import { lowerAt, type Token, tokensText } from '../tokens.ts';
import type { DayPart, ScheduleClause, ScheduleDays } from './clause.ts';

const partWords: ReadonlyMap<string, DayPart> = new Map([
  ['morning', 'morning'],
  ['mornings', 'morning'],
  ['afternoon', 'afternoon'],
  ['afternoons', 'afternoon'],
  ['evening', 'evening'],
  ['evenings', 'evening'],
]);

const nightWords: ReadonlySet<string> = new Set(['night', 'nights', 'tonight']);

/**
 * The schedule's days, then an optional part of the day (`morning`, `in the evening`) and an
 * optional `[at] <time>` right after them. `part`: the days' own words named one (`every
 * morning`).
 */
export function withTime(
  tokens: readonly Token[],
  at: number,
  days: ScheduleDays,
  part: DayPart | false,
): Match<ScheduleClause> {
  let dayPart: DayPart | undefined = part === false ? undefined : part;
  let i = at;
  if (dayPart === undefined) {
    const inThe = lowerAt(tokens, i) === 'in' && lowerAt(tokens, i + 1) === 'the' ? i + 2 : i;
    const word = lowerAt(tokens, inThe) ?? '';
    // "every friday night": no single start, and never dropped.
    if (nightWords.has(word) && !/^\d/.test(lowerAt(tokens, inThe + 1) ?? '')) {
      const timed = lowerAt(tokens, inThe + 1) === 'at';
      if (!timed) throw digestErrors.nightInSchedule(tokensText(tokens, at - 1, inThe + 1));
    }
    dayPart = partWords.get(word);
    if (dayPart !== undefined) i = inThe + 1;
    else if (nightWords.has(word)) i = inThe + 1;
  }
  const morning = part === 'morning';
  const parts = dayPart === undefined ? {} : { dayPart };
  const hasAt = lowerAt(tokens, i) === 'at';
  const time = readTime(tokens, hasAt ? i + 1 : i, hasAt);
  if (time === undefined) {
    return {
      value: { days, time: undefined, timeFragment: undefined, morning, ...parts },
      next: i,
    };
  }
  const timeFragment = tokensText(tokens, i, time.next);
  return { value: { days, time: time.value, timeFragment, morning, ...parts }, next: time.next };
}

const bareHour = /^\d{1,2}$/;

/**
 * A time of day at `at`. `committed` (after `at`): a bare hour is read on the 24-hour clock and
 * anything unreadable is an error; otherwise only unmistakable times (`9am`, `17:30`, `noon`).
 */
export function readTime(
  tokens: readonly Token[],
  at: number,
  committed: boolean,
): Match<TimeOfDay> | undefined {
  let time: Match<TimeOfDay> | undefined;
  try {
    time = matchTimeOfDay(tokens, at);
  } catch (error) {
    if (error instanceof ParseError)
      throw digestErrors.badTimeOfDay(error.fragment ?? tokensText(tokens, at, at + 1));
    throw error;
  }
  const word = lowerAt(tokens, at);
  if (time === undefined && committed && word !== undefined && bareHour.test(word)) {
    const hour = Number(word);
    if (hour > 23) throw digestErrors.badTimeOfDay(tokensText(tokens, at - 1, at + 1));
    time = { value: { hour, minute: 0, second: 0 }, next: at + 1 };
  }
  if (time === undefined) {
    if (committed) throw digestErrors.badTimeOfDay(tokensText(tokens, at - 1, at + 1));
    return undefined;
  }
  if (time.value.second !== 0) throw digestErrors.secondsInTime(tokensText(tokens, at, time.next));
  return time;
}
