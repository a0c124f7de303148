/**
 * The words of the Workflow Builder step `top_influencers`: its `summary` output, mrkdwn that a
 * "Send a message" step posts as it is, and its refusal of a count outside the step's range.
 */
import type { InfluencersResult } from '../analytics/types.ts';
import type { LookupRequest } from '../model/lookup.ts';
import { defaultMetric } from '../model/metrics.ts';
import { personLabel } from './answer-list.ts';
import {
  formatDatabases,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
  windowWords,
} from './format.ts';
import { blockKitLimits } from './limits.ts';
import { metricPhrase, rankedByWords } from './metric-words.ts';
import { rankingOf, rankingSubject } from './ranking.ts';

/**
 * "*Top 10 influencers for #hcsm*, Nov 14 – Nov 20, whole days, UTC, ranked by mentions" and one
 * line per person (rank, name, handle, the ranking metric), bounded like a section's text so a
 * message step can show it whole. Names and handles are neutralized: they come from the service.
 */
export function renderStepSummary(
  request: LookupRequest,
  result: InfluencersResult,
  now?: Date,
): string {
  const metric = request.metric ?? defaultMetric;
  const ranking = rankingOf(result, metric, request.top);
  const databases = neutralizeMrkdwn(truncate(formatDatabases(request.databases), 300));
  const window = neutralizeMrkdwn(windowWords(request, now));
  if (ranking.rows.length === 0) return `No influencers found for ${databases}, ${window}.`;
  const title = `*${rankingSubject(ranking.rows.length)} for ${databases}*, ${window}, ${rankedByWords(metric)}`;
  const lines = ranking.rows.map((row) => {
    const name = neutralizeMrkdwn(row.name);
    const label = personLabel(row);
    const who = name.length > 0 && label !== name ? `${name} (${label})` : label;
    const figure = metricPhrase(row.influencer, metric);
    return `${row.rank}. ${who}${figure === undefined ? '' : ` · ${figure}`}`;
  });
  return truncateMrkdwn([title, ...lines].join('\n'), blockKitLimits.sectionText);
}

/** The step's `top` input outside its range, or not a whole number. */
export function stepTopOutOfRange(top: unknown, min: number, max: number): string {
  return `"top" must be a whole number from ${min} to ${max}, not ${truncate(String(top), 40)}.`;
}
