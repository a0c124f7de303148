/**
 * The words of the Workflow Builder step `top_influencers`.
 * Its `summary` output, mrkdwn that a "Send a message" step posts as it is, and its refusal of a
 * count outside the step's range.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { MessageBlock, SlackMessage } from '../../model/message.ts';
import { defaultMetric } from '../../model/metrics.ts';
import { withoutNewBlocks } from '../blocks.ts';
import {
  compactNumber,
  formatDatabases,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
  windowWords,
} from '../format.ts';
import { blockKitLimits } from '../limits.ts';
import { followersOf, personLabel } from './answer-list.ts';
import { metricPhrase } from './metric-words.ts';
import { type RankedRow, rankingOf, rankingSubject } from './ranking.ts';
import { nobodyKeptWords, rankingWords, selectionLine } from './selection.ts';
import { mixLine, stakeholderMix } from './stakeholder-mix.ts';

/** A run whose answer Slack would not take as the step's outputs: it ends failed, with these words. */
export const stepOutputsRefusedText =
  'The answer was found, but Slack refused it as the step’s outputs. Try the step again; if it keeps failing, tell the app’s administrators.';

/**
 * The most a summary holds: a section's text, so a message step can show it whole.
 */
const stepSummaryMax = blockKitLimits.sectionText;

/**
 * "*Top 10 influencers for #hcsm*, Nov 14 – Nov 20, whole days, UTC, ranked by mentions" and one
 * line per person (rank, name, handle, the ranking metric), bounded like a section's text so a
 * message step can show it whole; who was kept of the service's top 500, when a filter chose, and
 * who the people are (the answer's "Who:" line).
 * Names and handles are neutralized: they come from the service.
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
  const selection = selectionLine(request, metric, result);
  if (ranking.rows.length === 0) {
    const nobody = nobodyKeptWords(request, metric, result);
    return nobody === undefined
      ? `No influencers found for ${databases}, ${window}.`
      : `${neutralizeMrkdwn(nobody)} of ${databases}, ${window}.`;
  }
  const title = `*${rankingSubject(ranking.rows.length)} for ${databases}*, ${window}, ${rankingWords(request, metric, result)}`;
  const lines = ranking.rows.map((row) => {
    const name = neutralizeMrkdwn(row.name);
    const label = personLabel(row);
    const who = name.length > 0 && label !== name ? `${name} (${label})` : label;
    const figure =
      request.orderBy === 'followers' ? followersPhrase(row) : metricPhrase(row.influencer, metric);
    return `${row.rank}. ${who}${figure === undefined ? '' : ` · ${figure}`}`;
  });
  const mix = mixLine(stakeholderMix(ranking.rows));
  // Who they are goes under the title, where cutting a long list cannot lose it.
  const head = [title, selection, mix]
    .filter((line) => line !== undefined && line.length > 0)
    .map((line, index) => (index === 0 ? line : neutralizeMrkdwn(line as string)));
  return truncateMrkdwn([...head, ...lines].join('\n'), stepSummaryMax);
}

/** "113.4K followers": the figure a ranking by followers is ordered by. */
function followersPhrase(row: RankedRow): string | undefined {
  const followers = followersOf(row);
  if (followers === undefined) return undefined;
  return `${compactNumber(followers)} ${followers === 1 ? 'follower' : 'followers'}`;
}

/**
 * An answer (a trend, a person's) as one mrkdwn text, as a workspace without tables and charts
 * shows it: the title in bold, then each block's words in order, its table and chart as text.
 * Buttons and pictures are left out; a block that would take the text past a section's length is
 * left out whole rather than cut, so a table never loses its closing fence.
 */
export function stepSummaryOf(message: SlackMessage): string {
  const parts: string[] = [];
  let length = 0;
  for (const block of withoutNewBlocks(message).blocks) {
    const words = blockWords(block);
    if (words === undefined || words.length === 0) continue;
    const added = (parts.length === 0 ? 0 : 1) + words.length;
    if (length + added > stepSummaryMax) continue;
    parts.push(words);
    length += added;
  }
  return parts.length === 0
    ? truncateMrkdwn(neutralizeMrkdwn(message.text), stepSummaryMax)
    : parts.join('\n');
}

/** A block's mrkdwn: a header's text in bold, a section's text, a context's texts on one line. */
function blockWords(block: MessageBlock): string | undefined {
  switch (block.type) {
    case 'header':
      return `*${neutralizeMrkdwn(block.text.text)}*`;
    case 'section':
      return block.text?.type === 'mrkdwn' ? block.text.text : undefined;
    case 'context':
      return block.elements
        .map((element) =>
          'text' in element && element.type === 'mrkdwn' ? element.text : undefined,
        )
        .filter((text) => text !== undefined)
        .join(' ');
    default:
      return undefined;
  }
}

/** The step's `top` input outside its range, or not a whole number. */
export function stepTopOutOfRange(top: unknown, min: number, max: number): string {
  return `"top" must be a whole number from ${min} to ${max}, not ${truncate(String(top), 40)}.`;
}
