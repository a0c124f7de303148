/**
 * The answer to a lookup: the ranking as a list, a table or a chart, its window and its buttons.
 * Also what other answers and a digest's post build on (the frame a digest fills, the header, the
 * buttons), an answer shared in a channel, and the request a button carries to ask again.
 */
import type { ActionsBlock, Button, ContextBlock, HeaderBlock, KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { InfluencersResult } from '../../analytics/types.ts';
import { type LookupRequest, trendUnits } from '../../model/lookup.ts';
import type { MessageBlock, SlackMessage } from '../../model/message.ts';
import { metricNames } from '../../model/metrics.ts';
import type { Presentation } from '../../model/presentation.ts';
import { context, section } from '../blocks.ts';
import {
  cleanText,
  escapeMrkdwn,
  formatDatabases,
  formatDayRange,
  neutralizeMrkdwn,
  slackDate,
  truncate,
  truncateMrkdwn,
  wholeDays,
} from '../format.ts';
import { actionIds, blockIds } from '../ids.ts';
import { blockKitLimits, blockTextLength, checked } from '../limits.ts';
import {
  droppedOutText,
  type Entry,
  layoutEntries,
  personLabel,
  renderEntry,
} from './answer-list.ts';
import { categoryPie, maxChartBars, rankingBarChart } from './chart.ts';
import { rankingTable } from './data-table.ts';
import { defaultMetric, metricName, metricsFootnote } from './metric-words.ts';
import { type Ranking, rankingOf, rankingSubject } from './ranking.ts';
import { nobodyKeptWords, rankingWords, selectionLine } from './selection.ts';
import { mixMrkdwn } from './stakeholder-mix.ts';

export interface AnswerOptions {
  /** Adds the "Share in channel" button (ephemeral answers only). Default false. */
  readonly shareable?: boolean;
  /** A remark shown under the window, e.g. that times are in UTC because the profile has no zone. */
  readonly note?: string;
  /** Who sees the answer; a channel answer never offers to be shared again. Default 'ephemeral'. */
  readonly audience?: 'ephemeral' | 'channel';
  /**
   * The ranking of `request.compare`'s window: given, the answer is the compared one (each
   * person's move, the metric's change, who dropped out).
   */
  readonly previous?: InfluencersResult;
  /** How to show the ranking, over `request.presentation` (a Table or Chart button). */
  readonly presentation?: Presentation;
  /**
   * Adds the buttons that ask again differently: compare with the previous period, table, chart,
   * export as CSV (lookups seen by the person who asked; not digests). Default false.
   */
  readonly actions?: boolean;
}

/**
 * What a digest adds around the answer: blocks under the window, blocks under the ranking, and
 * whether the footnote on the metrics is shown (default true). The answer leaves them room.
 */
export interface AnswerFrame {
  readonly afterWindow?: readonly KnownBlock[];
  readonly afterRanking?: readonly KnownBlock[];
  readonly footnote?: boolean;
}

/** People the list shows, with their pictures: the rest of a longer ranking is in the table. */
const listedPeople = 10;
/** Characters kept back from the message budget for the "…and N more" line. */
const moreLineReserve = 80;
const fallbackHandles = 3;

/**
 * The answer to a lookup, whatever the service sent: every Block Kit limit holds for any input
 * (long names are shortened, a ranking that does not fit ends with "…and N more"), and nothing from
 * the service or the user can add formatting, links or mentions. The list shows the top ten with
 * pictures; a longer ranking, or the `table` presentation, comes as a native table; `chart` and
 * `category_chart` add a native chart above the list.
 */
export function renderAnswer(
  request: LookupRequest,
  result: InfluencersResult,
  options: AnswerOptions = {},
): SlackMessage {
  return composeAnswer(request, result, options);
}

/** {@link renderAnswer} inside a digest's `frame`. */
export function composeAnswer(
  request: LookupRequest,
  result: InfluencersResult,
  options: AnswerOptions,
  frame: AnswerFrame = {},
): SlackMessage {
  return checked(frameAnswer(prepareAnswer(request, result, options), frame));
}

/**
 * An answer before a frame is placed in it: every part that depends only on the request, the
 * result and the options. The digests that share a question prepare it once and frame it each.
 */
export interface PreparedAnswer {
  readonly text: string;
  /** The header, the window line and the note: what the frame's `afterWindow` follows. */
  readonly head: readonly KnownBlock[];
  readonly body: EmptyBody | RankedBody;
}

/** No one ranks: the answer says so, and how to ask differently. */
interface EmptyBody {
  readonly kind: 'empty';
  readonly hint: KnownBlock;
}

interface RankedBody {
  readonly kind: 'ranked';
  readonly rows: number;
  readonly chart: MessageBlock | undefined;
  /** Who the ranked people are ("Doctors 5 · …"); empty when nobody has a category. */
  readonly mix: readonly KnownBlock[];
  readonly dropped: readonly KnownBlock[];
  readonly tail: readonly KnownBlock[];
  readonly wantsTable: boolean;
  /** The list's people, each rendered; the frame decides how many fit. */
  readonly entries: readonly Entry[];
  readonly caption: string;
  /** The table within `charBudget` characters of cells. */
  readonly table: (charBudget: number) => ReturnType<typeof rankingTable>;
}

/** The parts of {@link renderAnswer} no frame changes. */
export function prepareAnswer(
  request: LookupRequest,
  result: InfluencersResult,
  options: AnswerOptions,
): PreparedAnswer {
  const presentation = options.presentation ?? request.presentation ?? 'list';
  const metric = request.metric ?? defaultMetric;
  const ranking = rankingOf(result, metric, request.top, options.previous);
  const databases = formatDatabases(request.databases);
  const head: KnownBlock[] = [
    header(`Top influencers for ${databases}`),
    windowContext(request, ranking, rankingWords(request, metric, result)),
  ];
  const selection = selectionLine(request, metric, result);
  if (selection !== undefined) head.push(context(escapeMrkdwn(selection)));
  if (options.note !== undefined && cleanText(options.note).length > 0) {
    head.push(context(truncateMrkdwn(escapeMrkdwn(cleanText(options.note)), 1000)));
  }

  if (ranking.rows.length === 0) {
    const nobody = nobodyKeptWords(request, metric, result);
    const named = neutralizeMrkdwn(truncate(databases, 300));
    return {
      text: truncateMrkdwn(
        nobody === undefined
          ? `No influencers found for ${named}, ${formatDayRange(request)}.`
          : `${escapeMrkdwn(nobody)} of ${named}, ${formatDayRange(request)}.`,
        blockKitLimits.fallbackText,
      ),
      head,
      body: {
        kind: 'empty',
        hint: section(
          nobody === undefined
            ? emptyHint(databases)
            : truncateMrkdwn(
                `${escapeMrkdwn(nobody)} of ${named} in this window. Try without it, or a wider window (for example \`last month\`).`,
                blockKitLimits.sectionText,
              ),
        ),
      },
    };
  }

  const chart =
    presentation === 'chart'
      ? rankingBarChart(
          ranking,
          `Top ${Math.min(maxChartBars, ranking.rows.length)} by ${metricName(metric)} · ${databases}`,
        )
      : presentation === 'category_chart'
        ? categoryPie(ranking, `Categories in the top ${ranking.rows.length} · ${databases}`)
        : undefined;
  const dropped =
    ranking.droppedOut.length > 0
      ? [section(truncateMrkdwn(droppedOutText(ranking.droppedOut), blockKitLimits.sectionText))]
      : [];
  const listed = presentation === 'table' ? [] : ranking.rows.slice(0, listedPeople);
  const mix = mixMrkdwn(ranking.rows);
  const caption = truncate(
    cleanText(
      `${rankingSubject(ranking.rows.length)} for ${databases}, ${rankingWords(request, metric, result)}`,
    ),
    blockKitLimits.dataTableCaption,
  );
  return {
    text: fallbackText(request, databases, ranking),
    head,
    body: {
      kind: 'ranked',
      rows: ranking.rows.length,
      chart,
      mix: mix.length === 0 ? [] : [context(truncateMrkdwn(mix, 1000))],
      dropped,
      tail: answerTail(request, options, presentation, ranking),
      wantsTable: presentation === 'table' || ranking.rows.length > listedPeople,
      entries: listed.map((row) => renderEntry(row, ranking)),
      caption,
      table: tableDrawer(ranking, caption),
    },
  };
}

/**
 * The table within a budget, drawn in full once: any budget at least as large as the full table's
 * cells draws that same table (smaller budgets fit no more rows, nor wider cells), so only a frame
 * that leaves it less room draws it again.
 */
function tableDrawer(
  ranking: Ranking,
  caption: string,
): (charBudget: number) => ReturnType<typeof rankingTable> {
  let full: ReturnType<typeof rankingTable> | null = null;
  return (charBudget) => {
    if (full === null) full = rankingTable(ranking, caption, Number.POSITIVE_INFINITY);
    if (full === undefined || full.chars <= charBudget) return full;
    return rankingTable(ranking, caption, charBudget);
  };
}

/**
 * A prepared answer with a digest's `frame` placed in it, in the room the frame leaves (not yet
 * checked against Block Kit's limits: the caller checks the message it sends).
 */
export function frameAnswer(prepared: PreparedAnswer, frame: AnswerFrame = {}): SlackMessage {
  const head = [...prepared.head, ...(frame.afterWindow ?? [])];
  const afterRanking = frame.afterRanking ?? [];
  const { body } = prepared;
  if (body.kind === 'empty') {
    return { text: prepared.text, blocks: [...head, body.hint, ...afterRanking] };
  }
  const { chart, mix, dropped, tail, wantsTable, caption } = body;
  const footnote = frame.footnote === false ? [] : [context(metricsFootnote)];
  const fixed: MessageBlock[] = [
    ...head,
    ...(chart === undefined ? [] : [chart]),
    ...mix,
    ...dropped,
    ...afterRanking,
    ...footnote,
    ...tail,
  ];
  const blockBudget = blockKitLimits.messageBlocks - fixed.length - (wantsTable ? 2 : 1);
  let charBudget = blockKitLimits.messageBlockText - textOf(fixed) - moreLineReserve;

  const { blocks: list, shown } = layoutEntries(body.entries, blockBudget, charBudget);
  charBudget -= textOf(list);

  const table = wantsTable ? body.table(charBudget - caption.length) : undefined;
  const hidden = body.rows - Math.max(shown, table?.shown ?? 0);

  return {
    text: prepared.text,
    blocks: [
      ...head,
      ...(chart === undefined ? [] : [chart]),
      ...list,
      ...(table === undefined ? [] : [table.block]),
      ...(hidden > 0 ? [moreNotShown(hidden)] : []),
      ...mix,
      ...dropped,
      ...afterRanking,
      ...footnote,
      ...tail,
    ],
  };
}

/** The line that ends a ranking cut short. */
function moreNotShown(count: number): ContextBlock {
  return context(`…and ${count} more not shown here`);
}

/**
 * Shown instead of the Share button when the request does not fit in a button value (2,000
 * characters: many long phrases), so the button is not simply missing.
 */
export const shareTooLongNote =
  'This answer is too long to share with the button; copy it, or ask in the channel by mentioning me.';

/** Shown instead of the buttons when the request does not fit in a button value. */
export const actionsTooLongNote =
  'This question is too long for the buttons; ask again with `vs previous period`, `table`, `chart` or `export` added.';

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

/**
 * Who shared an answer, read back from the text {@link renderShared} gave it, so a button pressed
 * under the shared answer keeps "Shared by"; undefined for an answer nobody shared.
 */
export function sharedByOf(text: string): string | undefined {
  return /^<@([UW][A-Z0-9]+)> shared: /.exec(text)?.[1];
}

const instant = z.iso.datetime({ offset: true });

const shareValueSchema = z.object({
  v: z.literal(1),
  d: z.array(z.string().min(1)).min(1),
  s: instant,
  e: instant,
  z: z.string().min(1),
  t: z
    .number()
    .int()
    .min(1)
    .max(blockKitLimits.dataTableRows - 1),
  c: z.object({ s: instant, e: instant }).optional(),
  m: z.enum(metricNames).optional(),
  p: z.enum(['list', 'table', 'chart', 'category_chart']).optional(),
  r: z.enum(trendUnits).optional(),
  w: z
    .object({
      i: z.array(z.string().min(1).max(64)).max(20),
      x: z.array(z.string().min(1).max(64)).max(20),
    })
    .optional(),
  o: z.literal('followers').optional(),
  u: z
    .string()
    .regex(/^\w{1,50}$/u)
    .optional(),
});

/**
 * The button value that lets the Slack layer run the same lookup again (to share it, compare it,
 * draw it as a table or a chart, export it): compact JSON with short keys, the comparison, metric,
 * presentation, trend unit and person only when set (Slack allows 2,000 characters; the answer
 * omits the buttons beyond).
 */
export function encodeShareValue(request: LookupRequest): string {
  return JSON.stringify({
    v: 1,
    d: request.databases,
    s: request.start,
    e: request.end,
    z: request.timezone,
    t: request.top,
    ...(request.compare === undefined
      ? {}
      : { c: { s: request.compare.start, e: request.compare.end } }),
    ...(request.metric === undefined ? {} : { m: request.metric }),
    ...(request.presentation === undefined ? {} : { p: request.presentation }),
    ...(request.trend === undefined ? {} : { r: request.trend.unit }),
    ...(request.person === undefined ? {} : { u: request.person }),
    ...(request.stakeholders === undefined
      ? {}
      : { w: { i: request.stakeholders.include, x: request.stakeholders.exclude } }),
    ...(request.orderBy === undefined ? {} : { o: request.orderBy }),
  });
}

/**
 * The lookup a button carries, or undefined when the value is not one this renderer wrote
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
  const { d, s, e, z: timezone, t, c, m, p, r, u, w, o } = parsed.data;
  if (Date.parse(s) >= Date.parse(e)) return undefined;
  if (c !== undefined && Date.parse(c.s) >= Date.parse(c.e)) return undefined;
  return {
    databases: d,
    start: s,
    end: e,
    timezone,
    top: t,
    ...(c === undefined ? {} : { compare: { start: c.s, end: c.e } }),
    ...(m === undefined ? {} : { metric: m }),
    ...(p === undefined ? {} : { presentation: p }),
    ...(r === undefined ? {} : { trend: { unit: r } }),
    ...(u === undefined ? {} : { person: u }),
    ...(w === undefined ? {} : { stakeholders: { include: w.i, exclude: w.x } }),
    ...(o === undefined ? {} : { orderBy: o }),
  };
}

/**
 * The buttons under an answer the person who asked sees: ask again compared, as a table, as a
 * chart, as a CSV file, and share; each carries the request as shown. A channel answer has none.
 */
function answerTail(
  request: LookupRequest,
  options: AnswerOptions,
  presentation: Presentation,
  ranking: Ranking,
): KnownBlock[] {
  const { export: _file, presentation: _asked, ...asked } = request;
  return answerButtons(presentation === 'list' ? asked : { ...asked, presentation }, options, {
    compare: !ranking.compared,
    table: presentation !== 'table',
    chart: presentation !== 'chart',
    export: true,
  });
}

/** Which of the buttons that ask again an answer offers (Share follows `shareable`). */
export interface ButtonOffer {
  readonly compare: boolean;
  readonly table: boolean;
  readonly chart: boolean;
  readonly export: boolean;
}

/**
 * The buttons under an answer of `asked` (the request as shown), those `offer` names when the
 * options ask for buttons, and Share when shareable; none in a channel, and a note instead when
 * the request does not fit in a button's value.
 */
export function answerButtons(
  asked: LookupRequest,
  options: Pick<AnswerOptions, 'audience' | 'shareable' | 'actions'>,
  offer: ButtonOffer,
): KnownBlock[] {
  if (options.audience === 'channel') return [];
  const share = options.shareable === true;
  const ask = options.actions === true;
  if (!share && !ask) return [];
  const value = encodeShareValue(asked);
  if (value.length > blockKitLimits.buttonValue) {
    return [context(ask ? actionsTooLongNote : shareTooLongNote)];
  }
  const buttons: Button[] = [];
  if (ask) {
    if (offer.compare)
      buttons.push(button(actionIds.answerCompare, 'Compare with previous period', value));
    if (offer.table) buttons.push(button(actionIds.answerTable, 'Table', value));
    if (offer.chart) buttons.push(button(actionIds.answerChart, 'Chart', value));
    if (offer.export) buttons.push(button(actionIds.answerExport, 'Export CSV', value));
  }
  if (ask) buttons.push(...addDatabaseButtons(asked));
  if (share) buttons.push(button(actionIds.shareAnswer, 'Share in channel', value));
  if (buttons.length === 0) return [];
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: blockIds.answerActions,
    elements: buttons,
  };
  return [actions];
}

/**
 * One button for each loose word the request left out (`#hcsm conversation`), asking it again
 * with that word as a database too; none for one that would not fit in a button.
 */
function addDatabaseButtons(asked: LookupRequest): Button[] {
  return (asked.leftOut ?? []).flatMap((words) => {
    const { leftOut: _left, ...request } = asked;
    const value = encodeShareValue({ ...request, databases: [...asked.databases, words] });
    const label = `Add “${words}” as a database`;
    return value.length > blockKitLimits.buttonValue || label.length > 75
      ? []
      : [button(actionIds.answerAddDatabase, label, value)];
  });
}

function button(actionId: string, label: string, value: string): Button {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: label }, value };
}

function fallbackText(request: LookupRequest, databases: string, ranking: Ranking): string {
  const count = ranking.rows.length;
  const subject = rankingSubject(count);
  const names = ranking.rows
    .slice(0, fallbackHandles)
    .map((row) => truncateMrkdwn(personLabel(row), 80))
    .join(', ');
  const ellipsis = count > fallbackHandles ? '…' : '';
  const versus =
    ranking.compared && request.compare !== undefined
      ? ` (vs ${formatDayRange({ ...request.compare, timezone: request.timezone })})`
      : '';
  return truncateMrkdwn(
    `${subject} for ${neutralizeMrkdwn(truncate(databases, 300))}, ${formatDayRange(request)}${versus}: ${names}${ellipsis}`,
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

/** "Window: … · compared with … · ranked by mentions · queried in Europe/Paris". */
function windowContext(request: LookupRequest, ranking: Ranking, rankedBy: string): ContextBlock {
  const zone = escapeMrkdwn(truncate(cleanText(request.timezone), 64));
  const parts = [`Window: ${windowText(request, request.timezone)}`];
  if (ranking.compared) {
    parts.push(
      request.compare === undefined
        ? 'compared with the previous period'
        : `compared with ${windowText(request.compare, request.timezone)}`,
    );
  }
  parts.push(rankedBy, `queried in ${zone}`);
  return context(parts.join(' · '));
}

/** A window as an answer's context line writes it: whole days as days, else its exact ends. */
export function windowText(
  window: { readonly start: string; readonly end: string },
  zone: string,
): string {
  const days = wholeDays({ ...window, timezone: zone });
  if (days !== undefined) return escapeMrkdwn(days);
  return `${slackDate(window.start, zone)} → ${slackDate(window.end, zone)}`;
}

/** An answer's title, plain and within the header's limit. */
export function header(text: string): HeaderBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: truncate(cleanText(text), blockKitLimits.headerText) },
  };
}

/** The block text `blocks` add to a message, as the limits count it. */
export function textOf(blocks: readonly MessageBlock[]): number {
  let total = 0;
  for (const block of blocks) total += blockTextLength(block);
  return total;
}
