/**
 * A trend in a lookup: `weekly`, `daily`, `monthly`, `by week`, `per day`, `each month`, `week by
 * week` (with `trend` before or after: `weekly trend`, `trend by week`): one ranking per period of
 * that unit, shown as each person's rank over time.
 *
 * Decisions (the tests hold each):
 * - The periods are the units that begin within the window, each whole, the last one cut at the
 *   current minute while it runs (`time/periods.ts`); the request's window becomes exactly their
 *   span. So `last 8 weeks weekly` is this week so far and the seven before it.
 * - Without a window a trend covers the last 14 days, 8 weeks or 6 months.
 * - A trend holds 2 to 20 periods; anything else is refused, saying how many it would hold.
 * - `hourly`, `yearly`, `by quarter`… are refused: a trend goes by day, week or month.
 * - A trend compares its periods itself: `vs …`, `chart categories` and a person are refused with
 *   it; `table` and `chart` say what it shows anyway and are dropped; `top N` is the people in the
 *   latest period's top N (up to a table's 100), and an export holds the same people.
 */
import { type TrendUnit, trendPeriodRange } from '../model/lookup.ts';
import type { Presentation } from '../model/presentation.ts';
import { periodSpan } from '../time/periods.ts';
import type { Matcher } from './grammar.ts';
import { personErrors, trendErrors } from './messages/trend.ts';
import { lookupTopRange } from './options.ts';
import { checkEarliest, type TimeContext, type TimeWindow, zonedNow } from './time/evaluate.ts';
import { lowerAt, tokensText } from './tokens.ts';

const adjectives: ReadonlyMap<string, TrendUnit> = new Map([
  ['daily', 'day'],
  ['weekly', 'week'],
  ['monthly', 'month'],
]);
const nouns: ReadonlyMap<string, TrendUnit> = new Map([
  ['day', 'day'],
  ['days', 'day'],
  ['week', 'week'],
  ['weeks', 'week'],
  ['month', 'month'],
  ['months', 'month'],
]);
/** Units a trend does not go by, as adjectives and after `by`. */
const otherAdjectives: ReadonlySet<string> = new Set([
  'hourly',
  'quarterly',
  'yearly',
  'annually',
  'fortnightly',
  'biweekly',
]);
const otherNouns: ReadonlySet<string> = new Set([
  'hour',
  'hours',
  'quarter',
  'quarters',
  'year',
  'years',
]);
const perWords: ReadonlySet<string> = new Set(['by', 'per', 'each', 'every']);
/** `week to week`, `month over month`: the unit said twice. */
const unitJoiners: ReadonlySet<string> = new Set(['to', 'over', 'on', 'by']);
const trendNouns: ReadonlySet<string> = new Set(['trend', 'trends']);

/**
 * `weekly`, `by week`, `per day`, `each month`, `week by week`, and `trend`/`trends` before or
 * after any of them -> the unit.
 * @throws ParseError for a unit a trend does not go by (`hourly`, `by quarter`).
 */
export const matchTrend: Matcher<TrendUnit> = (tokens, at) => {
  const lead = trendNouns.has(lowerAt(tokens, at) ?? '') ? at + 1 : at;
  const word = lowerAt(tokens, lead);
  if (word === undefined) return undefined;
  let unit: TrendUnit | undefined;
  let next = lead;
  const second = lowerAt(tokens, lead + 1) ?? '';
  if (adjectives.has(word)) {
    unit = adjectives.get(word);
    next = lead + 1;
  } else if (perWords.has(word) && nouns.has(second)) {
    unit = nouns.get(second);
    next = lead + 2;
  } else if (nouns.has(word) && unitJoiners.has(second) && lowerAt(tokens, lead + 2) === word) {
    unit = nouns.get(word);
    next = lead + 3;
  } else if (otherAdjectives.has(word) || (perWords.has(word) && otherNouns.has(second))) {
    const end = otherAdjectives.has(word) ? lead + 1 : lead + 2;
    throw trendErrors.unsupportedUnit(tokensText(tokens, at, end));
  }
  if (unit === undefined) return undefined;
  if (lead === at && trendNouns.has(lowerAt(tokens, next) ?? '')) next += 1;
  return { value: unit, next };
};

/** How many periods a trend covers when the lookup names no window. */
const defaultPeriods: Readonly<Record<TrendUnit, number>> = { day: 14, week: 8, month: 6 };

const plural = { day: 'days', week: 'weeks', month: 'months' } as const;

/**
 * The window of a trend by `unit`: the span of its periods in `window` (the one the lookup named),
 * or, when it named none (`named` false), in the last {@link defaultPeriods} of the unit. Starts
 * no earlier than `earliest`.
 * @param fragment the window as typed (or the trend, when no window was), quoted by errors.
 * @throws ParseError when it holds fewer than 2 periods or more than 20.
 */
export function trendWindow(
  unit: TrendUnit,
  window: TimeWindow,
  named: boolean,
  context: TimeContext & { readonly earliest: string },
  fragment: string,
): TimeWindow {
  const now = zonedNow(context);
  const asked = named
    ? window
    : (() => {
        const end = now.startOf('minute');
        return { start: end.minus({ [plural[unit]]: defaultPeriods[unit] }), end };
      })();
  const span = periodSpan(asked, unit, now);
  if (span.count < trendPeriodRange.min)
    throw trendErrors.tooFewPeriods(fragment, unit, span.count);
  if (span.count > trendPeriodRange.max) throw trendErrors.tooManyPeriods(fragment, unit);
  return checkEarliest({ start: span.start, end: span.end }, context.earliest, fragment);
}

interface Fragment<T> {
  readonly value: T;
  readonly fragment: string;
}

/**
 * Refuses what a trend cannot be shown with: a comparison, the category chart, a person, more
 * people than its table holds.
 */
export function checkTrendOptions(
  trend: Fragment<TrendUnit>,
  others: {
    readonly compare: Fragment<unknown> | undefined;
    readonly presentation: Fragment<Presentation> | undefined;
    readonly top: Fragment<number> | undefined;
    readonly person: Fragment<string> | undefined;
  },
): void {
  const unit = trend.value;
  if (others.person !== undefined) throw personErrors.notForPerson(trend.fragment);
  if (others.compare !== undefined) {
    throw trendErrors.notWithTrend(
      others.compare.fragment,
      'A trend compares its periods with one another already',
      unit,
    );
  }
  if (others.presentation?.value === 'category_chart') {
    throw trendErrors.notWithTrend(
      others.presentation.fragment,
      'A trend comes as a table of ranks and a line chart of the top five',
      unit,
    );
  }
  if (others.top !== undefined && others.top.value > lookupTopRange.tableMax) {
    throw trendErrors.tooManyPeople(others.top.fragment, lookupTopRange.tableMax, unit);
  }
}
