/**
 * The sentences of a trend (`weekly`, `by day`) and of one person's lookup (`@DrFerreiraI in
 * #hcsm`): what was wrong, the fragment as typed, and a command that would work.
 */
import { ParseError } from '../../errors.ts';
import { type TrendUnit, trendPeriodRange } from '../../model/lookup.ts';
import { exampleCommand, quote } from './wording.ts';

/** A trend that works, by unit: as many periods as a chart reads well. */
export const trendExamples: Readonly<Record<TrendUnit, string>> = {
  day: '#hcsm last 14 days daily',
  week: '#hcsm last 8 weeks weekly',
  month: '#hcsm last 6 months monthly',
};

const personExample = '@DrFerreiraI in #hcsm last month';

/** The trend nearest an unsupported one (`fortnightly` -> `weekly`), for the person's own command. */
function nearestTrend(fragment: string): string {
  if (/hour/i.test(fragment)) return 'daily';
  if (/fortnight|biweek/i.test(fragment)) return 'weekly';
  return 'monthly';
}

export const trendErrors = {
  unsupportedUnit(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `A trend goes by day, week or month: ${quote(fragment)} is none of them. Try: ${exampleCommand(trendExamples.week)}`,
      fragment,
      nearestTrend(fragment),
    );
  },

  /** `count` is one past the most when there are more. */
  tooManyPeriods(fragment: string, unit: TrendUnit): ParseError {
    const longer = unit === 'day' ? 'week' : 'month';
    return new ParseError(
      'bad_time',
      `A trend shows at most ${trendPeriodRange.max} periods, and ${quote(fragment)} holds more than ${trendPeriodRange.max} ${unit}s: ask for a shorter window${unit === 'month' ? '' : `, or go by ${longer}`}. Try: ${exampleCommand(trendExamples[unit])}`,
      fragment,
    );
  },

  tooFewPeriods(fragment: string, unit: TrendUnit, count: number): ParseError {
    const holds =
      count === 0 ? `no ${unit} that begins in it` : `only one ${unit} that begins in it`;
    return new ParseError(
      'bad_time',
      `A trend needs at least ${trendPeriodRange.min} ${unit}s to compare, and ${quote(fragment)} holds ${holds}: ask for a longer window. Try: ${exampleCommand(trendExamples[unit])}`,
      fragment,
    );
  },

  /** An option that a trend has no use for: a comparison, the category chart, a person. */
  notWithTrend(fragment: string, why: string, unit: TrendUnit): ParseError {
    return new ParseError(
      'unrecognised',
      `${why}: leave out ${quote(fragment)}. Try: ${exampleCommand(trendExamples[unit])}`,
      fragment,
    );
  },

  tooManyPeople(fragment: string, max: number, unit: TrendUnit): ParseError {
    return new ParseError(
      'bad_top',
      `A trend’s table shows at most ${max} people, and ${quote(fragment)} asks for more. Try: ${exampleCommand(`${trendExamples[unit]} top ${max}`)}`,
      fragment,
    );
  },
};

export const personErrors = {
  badHandle(fragment: string, example = personExample): ParseError {
    return new ParseError(
      'unrecognised',
      `${quote(fragment)} is not an X handle: a handle is @ and up to 15 letters, digits or underscores. Try: ${exampleCommand(example)}`,
      fragment,
    );
  },

  twoPeople(first: string, second: string): ParseError {
    return new ParseError(
      'unrecognised',
      `One person at a time: ${quote(first)} and ${quote(second)} are two. Try: ${exampleCommand(personExample)}`,
      second,
    );
  },

  /** A digest naming one account: a watch is what follows one. */
  watchOnly(handle: string): ParseError {
    return new ParseError(
      'unrecognised',
      `To follow one account, watch it: a watch of @${handle} sends you a DM when it enters or leaves the top 10. Try: ${exampleCommand(`watch @${handle} in #hcsm`)}`,
      `@${handle}`,
    );
  },

  /** An option a person's answer has no use for (`top 20`, `table`, `export`, a trend). */
  notForPerson(fragment: string): ParseError {
    return new ParseError(
      'unrecognised',
      `A lookup of one person gives their rank among the top 500, the change since the previous period and their rank in each of the last 8 weeks: leave out ${quote(fragment)}. Try: ${exampleCommand(personExample)}`,
      fragment,
    );
  },
};
