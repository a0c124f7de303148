/**
 * The answer's list of people: one section each, with the picture beside it.
 * It reads well on a phone, and a compared answer shows each person's move and who dropped out.
 * Everything from the service is neutralized here before it becomes mrkdwn.
 */
import type { ImageElement, SectionBlock } from '@slack/types';
import { section } from '../blocks.ts';
import { compactNumber, neutralizeMrkdwn, truncate, truncateMrkdwn } from '../format.ts';
import { blockKitLimits } from '../limits.ts';
import { metricChange, metricFigure, metricValue } from './metric-words.ts';
import { absentBefore, metricDelta, moveSymbol, type RankedRow, type Ranking } from './ranking.ts';

const maxCategories = 5;
const maxImageUrlLength = 1000;
/** People named in a line of moves ("Dropped out: …"); the rest are counted. */
export const maxMovesShown = 10;

/** The figures of the list's metrics line, in this order. */
const listedMetrics = ['mentions', 'retweets', 'tweets', 'impressions', 'replies'] as const;

export interface Entry {
  /** mrkdwn, at most a few hundred characters (see the per-part bounds). */
  readonly text: string;
  readonly accessory: ImageElement | undefined;
  /** How the influencer is named in the notification line: `@handle`, else the name. */
  readonly label: string;
}

/** A person as a line of moves names them: `@handle`, else the name, else `#rank`. */
export function personLabel(row: Pick<RankedRow, 'handle' | 'name' | 'rank'>): string {
  if (row.handle.length > 0) return `@${neutralizeMrkdwn(row.handle)}`;
  return neutralizeMrkdwn(row.name) || `#${row.rank}`;
}

/** "a, b, c and 4 more": at most {@link maxMovesShown} items. */
export function listWithMore<T>(items: readonly T[], word: (item: T) => string): string {
  const shown = items.slice(0, maxMovesShown).map(word);
  const rest = items.length - shown.length;
  return `${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
}

/** "*Dropped out*: @carol (was #2), …": the previous top N who left it, by their rank then. */
export function droppedOutText(
  rows: readonly Pick<RankedRow, 'handle' | 'name' | 'rank'>[],
): string {
  return `*Dropped out*: ${listWithMore(rows, (row) => `${personLabel(row)} (was #${row.rank})`)}`;
}

export function renderEntry(row: RankedRow, ranking: Ranking): Entry {
  const { rank, name, handle } = row;
  const handleText = handle.length > 0 ? `@${neutralizeMrkdwn(handle)}` : '';
  const handleMarkup =
    handle.length > 0 && !handle.endsWith('…')
      ? `<https://x.com/${encodeURIComponent(handle)}|${handleText}>`
      : handleText;

  const title = name.length > 0 ? `*${rank}. ${neutralizeMrkdwn(name)}*` : `*${rank}.*`;
  const lines = [[title, handleMarkup].filter((part) => part.length > 0).join(' ')];
  if (ranking.compared) lines.push(moveLine(row, ranking));
  const figures = metricsLine(row);
  if (figures.length > 0) lines.push(figures);
  const categories = categoriesLine(row.categories);
  if (categories.length > 0) lines.push(categories);

  return {
    text: lines.join('\n'),
    accessory: profileImage(row.influencer.profileImageUrl, name.length > 0 ? name : `@${handle}`),
    label: personLabel(row),
  };
}

/** "▲3 · was #4 · +234 mentions", "= · was #1", "new", "not in the previous top 500". */
function moveLine(row: RankedRow, ranking: Ranking): string {
  if (row.before === undefined) return absentBefore(ranking);
  const delta = metricDelta(row, ranking.metric);
  return [
    moveSymbol(row),
    `was #${row.before.rank}`,
    ...(delta === undefined ? [] : [metricChange(delta, ranking.metric)]),
  ].join(' · ');
}

function metricsLine(row: RankedRow): string {
  const parts: string[] = [];
  const score = metricValue(row.influencer, 'hsg_score');
  if (score !== undefined) parts.push(metricFigure(score, 'hsg_score'));
  for (const name of listedMetrics) {
    const value = metricValue(row.influencer, name);
    if (value !== undefined) parts.push(metricFigure(value, name));
  }
  const followers = followersOf(row);
  if (followers !== undefined) {
    parts.push(`${compactNumber(followers)} ${followers === 1 ? 'follower' : 'followers'}`);
  }
  return parts.join(' · ');
}

/** The follower count when the service sent a usable one. */
export function followersOf(row: RankedRow): number | undefined {
  const value: unknown = row.influencer.followersCount;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function categoriesLine(names: readonly string[]): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, maxCategories).map((name) => neutralizeMrkdwn(name));
  const rest = names.length - shown.length;
  return `${shown.join(', ')}${rest > 0 ? ` +${rest} more` : ''}`;
}

function profileImage(url: string | undefined, subject: string): ImageElement | undefined {
  if (typeof url !== 'string' || url.length > maxImageUrlLength) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  // Slack fetches the picture itself and refuses the message when it cannot: plain http is
  // often refused or redirected, so only https is ever sent.
  if (parsed.protocol !== 'https:') return undefined;
  return {
    type: 'image',
    image_url: url,
    alt_text: truncate(`Profile picture of ${subject}`, 200),
  };
}

/**
 * One section per influencer (with the picture beside it) when they all fit in the blocks left;
 * otherwise several per section, without pictures. Stops before the message's character budget.
 */
export function layoutEntries(
  entries: readonly Entry[],
  blockBudget: number,
  charBudget: number,
): { blocks: SectionBlock[]; shown: number } {
  const blocks: SectionBlock[] = [];
  let used = 0;
  let shown = 0;
  if (entries.length <= blockBudget) {
    for (const entry of entries) {
      const text = truncateMrkdwn(entry.text, blockKitLimits.sectionText);
      if (used + text.length > charBudget) break;
      used += text.length;
      blocks.push(section(text, entry.accessory));
      shown += 1;
    }
    return { blocks, shown };
  }

  const perSection = Math.ceil(entries.length / Math.max(1, blockBudget));
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) blocks.push(section(pending.join('\n\n')));
    pending = [];
  };
  for (const entry of entries) {
    const text = truncateMrkdwn(entry.text, blockKitLimits.sectionText);
    const joined = pending.length === 0 ? text : `${pending.join('\n\n')}\n\n${text}`;
    const startsNew = pending.length >= perSection || joined.length > blockKitLimits.sectionText;
    if (startsNew) {
      flush();
      if (blocks.length >= blockBudget) break;
    }
    const cost = text.length + (pending.length === 0 ? 0 : 2);
    if (used + cost > charBudget) break;
    used += cost;
    pending.push(text);
    shown += 1;
  }
  // Whenever entries are pending, a flush above left room for their section.
  flush();
  return { blocks, shown };
}
