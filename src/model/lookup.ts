import type { Metric } from './metrics.ts';
import type { Presentation } from './presentation.ts';
import type { StakeholderFilter } from './stakeholders.ts';

/** A lookup the parser understood: exactly what will be asked of the analytics service. */
export interface LookupRequest {
  /** Spec `databases` items in the user's order, duplicates dropped: `#hcsm`, `breast cancer`, `4711`, `group:Oncology`. */
  readonly databases: readonly string[];
  /** ISO 8601 with the zone's offset, to the second: `2026-11-14T00:00:00-05:00`. */
  readonly start: string;
  readonly end: string;
  /** Canonical IANA name (`Europe/Paris`) or `UTC`. */
  readonly timezone: string;
  /** How many influencers to show, 1..50. */
  readonly top: number;
  /**
   * The window to compare with (`vs previous period`, `vs last year`, `vs Q2`), in the same form
   * as `start` and `end`; absent when none was asked for.
   */
  readonly compare?: { readonly start: string; readonly end: string };
  /** The metric to rank by (`by mentions`, `ranked by reach`); absent for the service's default. */
  readonly metric?: Metric;
  /** How to show the ranking (`table`, `chart`, `chart categories`); absent for the list. */
  readonly presentation?: Presentation;
  /**
   * Who to keep (`doctors`, `no pharma`): the service cannot filter by stakeholder category, so
   * the top of its ranking (its most, 500) is asked for and filtered here. Absent: everyone.
   */
  readonly stakeholders?: StakeholderFilter;
  /**
   * `by followers`: the service cannot rank by follower count, so the top 500 by `metric`
   * (mentions unless named) are ranked here by their followers.
   */
  readonly orderBy?: 'followers';
  /** The person asked for the whole ranking as a CSV file (`export`, `csv`). */
  readonly export?: boolean;
  /**
   * The name the person gave the zone when it is not the zone's own (`EST`, `Boston`), so the
   * answer can say how it was read; absent otherwise.
   */
  readonly zoneAlias?: string;
  /**
   * A trend (`weekly`, `by day`, `per month`): one ranking per period of `trend.unit`, shown as
   * each person's rank over time. `start` and `end` then span exactly those periods: `start` opens
   * the first and every period is a whole unit in `timezone`, except the last one when `end` cuts
   * it short (the current period, so far): `time/periods.ts` reads them back.
   */
  readonly trend?: Trend;
  /**
   * One person (`@DrFerreiraI in #hcsm`): their place in the whole ranking of the window, of
   * `compare`'s window (the previous period unless another was asked for) and of each of the last
   * {@link personWeeks} weeks. The X screen name as typed, without its `@`.
   */
  readonly person?: string;
  /**
   * Loose words beside a database that says it is one (`#hcsm conversation`): not looked up, so
   * the answer can say they were left out and offer to add them as a database. Absent when none.
   */
  readonly leftOut?: readonly string[];
}

/** The units a trend counts periods in: whole days and calendar months in the zone, ISO weeks. */
export const trendUnits = ['day', 'week', 'month'] as const;
export type TrendUnit = (typeof trendUnits)[number];

export interface Trend {
  readonly unit: TrendUnit;
}

/**
 * How many periods a trend may hold: one chart point each, and Slack's line charts show about 20
 * points a series at most.
 */
export const trendPeriodRange = { min: 2, max: 20 } as const;

/** The weeks a person's answer shows their rank in: the current ISO week and those before it. */
export const personWeeks = 8;

/**
 * How deep every question of a trend or a person's answer reads a ranking: the service's most.
 * A person's rank is known wherever they are among these, and questions of one window asked for
 * either are the same question (shared in flight and cached).
 */
export const wholeRankingLimit = 500;

export interface ParseDefaults {
  /** Window when the text names no time: now minus this many days, to now. Default 7. */
  readonly windowDays?: number;
  /** Default 10. */
  readonly top?: number;
  /** Default 10. */
  readonly maxDatabases?: number;
}

export interface ParseContext {
  /** The reference instant; parsing never reads the clock. */
  readonly now: Date;
  /** The caller's zone (Slack profile zone), used unless the text names one. IANA name or UTC. */
  readonly zone: string;
  readonly defaults?: ParseDefaults;
  /**
   * The first day with data, `YYYY-MM-DD`: a window starting before it in the request's zone is
   * refused. Default {@link earliestDataDate}.
   */
  readonly earliestDate?: string;
  /**
   * True for text written to the bot in a DM, a mention or the console's DM mode: a question's
   * opening is left out (`who drove #hcsm last week?`) and examples in errors are the bare text.
   * Otherwise (the slash command) such an opening is refused with a hint.
   */
  readonly conversation?: boolean;
  /**
   * The person's Slack locale (`en-GB`, `en-US`), when known: it says whether `3/11/2026` is the
   * 3rd of November or March 11. Without one, a request whose numeric dates read two honest ways
   * is asked about (`ChoicesError`).
   */
  readonly locale?: string;
}

/** The first public post on the platform the analytics service reads: nothing starts earlier. */
export const earliestDataDate = '2006-03-21';
