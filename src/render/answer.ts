import type {
  ActionsBlock,
  ContextBlock,
  HeaderBlock,
  ImageElement,
  KnownBlock,
  SectionBlock,
} from '@slack/types';
import { z } from 'zod';
import type { Influencer, InfluencersResult, Metric } from '../analytics/types.ts';
import type { LookupRequest } from '../model/lookup.ts';
import type { SlackMessage } from '../model/message.ts';
import { context, section } from './blocks.ts';
import {
  cleanText,
  compactNumber,
  escapeMrkdwn,
  formatDatabases,
  formatDayRange,
  neutralizeMrkdwn,
  slackDate,
  truncate,
  truncateMrkdwn,
  wholeDays,
} from './format.ts';
import { actionIds, blockIds } from './ids.ts';
import { blockKitLimits, checked } from './limits.ts';

export interface AnswerOptions {
  /** Adds the "Share in channel" button (ephemeral answers only). Default false. */
  readonly shareable?: boolean;
  /** A remark shown under the window, e.g. that times are in UTC because the profile has no zone. */
  readonly note?: string;
  /** Who sees the answer; a channel answer never offers to be shared again. Default 'ephemeral'. */
  readonly audience?: 'ephemeral' | 'channel';
}

/** Per-part bounds that keep any one influencer well inside a section's 3,000 characters. */
const maxNameLength = 64;
const maxHandleLength = 50;
const maxCategories = 5;
const maxCategoryLength = 40;
const maxImageUrlLength = 1000;
/** Characters kept back from the message budget for the "…and N more" line. */
const moreLineReserve = 80;
const fallbackHandles = 3;

const countMetrics = ['mentions', 'retweets', 'tweets', 'impressions', 'replies'] as const;
const metricWords: Record<(typeof countMetrics)[number], readonly [string, string]> = {
  mentions: ['mention', 'mentions'],
  retweets: ['retweet', 'retweets'],
  tweets: ['tweet', 'tweets'],
  impressions: ['impression', 'impressions'],
  replies: ['reply', 'replies'],
};

/**
 * The answer to a lookup, whatever the service sent: every Block Kit limit holds for any input
 * (long names are shortened, a list that does not fit ends with "…and N more"), and nothing from
 * the service or the user can add formatting, links or mentions.
 */
export function renderAnswer(
  request: LookupRequest,
  result: InfluencersResult,
  options: AnswerOptions = {},
): SlackMessage {
  const databases = formatDatabases(request.databases);
  const head: KnownBlock[] = [header(`Top influencers for ${databases}`), windowContext(request)];
  if (options.note !== undefined && cleanText(options.note).length > 0) {
    head.push(context(truncateMrkdwn(escapeMrkdwn(cleanText(options.note)), 1000)));
  }

  // The service may send more than was asked for; the person asked for the top N.
  const influencers =
    Number.isInteger(request.top) && request.top > 0
      ? result.influencers.slice(0, request.top)
      : result.influencers;
  if (influencers.length === 0) {
    return checked({
      text: truncateMrkdwn(
        `No influencers found for ${neutralizeMrkdwn(truncate(databases, 300))}, ${formatDayRange(request)}.`,
        blockKitLimits.fallbackText,
      ),
      blocks: [...head, section(emptyHint(databases))],
    });
  }

  const tail: KnownBlock[] = [];
  const shareValue =
    options.shareable === true && options.audience !== 'channel'
      ? encodeShareValue(request)
      : undefined;
  if (shareValue !== undefined) {
    tail.push(
      shareValue.length <= blockKitLimits.buttonValue
        ? shareActions(shareValue)
        : context(shareTooLongNote),
    );
  }

  const entries = influencers.map(renderEntry);
  const blockBudget = blockKitLimits.messageBlocks - head.length - tail.length - 1;
  const charBudget =
    blockKitLimits.messageBlockText - blockText(head) - blockText(tail) - moreLineReserve;
  const { blocks: list, shown } = layoutEntries(entries, blockBudget, charBudget);
  const more = shown < entries.length ? [moreNotShown(entries.length - shown)] : [];

  return checked({
    text: fallbackText(request, databases, entries),
    blocks: [...head, ...list, ...more, ...tail],
  });
}

/**
 * The line that ends a list cut short. A digest that must drop more entries to fit its own lines
 * re-counts it, so both say it alike.
 */
export function moreNotShown(count: number): ContextBlock {
  return context(`…and ${count} more not shown here`);
}

/**
 * An X handle without its leading @s, cleaned and bounded, not yet neutralized: the answer links
 * it and a digest's rank changes list it, and both must name a person alike.
 */
export function bareHandle(screenName: string): string {
  return truncate(cleanText(screenName).replace(/^@+/u, ''), maxHandleLength);
}

/**
 * Shown instead of the Share button when the request does not fit in a button value (2,000
 * characters: many long phrases), so the button is not simply missing.
 */
export const shareTooLongNote =
  'This answer is too long to share with the button; copy it, or ask in the channel by mentioning me.';

/**
 * An answer shared in a channel, saying who shared it: the post comes from the app on that
 * person's behalf. An id that is not a Slack user id is left out rather than put in a mention.
 */
export function renderShared(message: SlackMessage, userId: string): SlackMessage {
  if (!/^[UW][A-Z0-9]+$/.test(userId)) return message;
  const by = context(`Shared by <@${userId}>`);
  const blocks =
    message.blocks.length < blockKitLimits.messageBlocks ? [...message.blocks, by] : message.blocks;
  return checked({
    text: truncateMrkdwn(`<@${userId}> shared: ${message.text}`, blockKitLimits.fallbackText),
    blocks,
  });
}

const shareValueSchema = z.object({
  v: z.literal(1),
  d: z.array(z.string().min(1)).min(1),
  s: z.iso.datetime({ offset: true }),
  e: z.iso.datetime({ offset: true }),
  z: z.string().min(1),
  t: z.number().int().min(1).max(50),
});

/**
 * The button value that lets the Slack layer run the same lookup again when someone shares it:
 * compact JSON with short keys (Slack allows 2,000 characters; the answer omits the button beyond).
 */
export function encodeShareValue(request: LookupRequest): string {
  return JSON.stringify({
    v: 1,
    d: request.databases,
    s: request.start,
    e: request.end,
    z: request.timezone,
    t: request.top,
  });
}

/**
 * The lookup a share button carries, or undefined when the value is not one this renderer wrote
 * (malformed, another version, an inverted window): the caller then answers with a generic error.
 */
export function decodeShareValue(value: string): LookupRequest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  const parsed = shareValueSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { d, s, e, z: timezone, t } = parsed.data;
  if (Date.parse(s) >= Date.parse(e)) return undefined;
  return { databases: d, start: s, end: e, timezone, top: t };
}

interface Entry {
  /** mrkdwn, at most a few hundred characters (see the per-part bounds). */
  readonly text: string;
  readonly accessory: ImageElement | undefined;
  /** How the influencer is named in the notification line: `@handle`, else the name. */
  readonly label: string;
}

function renderEntry(influencer: Influencer, index: number): Entry {
  const rank =
    Number.isFinite(influencer.rank) && influencer.rank > 0 ? influencer.rank : index + 1;
  const name = truncate(cleanText(influencer.displayName ?? ''), maxNameLength);
  const handle = bareHandle(influencer.screenName ?? '');
  const handleText = handle.length > 0 ? `@${neutralizeMrkdwn(handle)}` : '';
  const handleMarkup =
    handle.length > 0 && !handle.endsWith('…')
      ? `<https://x.com/${encodeURIComponent(handle)}|${handleText}>`
      : handleText;

  const title = name.length > 0 ? `*${rank}. ${neutralizeMrkdwn(name)}*` : `*${rank}.*`;
  const lines = [[title, handleMarkup].filter((part) => part.length > 0).join(' ')];
  const figures = metricsLine(influencer);
  if (figures.length > 0) lines.push(figures);
  const categories = categoriesLine(influencer);
  if (categories.length > 0) lines.push(categories);

  return {
    text: lines.join('\n'),
    accessory: profileImage(influencer.profileImageUrl, name.length > 0 ? name : `@${handle}`),
    label: handleText.length > 0 ? handleText : neutralizeMrkdwn(name) || `#${rank}`,
  };
}

function metricsLine(influencer: Influencer): string {
  const parts: string[] = [];
  const score = influencer.hsgScore ?? metric(influencer, 'hsg_score');
  if (score !== undefined && Number.isFinite(score))
    parts.push(`HSG score ${compactNumber(score)}`);
  for (const name of countMetrics) {
    const value = metric(influencer, name);
    if (value === undefined || !Number.isFinite(value)) continue;
    const [one, many] = metricWords[name];
    parts.push(`${compactNumber(value)} ${value === 1 ? one : many}`);
  }
  return parts.join(' · ');
}

function metric(influencer: Influencer, name: Metric): number | undefined {
  const value: unknown = influencer.metrics?.[name];
  return typeof value === 'number' ? value : undefined;
}

function categoriesLine(influencer: Influencer): string {
  const names = [
    ...new Set(
      (influencer.stakeholderCategories ?? [])
        .map((category) => cleanText(typeof category?.name === 'string' ? category.name : ''))
        .filter((name) => name.length > 0),
    ),
  ];
  if (names.length === 0) return '';
  const shown = names
    .slice(0, maxCategories)
    .map((name) => neutralizeMrkdwn(truncate(name, maxCategoryLength)));
  const rest = names.length - shown.length;
  return `${shown.join(', ')}${rest > 0 ? ` +${rest} more` : ''}`;
}

function profileImage(url: string | undefined, subject: string): ImageElement | undefined {
  if (url === undefined || url.length > maxImageUrlLength) return undefined;
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
function layoutEntries(
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

function fallbackText(
  request: LookupRequest,
  databases: string,
  entries: readonly Entry[],
): string {
  const count = entries.length;
  const subject = count === 1 ? 'Top influencer' : `Top ${count} influencers`;
  const names = entries
    .slice(0, fallbackHandles)
    .map((entry) => truncateMrkdwn(entry.label, 80))
    .join(', ');
  const ellipsis = count > fallbackHandles ? '…' : '';
  return truncateMrkdwn(
    `${subject} for ${neutralizeMrkdwn(truncate(databases, 300))}, ${formatDayRange(request)}: ${names}${ellipsis}`,
    blockKitLimits.fallbackText,
  );
}

function emptyHint(databases: string): string {
  return (
    `No influencers found for ${neutralizeMrkdwn(truncate(databases, 500))} in this window. ` +
    'Try a wider window (for example `last month`), or check the database name: hashtags keep ' +
    'their `#`, phrases go in quotes (`"breast cancer"`), groups are written `group:Name`.'
  );
}

function windowContext(request: LookupRequest): ContextBlock {
  const zone = escapeMrkdwn(truncate(cleanText(request.timezone), 64));
  const days = wholeDays(request);
  if (days !== undefined) return context(`Window: ${escapeMrkdwn(days)} · queried in ${zone}`);
  const start = slackDate(request.start, request.timezone);
  const end = slackDate(request.end, request.timezone);
  return context(`Window: ${start} → ${end} · queried in ${zone}`);
}

function header(text: string): HeaderBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: truncate(cleanText(text), blockKitLimits.headerText) },
  };
}

function shareActions(value: string): ActionsBlock {
  return {
    type: 'actions',
    block_id: blockIds.answerActions,
    elements: [
      {
        type: 'button',
        action_id: actionIds.shareAnswer,
        text: { type: 'plain_text', text: 'Share in channel' },
        value,
      },
    ],
  };
}

function blockText(blocks: readonly KnownBlock[]): number {
  let total = 0;
  for (const block of blocks) {
    if (block.type === 'header' || block.type === 'section') total += block.text?.text.length ?? 0;
    if (block.type === 'context') {
      for (const element of block.elements) if ('text' in element) total += element.text.length;
    }
    if (block.type === 'actions') {
      for (const element of block.elements) {
        if (element.type === 'button') total += element.text.text.length;
      }
    }
  }
  return total;
}
