/**
 * A ranking as every view of it reads it: the list, the table, the charts, the CSV file, a digest.
 * The rows in rank order with their cleaned names, and, when compared, each row's place in the
 * previous period and who dropped out, from the one comparison digests use too.
 */
import type { Influencer, InfluencersResult, Metric } from '../../analytics/types.ts';
import { compareRankings } from '../../model/rank-changes.ts';
import { cleanText, truncate } from '../format.ts';
import { metricValue } from './metric-words.ts';

/** Per-part bounds shared by every view: no one name can fill a message on its own. */
const maxNameLength = 64;
const maxHandleLength = 50;
const maxCategoryLength = 40;

export interface RankedRow {
  /** The service's rank, or the position in the answer when that is missing or not positive. */
  readonly rank: number;
  /** What the comparison matches on: the screen name, cleaned, without its @s, never cut. */
  readonly screenName: string;
  /** Cleaned and bounded, not yet neutralized; empty when the service sent none. */
  readonly name: string;
  /** The handle without @, cleaned and bounded, not yet neutralized; empty when none. */
  readonly handle: string;
  /** Distinct, cleaned and bounded stakeholder category names, in the service's order. */
  readonly categories: readonly string[];
  readonly influencer: Influencer;
  /** In a compared ranking: this account's row in the previous period; absent when new. */
  readonly before?: RankedRow;
}

export interface Ranking {
  readonly metric: Metric;
  /** How many places the person asked for: the top N. */
  readonly top: number;
  readonly rows: readonly RankedRow[];
  /** True when the ranking is compared with a previous period. */
  readonly compared: boolean;
  /** In a compared ranking: the previous period's top N who left it, by their rank then. */
  readonly droppedOut: readonly RankedRow[];
  /**
   * In a compared ranking: how many people of the previous period were looked through for each
   * one's place then. Someone not among them is only known to be outside that many, never 0.
   */
  readonly previousDepth?: number;
}

/**
 * An X handle without its leading @s, cleaned and bounded, not yet neutralized: every view names a
 * person by it alike.
 */
export function bareHandle(screenName: string): string {
  return truncate(cleanText(screenName).replace(/^@+/u, ''), maxHandleLength);
}

/**
 * The top `top` of `result` (the service may send more than was asked for) ranked by `metric`,
 * compared with `previous` (its own top `top`) when given.
 */
export function rankingOf(
  result: InfluencersResult,
  metric: Metric,
  top: number,
  previous?: InfluencersResult,
): Ranking {
  const limit = Number.isInteger(top) && top > 0 ? top : undefined;
  const rows = rowsOf(result, limit);
  if (previous === undefined) {
    return { metric, top: limit ?? rows.length, rows, compared: false, droppedOut: [] };
  }
  // Each person's place then is looked up in all of the previous period that was fetched; who
  // dropped out is of its top N only.
  const everyoneBefore = rowsOf(previous, undefined);
  const { entries } = compareRankings(everyoneBefore, rows);
  const { droppedOut } = compareRankings(rowsOf(previous, limit), rows);
  return {
    metric,
    top: limit ?? rows.length,
    rows: entries.map(({ account, previous: before }) =>
      before === undefined ? account : { ...account, before },
    ),
    compared: true,
    droppedOut,
    previousDepth: everyoneBefore.length,
  };
}

/**
 * What a compared row without a place then says: `new` when the previous ranking was shorter than
 * the top N (the service sent all it had), else that the person was outside the part of it that
 * was fetched, which is all that is known (the previous period is fetched 500 deep).
 */
export function absentBefore(ranking: Pick<Ranking, 'previousDepth' | 'top'>): string {
  const depth = ranking.previousDepth ?? 0;
  return depth < ranking.top ? 'new' : `not in the previous top ${depth}`;
}

/** "Top influencer", "Top 12 influencers": a ranking of `count` people named in a title. */
export function rankingSubject(count: number): string {
  return count === 1 ? 'Top influencer' : `Top ${count} influencers`;
}

/** "▲3", "▼2", "=" or "new": a compared row's move at a glance. */
export function moveSymbol(row: RankedRow): string {
  if (row.before === undefined) return 'new';
  const moved = row.before.rank - row.rank;
  if (moved > 0) return `▲${moved}`;
  if (moved < 0) return `▼${-moved}`;
  return '=';
}

/** How the metric moved for a compared row, when both periods have a figure. */
export function metricDelta(row: RankedRow, metric: Metric): number | undefined {
  if (row.before === undefined) return undefined;
  const now = metricValue(row.influencer, metric);
  const then = metricValue(row.before.influencer, metric);
  return now === undefined || then === undefined ? undefined : now - then;
}

function rowsOf(result: InfluencersResult, limit: number | undefined): RankedRow[] {
  const influencers = limit === undefined ? result.influencers : result.influencers.slice(0, limit);
  return influencers.map((influencer, index) => rowOf(influencer, index));
}

/**
 * One influencer's row, at `index` in the service's answer: what {@link rankingOf} makes of each,
 * for a view that needs a few rows of a long answer.
 */
export function rowOf(influencer: Influencer, index: number): RankedRow {
  const rank = rankOf(influencer, index);
  const screenName = cleanText(
    typeof influencer.screenName === 'string' ? influencer.screenName : '',
  ).replace(/^@+/u, '');
  return {
    rank,
    screenName,
    name: truncate(cleanText(influencer.displayName ?? ''), maxNameLength),
    handle: truncate(screenName, maxHandleLength),
    categories: categoriesOf(influencer),
    influencer,
  };
}

/** The service's rank, or the place `index` in its answer when the rank is missing or not positive. */
export function rankOf(influencer: Influencer, index: number): number {
  return Number.isFinite(influencer.rank) && influencer.rank > 0 ? influencer.rank : index + 1;
}

function categoriesOf(influencer: Influencer): string[] {
  const names = (influencer.stakeholderCategories ?? [])
    .map((category) => cleanText(typeof category?.name === 'string' ? category.name : ''))
    .filter((name) => name.length > 0);
  return [...new Set(names)].map((name) => truncate(name, maxCategoryLength));
}
