/**
 * What the MCP tools give back: the data an agent reads and the words a person would read.
 * Structured content for the agent, text content as the DM answer says it, plus the tools' own
 * refusals. Pure: the flow passes the request and what the service answered.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import type { LookupRequest } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { defaultMetric, type Metric } from '../../model/metrics.ts';
import type { StakeholderFilter } from '../../model/stakeholders.ts';
import { formatWindow, truncate, wholeDays } from '../format.ts';
import { toPlainText } from '../text.ts';
import { type RankedRow, rankingOf } from './ranking.ts';

/** Slackbot shows a tool's text as a reply; longer text is cut, as a streamed chunk would be. */
export const toolTextLimit = 12_000;

/** A window as the app reads it: its ends, its zone, and how an answer words it. */
export interface WindowReading {
  /** ISO 8601 with the zone's offset; the end is excluded. */
  readonly start: string;
  readonly end: string;
  /** IANA name or UTC. */
  readonly zone: string;
  /** True when the window runs from one midnight of its zone to another (whole days). */
  readonly wholeDays: boolean;
  /** "Nov 9 – Nov 15, whole days, EST" or "Nov 20 09:00 to Nov 20 17:00 EST". */
  readonly words: string;
}

export function windowReading(
  window: Pick<LookupRequest, 'start' | 'end' | 'timezone'>,
  now?: Date,
): WindowReading {
  const days = wholeDays(window, now);
  return {
    start: window.start,
    end: window.end,
    zone: window.timezone,
    wholeDays: days !== undefined,
    words: days ?? formatWindow(window, now),
  };
}

/** One row of a ranking as an agent reads it. */
export interface ToolRow {
  readonly rank: number;
  /** Display name; empty when the service sent none. */
  readonly name: string;
  /** X handle without its @. */
  readonly handle: string;
  /** Every metric the service sent for this person (`mentions`, `impressions`, ...). */
  readonly metrics: Readonly<Partial<Record<Metric, number>>>;
  readonly categories: readonly string[];
  readonly followers?: number;
  /** In a compared ranking: the rank in the earlier window, or null when the person is new. */
  readonly previousRank?: number | null;
}

export interface RankingContent {
  readonly databases: readonly string[];
  readonly window: WindowReading;
  readonly metric: Metric;
  readonly orderBy?: 'followers';
  readonly stakeholders?: StakeholderFilter;
  readonly rows: readonly ToolRow[];
  /** Only when a comparison was asked for. */
  readonly comparison?: {
    readonly window: WindowReading;
    /** Who was in the earlier window's top N and left it, by their rank then. */
    readonly droppedOut: readonly ToolRow[];
  };
  /** [x: string]: the SDK's structured content is an open object. */
  readonly [key: string]: unknown;
}

function toolRow(row: RankedRow, compared: boolean): ToolRow {
  const { followersCount } = row.influencer;
  return {
    rank: row.rank,
    name: row.name,
    handle: row.handle,
    metrics: { ...row.influencer.metrics },
    categories: row.categories,
    ...(followersCount === undefined ? {} : { followers: followersCount }),
    ...(compared ? { previousRank: row.before?.rank ?? null } : {}),
  };
}

/** The structured content of `top_influencers`: the ranking `request` got, compared when asked. */
export function rankingContent(
  request: LookupRequest,
  current: InfluencersResult,
  previous: InfluencersResult | undefined,
  now?: Date,
): RankingContent {
  const metric = request.metric ?? defaultMetric;
  const ranking = rankingOf(current, metric, request.top, previous);
  const { compare, orderBy, stakeholders } = request;
  return {
    databases: request.databases,
    window: windowReading(request, now),
    metric,
    ...(orderBy === undefined ? {} : { orderBy }),
    ...(stakeholders === undefined ? {} : { stakeholders }),
    rows: ranking.rows.map((row) => toolRow(row, ranking.compared)),
    ...(compare === undefined
      ? {}
      : {
          comparison: {
            window: windowReading({ ...compare, timezone: request.timezone }, now),
            droppedOut: ranking.droppedOut.map((row) => toolRow(row, false)),
          },
        }),
  };
}

/** A message as a tool's text: the words of its blocks as plain text, within the limit. */
export function toolText(message: SlackMessage): string {
  return truncate(toPlainText(message), toolTextLimit);
}

/** `read_window`'s text: the window in words, then its exact ends, so both can be checked. */
export function readWindowText(window: WindowReading, compare?: WindowReading): string {
  const line = (reading: WindowReading) =>
    `${reading.words} (from ${reading.start} to ${reading.end}, the end excluded; zone ${reading.zone})`;
  return compare === undefined ? line(window) : `${line(window)}\ncompared with ${line(compare)}`;
}

/** The inputs of `top_influencers` besides its databases: one slot of the lookup each. */
export type ToolSlot = 'window' | 'top' | 'metric' | 'compare' | 'stakeholders' | 'zone';

/** What a slot holds, as a refusal names it, and examples of what it takes. */
const slotWords: Readonly<Record<ToolSlot, { readonly what: string; readonly examples: string }>> =
  {
    window: { what: 'a time window', examples: '"last week", "Oct 1 to Oct 31" or "Q3 2026"' },
    top: { what: 'how many people to rank', examples: '5 or 20' },
    metric: { what: 'what to rank by', examples: '"impressions" or "retweets"' },
    compare: { what: 'a window to compare with', examples: '"previous period" or "last year"' },
    stakeholders: {
      what: 'who to keep or leave out',
      examples: '"doctors", "patients and caregivers" or "no pharma"',
    },
    zone: { what: 'a time zone', examples: '"Europe/London", "Boston" or "UTC"' },
  };

function quoted(words: readonly string[]): string {
  return words.map((word) => `“${word}”`).join(', ');
}

/** The tools' own refusals, beside the parser's and the lookup's words. */
export const toolRefusals = {
  trend:
    'top_influencers ranks people over one window; a trend (weekly, by day, per month) is not offered here. Leave the period word out of "window", or ask the app in Slack.',
  person:
    "top_influencers ranks everyone in a window; one person's ranks are not offered here. Leave the @handle out, or ask the app in Slack.",
  noIdentity:
    'This request is signed by Slack but names no person (params._meta.slack.user_id and team_id): the lookup tools answer people, through Slackbot.',
  noDatabases:
    'top_influencers needs "databases": a #hashtag, a "quoted phrase", a database ID or group:<name>, for example "#hcsm".',
  /** Words in `slot` that the grammar would read as databases. */
  notOfSlot: (slot: ToolSlot, words: readonly string[]): string =>
    `${quoted(words)} in "${slot}" is not ${slotWords[slot].what}: give one such as ${slotWords[slot].examples}.`,
  /** `field` names `other`'s slot as well, which has an input of its own. */
  otherSlot: (field: ToolSlot | 'databases' | 'text', other: ToolSlot): string =>
    `"${field}" holds ${slotWords[other].what} as well: give that in "${other}" (for example ${slotWords[other].examples}) and leave it out of "${field}".`,
  /** `read_window`'s text, whose words are no window. */
  notAWindow: (words: readonly string[]): string =>
    `${quoted(words)} is not a time window: give one such as "last week", "Oct 1 to Oct 31 vs previous period" or "yesterday 9am to 5pm in Europe/London".`,
} as const;
