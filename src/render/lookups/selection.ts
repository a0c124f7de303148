/**
 * The words for a ranking chosen here rather than by the service (`analytics/local-ranking.ts`).
 * They say who was kept of the service's top people, and what the ranking is by.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { Metric } from '../../model/metrics.ts';
import { metricName, rankedByWords } from './metric-words.ts';
import { categoryWords } from './stakeholder-mix.ts';

type Selected = Pick<LookupRequest, 'stakeholders' | 'orderBy'> &
  Partial<Pick<LookupRequest, 'top'>>;

/**
 * "ranked by mentions", or for `by followers` "ranked by followers, among the top 500 by
 * mentions": the service ranked the pool, this app ordered it.
 */
export function rankingWords(request: Selected, metric: Metric, result: InfluencersResult): string {
  if (request.orderBy !== 'followers') return rankedByWords(metric);
  const pool = result.selection?.pool ?? result.influencers.length;
  return `ranked by followers, among the top ${pool} by ${metricName(metric)}`;
}

/** "Doctors and HCPs", "Everyone but Pharma orgs", "Patient advocates, excluding Pharma orgs". */
export function filterWords(filter: NonNullable<LookupRequest['stakeholders']>): string {
  const kept = filter.include.map((name) => categoryWords(name, 2));
  const left = filter.exclude.map((name) => categoryWords(name, 2));
  const who = kept.length === 0 ? 'Everyone' : list(kept);
  if (left.length === 0) return who;
  return kept.length === 0 ? `${who} but ${list(left)}` : `${who}, excluding ${list(left)}`;
}

/**
 * "Doctors among the top 500 by mentions: 37 · showing 10"; undefined when nobody was filtered
 * out here. An export's message is asked for all of them but shows its `top`.
 */
export function selectionLine(
  request: Selected,
  metric: Metric,
  result: InfluencersResult,
): string | undefined {
  const filter = request.stakeholders;
  const selection = result.selection;
  if (filter === undefined || selection === undefined) return undefined;
  const shown = Math.min(result.influencers.length, request.top ?? Number.POSITIVE_INFINITY);
  return (
    `${filterWords(filter)} among the top ${selection.pool} by ${metricName(metric)}: ` +
    `${selection.matched} · showing ${shown}`
  );
}

/**
 * "The filter (Pharma orgs) kept nobody of the top 500 by mentions": why a filtered answer is
 * empty although the service ranked people; undefined otherwise (then the window or the name is
 * at fault, and the answer says so).
 */
export function nobodyKeptWords(
  request: Selected,
  metric: Metric,
  result: InfluencersResult,
): string | undefined {
  const filter = request.stakeholders;
  const selection = result.selection;
  if (filter === undefined || selection === undefined) return undefined;
  if (selection.pool === 0 || selection.matched > 0) return undefined;
  return `The filter (${filterWords(filter)}) kept nobody of the top ${selection.pool} by ${metricName(metric)}`;
}

function list(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
