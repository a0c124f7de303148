/**
 * One person's answer (`@DrFerreiraI in #hcsm last month`): where they rank, and who they are.
 * Their place among the top 500 of the window, the move since the period it is compared with, who
 * they are (the profile and the categories the service gives them), and their rank in each of the
 * last eight ISO weeks; or that they are not among the top 500, which is as deep as the service
 * ranks.
 */
import type { KnownBlock } from '@slack/types';
import type { InfluencersResult } from '../../analytics/types.ts';
import { type LookupRequest, wholeRankingLimit } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import type { Metric } from '../../model/metrics.ts';
import { context, section } from '../blocks.ts';
import {
  cleanText,
  compactNumber,
  escapeMrkdwn,
  formatDatabases,
  formatDayRange,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
} from '../format.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { type AnswerOptions, answerButtons, header, windowText } from './answer.ts';
import { followersOf, renderEntry } from './answer-list.ts';
import {
  defaultMetric,
  metricChange,
  metricFigure,
  metricName,
  metricsFootnote,
  metricValue,
  rankedByWords,
} from './metric-words.ts';
import { metricDelta, moveSymbol, type RankedRow, rowOf } from './ranking.ts';
import { handleKey, type PeriodRanking, periodLabels, periodWords } from './trend.ts';

/** What a person's answer is read from: each window's ranking, as deep as the service goes. */
export interface PersonRankings {
  readonly current: InfluencersResult;
  /** The ranking of the window the answer is compared with. */
  readonly previous: InfluencersResult;
  /** The last eight ISO weeks, in order, the current one so far. */
  readonly weeks: readonly PeriodRanking[];
}

const maxCategories = 5;

/** The handle as the request names it: cleaned, without its `@`. */
function handleOf(request: LookupRequest): string {
  return truncate(cleanText(request.person ?? '').replace(/^@+/u, ''), 50);
}

/** The person's row in `result`'s top 500, by screen name whatever its case. */
function placeOf(result: InfluencersResult, handle: string): RankedRow | undefined {
  const key = handleKey(handle);
  if (key === '') return undefined;
  const count = Math.min(result.influencers.length, wholeRankingLimit);
  for (let index = 0; index < count; index++) {
    const influencer = result.influencers[index];
    if (influencer !== undefined && handleKey(influencer.screenName) === key) {
      return rowOf(influencer, index);
    }
  }
  return undefined;
}

/** The person's row in the window's ranking; undefined when they are not in its top 500. */
export function personPlace(
  request: LookupRequest,
  result: InfluencersResult,
): RankedRow | undefined {
  return placeOf(result, handleOf(request));
}

/** The answer to a person's lookup, within Block Kit's limits whatever the service sent. */
export function renderPerson(
  request: LookupRequest,
  rankings: PersonRankings,
  options: Pick<AnswerOptions, 'shareable' | 'note' | 'audience' | 'actions'> = {},
): SlackMessage {
  const metric = request.metric ?? defaultMetric;
  const handle = handleOf(request);
  const who = `@${neutralizeMrkdwn(handle)}`;
  const databases = formatDatabases(request.databases);
  const top = `the top ${wholeRankingLimit} by ${metricName(metric)}`;
  const now = placeOf(rankings.current, handle);
  const then = placeOf(rankings.previous, handle);
  const weeks = rankings.weeks.map(({ result }) => placeOf(result, handle));
  const profile = now ?? weeks.findLast((row) => row !== undefined) ?? then;

  const blocks: KnownBlock[] = [
    header(`@${profile?.handle || handle} in ${databases}`),
    context(windowLine(request, metric)),
  ];
  if (options.note !== undefined && cleanText(options.note).length > 0) {
    blocks.push(context(truncateMrkdwn(escapeMrkdwn(cleanText(options.note)), 1000)));
  }
  if (now !== undefined) {
    const entry = renderEntry(now, {
      metric,
      top: wholeRankingLimit,
      rows: [now],
      compared: false,
      droppedOut: [],
    });
    const text = `${entry.text}\n*#${now.rank}* of ${top} · ${sincePrevious(now, then, metric)}`;
    blocks.push(section(truncateMrkdwn(text, blockKitLimits.sectionText), entry.accessory));
  } else if (profile === undefined) {
    blocks.push(
      section(
        truncateMrkdwn(
          `*${who}* is not in ${top} of ${neutralizeMrkdwn(truncate(databases, 300))} in this window, the previous period or any of the last ${rankings.weeks.length} weeks. Check the handle (as it is on X), or try a longer window.`,
          blockKitLimits.sectionText,
        ),
      ),
    );
  } else {
    const was = then === undefined ? '' : ` It was #${then.rank} in the previous period.`;
    blocks.push(
      section(
        truncateMrkdwn(
          `*${who}* is not in ${top} in this window.${was}\n${profileLine(profile)}`,
          blockKitLimits.sectionText,
        ),
      ),
    );
  }
  if (profile !== undefined && rankings.weeks.length > 0) {
    blocks.push(section(truncateMrkdwn(weekLines(request, rankings, weeks, metric), 3000)));
  }
  blocks.push(context(metricsFootnote));
  const { export: _file, presentation: _shown, ...asked } = request;
  blocks.push(
    ...answerButtons(asked, options, { compare: false, table: false, chart: false, export: false }),
  );
  const place =
    now === undefined
      ? `not in ${top}`
      : `#${now.rank} of ${top}${then === undefined ? '' : ` (was #${then.rank})`}`;
  return checked({
    text: truncateMrkdwn(
      `${who} in ${neutralizeMrkdwn(truncate(databases, 300))}, ${formatDayRange(request)}: ${place}`,
      blockKitLimits.fallbackText,
    ),
    blocks,
  });
}

/** "Window: … · compared with … · ranked by mentions · queried in …". */
function windowLine(request: LookupRequest, metric: Metric): string {
  const zone = escapeMrkdwn(truncate(cleanText(request.timezone), 64));
  return [
    `Window: ${windowText(request, request.timezone)}`,
    request.compare === undefined
      ? 'compared with the previous period'
      : `compared with ${windowText(request.compare, request.timezone)}`,
    rankedByWords(metric),
    `queried in ${zone}`,
  ].join(' · ');
}

/** "▲3 since the previous period (was #7, +234 mentions)", or that they were not ranked then. */
function sincePrevious(now: RankedRow, then: RankedRow | undefined, metric: Metric): string {
  if (then === undefined) return `not in the top ${wholeRankingLimit} in the previous period`;
  const compared = { ...now, before: then };
  const delta = metricDelta(compared, metric);
  const change = delta === undefined ? '' : `, ${metricChange(delta, metric)}`;
  return `${moveSymbol(compared)} since the previous period (was #${then.rank}${change})`;
}

/** Who someone is when they are not ranked in the window: name, categories, followers. */
function profileLine(row: RankedRow): string {
  const followers = followersOf(row);
  const shown = row.categories.slice(0, maxCategories).map((name) => neutralizeMrkdwn(name));
  return [
    neutralizeMrkdwn(row.name),
    shown.join(', '),
    followers === undefined
      ? ''
      : `${compactNumber(followers)} ${followers === 1 ? 'follower' : 'followers'}`,
  ]
    .filter((part) => part.length > 0)
    .join(' · ');
}

/** "*Rank by week*" and one line a week: "The week of Nov 16 (so far): #2 · 30 mentions". */
function weekLines(
  request: LookupRequest,
  rankings: PersonRankings,
  weeks: readonly (RankedRow | undefined)[],
  metric: Metric,
): string {
  const labels = periodLabels(
    rankings.weeks.map(({ period }) => period),
    'week',
    request.timezone,
  );
  const lines = labels.map((label, index) => {
    const row = weeks[index];
    const words = periodWords(label, 'week');
    const when = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
    if (row === undefined) return `${when}: not in the top ${wholeRankingLimit}`;
    const value = metricValue(row.influencer, metric);
    return `${when}: #${row.rank}${value === undefined ? '' : ` · ${metricFigure(value, metric)}`}`;
  });
  return [`*Rank by week* (${rankedByWords(metric)})`, ...lines].join('\n');
}
