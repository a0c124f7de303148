/**
 * A trend's answer: the rank over time of the latest period's top N, one ranking per period.
 * Periods are days, ISO weeks or months. The answer holds a line saying what moved, a line chart of
 * the top five's metric per period, and a native table with people as rows, periods as columns
 * and the rank and the metric in each cell; its file holds one row per person and period. Every
 * Block Kit limit holds for any input, and the fallback without tables and charts reads the same
 * blocks (a cell's short form is its rank, a line chart a sparkline per person).
 */
import type { KnownBlock, RawNumberElement, RawTextElement } from '@slack/types';
import type { Influencer, InfluencersResult } from '../../analytics/types.ts';
import { type LookupRequest, type TrendUnit, wholeRankingLimit } from '../../model/lookup.ts';
import type { DataVisualizationBlock, MessageBlock, SlackMessage } from '../../model/message.ts';
import type { Metric } from '../../model/metrics.ts';
import type { Period } from '../../time/periods.ts';
import { context, section } from '../blocks.ts';
import {
  cleanText,
  compactNumber,
  escapeMrkdwn,
  formatDatabases,
  formatDayRange,
  instantInZone,
  neutralizeMrkdwn,
  truncate,
  truncateMrkdwn,
} from '../format.ts';
import { blockKitLimits, checked } from '../limits.ts';
import { missingCell } from '../text-figures.ts';
import { type AnswerOptions, answerButtons, header, textOf } from './answer.ts';
import { personLabel } from './answer-list.ts';
import { chartTitle, uniqueLabels } from './chart.ts';
import {
  defaultMetric,
  metricFigure,
  metricHeading,
  metricName,
  metricsFootnote,
  metricValue,
} from './metric-words.ts';
import { type RankedRow, rankOf, rowOf } from './ranking.ts';
import { filterWords, rankingWords } from './selection.ts';
import { mixMrkdwn } from './stakeholder-mix.ts';

/** One period of a trend and its ranking, as deep as it was asked (the top 500). */
export interface PeriodRanking {
  readonly period: Period;
  readonly result: InfluencersResult;
}

/** A person of the trend: who they are, and their row in each period they rank in. */
export interface TrendPerson {
  /** Their row in the period they were chosen from: the latest they rank in. */
  readonly row: RankedRow;
  /**
   * Their place and figures in each period: who they are comes from `row`, so no period cleans
   * their names again (a trend of twenty periods did it twenty times over).
   */
  readonly ranks: readonly (PeriodPlace | undefined)[];
}

/** Where a person stands in one period of a trend, and the service's figures for them then. */
export interface PeriodPlace {
  readonly rank: number;
  readonly influencer: Influencer;
}

/** The trend as every view of it reads it. */
export interface TrendView {
  readonly metric: Metric;
  readonly unit: TrendUnit;
  readonly periods: readonly Period[];
  /** The latest period anyone ranks in (the people's period); -1 when nobody ranks. */
  readonly anchor: number;
  /** The anchor period's top N, in its order. */
  readonly people: readonly TrendPerson[];
}

/** People the chart draws: the top five, one line each. */
const chartPeople = 5;
/** The table's first column names the person; the periods take the rest, latest kept. */
const periodColumns = blockKitLimits.dataTableColumns - 1;
const nameWidth = 30;
const tablePageSize = 10;
/** Characters kept back from the message budget for the "…and N more" line. */
const moreLineReserve = 80;
const fallbackHandles = 3;

const unitWords: Readonly<Record<TrendUnit, { adjective: string; noun: string; axis: string }>> = {
  day: { adjective: 'Daily', noun: 'day', axis: 'Day' },
  week: { adjective: 'Weekly', noun: 'week', axis: 'Week (from Monday)' },
  month: { adjective: 'Monthly', noun: 'month', axis: 'Month' },
};

const monthNames = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

const plainHandle = /^@*[A-Za-z0-9_]+$/u;

/**
 * What matches a person across periods: the screen name as `rankingOf` cleans it, lower-cased
 * (X treats it so); a plain handle skips the cleaning, which a trend would do 4,000 times.
 */
export function handleKey(screenName: unknown): string {
  const raw = typeof screenName === 'string' ? screenName : '';
  const clean = plainHandle.test(raw) ? raw : cleanText(raw);
  return clean.replace(/^@+/u, '').toLowerCase();
}

/** Where each screen name stands in a period's answer (its first place), within the top 500. */
function placesOf(result: InfluencersResult): Map<string, number> {
  const places = new Map<string, number>();
  const count = Math.min(result.influencers.length, wholeRankingLimit);
  for (let index = 0; index < count; index++) {
    const key = handleKey(result.influencers[index]?.screenName);
    if (key !== '' && !places.has(key)) places.set(key, index);
  }
  return places;
}

/**
 * The people of the trend and their rows in each period: the latest period's top `top` when
 * `who` is `latest`; with `everyone`, each period's top `top` (the file's rows), the latest
 * period's first, then those met going back in time. Rows are made only for these people, so a
 * trend of whole rankings costs little more than its people.
 */
export function trendOf(
  request: LookupRequest,
  rankings: readonly PeriodRanking[],
  who: 'latest' | 'everyone' = 'latest',
): TrendView {
  const metric = request.metric ?? defaultMetric;
  const unit = request.trend?.unit ?? 'week';
  const results = rankings.map(({ result }) => result.influencers);
  const places = rankings.map(({ result }) => placesOf(result));
  let anchor = results.length - 1;
  while (anchor >= 0 && (results[anchor]?.length ?? 0) === 0) anchor -= 1;
  const top = Number.isInteger(request.top) && request.top > 0 ? request.top : 10;
  const chosen: { row: RankedRow; at: number; key: string }[] = [];
  const seen = new Set<string>();
  const choose = (at: number): void => {
    (results[at] ?? []).slice(0, top).forEach((influencer, index) => {
      // The key first: a person met in a later period needs no row made again.
      const key = handleKey(influencer.screenName);
      if (key !== '' && seen.has(key)) return;
      if (key !== '') seen.add(key);
      chosen.push({ row: rowOf(influencer, index), at, key });
    });
  };
  if (anchor >= 0) choose(anchor);
  if (who === 'everyone') {
    for (let at = results.length - 1; at >= 0; at -= 1) if (at !== anchor) choose(at);
  }
  const people = chosen.map(({ row, at, key }) => ({
    row,
    ranks: places.map((found, index) => {
      if (index === at) return row;
      const place = key === '' ? undefined : found.get(key);
      const influencer = place === undefined ? undefined : results[index]?.[place];
      return influencer === undefined || place === undefined
        ? undefined
        : { rank: rankOf(influencer, place), influencer };
    }),
  }));
  return { metric, unit, periods: rankings.map(({ period }) => period), anchor, people };
}

/**
 * Each period's short label, distinct and within a chart's 20 characters: `Nov 16`, `Nov` for
 * months, with `'25` when the periods span two years, and ` · so far` on the current one (its
 * short form, in the fallback's table, leaves that out).
 */
export function periodLabels(periods: readonly Period[], unit: TrendUnit, zone: string): string[] {
  const starts = periods.map((period) => instantInZone(period.start, zone));
  const years = new Set(starts.map((start) => start.year));
  const labels = periods.map((period, index) => {
    const start = starts[index];
    if (start === undefined || !start.isValid) return cleanText(period.start);
    const month = monthNames[start.month - 1] ?? '';
    const day = unit === 'month' ? '' : ` ${start.day}`;
    const year = years.size > 1 ? ` '${String(start.year % 100).padStart(2, '0')}` : '';
    return `${month}${day}${year}${period.partial ? ' · so far' : ''}`;
  });
  return uniqueLabels(labels);
}

/** A period in a sentence: "the week of Nov 16 (so far)", "Nov 21", "Oct". */
export function periodWords(label: string | undefined, unit: TrendUnit): string {
  const [plain = '', ...rest] = (label ?? '').split(' · ');
  const named = unit === 'week' ? `the week of ${plain}` : plain;
  return rest.length > 0 ? `${named} (so far)` : named;
}

/**
 * The answer to a trend lookup from each period's ranking (in order), within Block Kit's limits
 * whatever the service sent.
 */
export function renderTrend(
  request: LookupRequest,
  rankings: readonly PeriodRanking[],
  options: Pick<AnswerOptions, 'shareable' | 'note' | 'audience' | 'actions'> = {},
): SlackMessage {
  const view = trendOf(request, rankings);
  const databases = formatDatabases(request.databases);
  const words = unitWords[view.unit];
  const labels = periodLabels(view.periods, view.unit, request.timezone);
  const head: KnownBlock[] = [
    header(`${words.adjective} trend for ${databases}`),
    context(windowLine(request, view, rankings)),
  ];
  if (options.note !== undefined && cleanText(options.note).length > 0) {
    head.push(context(truncateMrkdwn(escapeMrkdwn(cleanText(options.note)), 1000)));
  }
  const { export: _file, presentation: _shown, ...asked } = request;
  const tail = answerButtons(asked, options, {
    compare: false,
    table: false,
    chart: false,
    export: true,
  });
  if (view.people.length === 0) {
    const named = neutralizeMrkdwn(truncate(databases, 300));
    const ranked = rankings.some(({ result }) => (result.selection?.pool ?? 0) > 0);
    // The service ranked people, and the filter kept none of them: the filter is at fault.
    const filter = ranked ? request.stakeholders : undefined;
    const text =
      filter === undefined
        ? `No influencers found for ${named} in any ${words.noun} of ${formatDayRange(request)}.`
        : truncateMrkdwn(
            `The filter (${escapeMrkdwn(filterWords(filter))}) kept nobody of any ${words.noun}'s top ${wholeRankingLimit} by ${metricName(view.metric)} of ${named}, ${formatDayRange(request)}.`,
            blockKitLimits.fallbackText - 100,
          );
    const hint =
      filter === undefined
        ? 'Try a longer window (for example `last 12 weeks weekly`), or check the database name.'
        : 'Try without it, or a longer window (for example `last 12 weeks weekly`).';
    return checked({
      text: truncateMrkdwn(text, blockKitLimits.fallbackText),
      blocks: [...head, section(`${text} ${hint}`), ...tail],
    });
  }
  const anchorLabel = periodWords(labels[view.anchor], view.unit);
  const metricTitle = metricHeading(view.metric);
  const chart = trendChart(
    view,
    labels,
    `${metricTitle} per ${words.noun}, top ${Math.min(chartPeople, view.people.length)} · ${databases}`,
  );
  const mix = mixMrkdwn(view.people.map(({ row }) => row));
  const caption = truncate(
    cleanText(
      `Rank · ${metricName(view.metric)} each ${words.noun} of the top ${view.people.length} in ${anchorLabel}; – not in that ${words.noun}'s top ${wholeRankingLimit} · ${databases}`,
    ),
    blockKitLimits.dataTableCaption,
  );
  const fixed: MessageBlock[] = [
    ...head,
    section(truncateMrkdwn(takeaway(view, labels), blockKitLimits.sectionText)),
    ...(chart === undefined ? [] : [chart]),
    ...(mix.length === 0 ? [] : [context(truncateMrkdwn(mix, 1000))]),
    context(metricsFootnote),
    ...tail,
  ];
  const budget = blockKitLimits.messageBlockText - textOf(fixed) - moreLineReserve;
  const table = trendTable(view, labels, caption, budget);
  const hidden = view.people.length - (table?.shown ?? 0);
  const chartAt = head.length + 1 + (chart === undefined ? 0 : 1);
  return checked({
    text: fallbackText(request, databases, view, words.adjective),
    blocks: [
      ...fixed.slice(0, chartAt),
      ...(table === undefined ? [] : [table.block]),
      ...(hidden > 0 ? [context(`…and ${hidden} more not shown here: Export CSV for all`)] : []),
      ...fixed.slice(chartAt),
    ],
  });
}

/**
 * "8 weeks, Sep 28–Nov 21, the last one so far · ranked by mentions · queried in …", saying who
 * was kept (`doctors`) and what ranks them (`by followers`) when this app chose, not the service.
 */
function windowLine(
  request: LookupRequest,
  view: TrendView,
  rankings: readonly PeriodRanking[],
): string {
  const count = view.periods.length;
  const noun = unitWords[view.unit].noun;
  const partial = view.periods.at(-1)?.partial === true ? ', the last one so far' : '';
  const zone = escapeMrkdwn(truncate(cleanText(request.timezone), 64));
  const latest = rankings[view.anchor]?.result ?? { influencers: [] };
  const kept =
    request.stakeholders === undefined
      ? []
      : [
          truncateMrkdwn(
            escapeMrkdwn(
              `${filterWords(request.stakeholders)} among each ${noun}'s top ${wholeRankingLimit} by ${metricName(view.metric)}`,
            ),
            1000,
          ),
        ];
  return [
    `${count} ${noun}${count === 1 ? '' : 's'}, ${escapeMrkdwn(formatDayRange(request))}${partial}`,
    rankingWords(request, view.metric, latest),
    ...kept,
    `queried in ${zone}`,
  ].join(' · ');
}

/**
 * What the chart shows, in words (a chart cannot point at a value): who leads the latest period,
 * and who climbed most since the first.
 */
function takeaway(view: TrendView, labels: readonly string[]): string {
  const lead = view.people[0];
  if (lead === undefined) return '';
  const figure = metricValue(lead.row.influencer, view.metric);
  const lines = [
    `*${personLabel(lead.row)}* leads ${periodWords(labels[view.anchor], view.unit)}` +
      (figure === undefined ? '.' : ` with ${metricFigure(figure, view.metric)}.`),
  ];
  if (view.anchor > 0) {
    let best: { person: TrendPerson; from: number | undefined; gain: number } | undefined;
    for (const person of view.people) {
      const now = person.ranks[view.anchor]?.rank;
      if (now === undefined) continue;
      const then = person.ranks[0]?.rank;
      const gain = (then ?? wholeRankingLimit + 1) - now;
      if (gain > 0 && (best === undefined || gain > best.gain)) best = { person, from: then, gain };
    }
    if (best !== undefined) {
      const from =
        best.from === undefined ? `outside the top ${wholeRankingLimit}` : `#${best.from}`;
      lines.push(
        `Biggest climb since ${periodWords(labels[0], view.unit)}: *${personLabel(best.person.row)}*, ${from} → #${best.person.row.rank}.`,
      );
    }
  }
  return lines.join('\n');
}

/** A line chart of the top five's metric in each period (0 where one was not ranked). */
function trendChart(
  view: TrendView,
  labels: readonly string[],
  title: string,
): DataVisualizationBlock | undefined {
  const shown = view.people.slice(0, chartPeople);
  if (shown.length === 0 || labels.length === 0) return undefined;
  const names = uniqueLabels(shown.map(({ row }) => plainName(row)));
  return {
    type: 'data_visualization',
    title: chartTitle(title),
    chart: {
      type: 'line',
      series: shown.map((person, index) => ({
        name: names[index] ?? `#${index + 1}`,
        data: labels.map((label, at) => {
          const ranked = person.ranks[at];
          return {
            label,
            value: ranked === undefined ? 0 : (metricValue(ranked.influencer, view.metric) ?? 0),
          };
        }),
      })),
      axis_config: {
        categories: labels,
        x_label: unitWords[view.unit].axis,
        y_label: metricHeading(view.metric),
      },
    },
  };
}

/** `@handle`, else the name, else `#rank`: plain text, for a chart or a table. */
function plainName(row: RankedRow): string {
  if (row.handle.length > 0) return `@${row.handle}`;
  return row.name.length > 0 ? row.name : `#${row.rank}`;
}

type Cell = RawTextElement | RawNumberElement;

const textCell = (value: string): RawTextElement => ({
  type: 'raw_text',
  text: value.length > 0 ? value : missingCell,
});

/** `#3 · 1.2K`, sorted by the rank; `–` for a period the person was not ranked in. */
function rankCell(row: PeriodPlace | undefined, metric: Metric): Cell {
  if (row === undefined) return textCell(missingCell);
  const value = metricValue(row.influencer, metric);
  const figure =
    value === undefined
      ? ''
      : ` · ${Math.abs(value) < 1e15 ? compactNumber(value) : value.toExponential(2)}`;
  return { type: 'raw_number', value: row.rank, text: `#${row.rank}${figure}` };
}

/**
 * People as rows, the periods as columns (the latest 19 when there are 20: the first column names
 * the person), within `charBudget` characters of caption and cells; undefined when not one row
 * fits.
 */
function trendTable(
  view: TrendView,
  labels: readonly string[],
  caption: string,
  charBudget: number,
): { readonly block: KnownBlock; readonly shown: number } | undefined {
  const from = Math.max(0, labels.length - periodColumns);
  const earlier = from > 0 ? ` (the first ${from} in the chart and the CSV)` : '';
  const title = `${truncate(caption, blockKitLimits.dataTableCaption - earlier.length)}${earlier}`;
  const headings = labels.slice(from);
  const header: Cell[] = [textCell('Influencer'), ...headings.map(textCell)];
  const budget = Math.min(charBudget - title.length, blockKitLimits.dataTableText);
  let used = header.reduce((sum, cell) => sum + cell.text.length, 0);
  const body: Cell[][] = [];
  for (const person of view.people.slice(0, blockKitLimits.dataTableRows - 1)) {
    const cells = [
      textCell(truncate(plainName(person.row), nameWidth)),
      ...headings.map((_, index) => rankCell(person.ranks[from + index], view.metric)),
    ];
    const length = cells.reduce((sum, cell) => sum + cell.text.length, 0);
    if (used + length > budget) break;
    used += length;
    body.push(cells);
  }
  if (body.length === 0) return undefined;
  return {
    block: {
      type: 'data_table',
      caption: title,
      page_size: tablePageSize,
      rows: [header, ...body],
    },
    shown: body.length,
  };
}

function fallbackText(
  request: LookupRequest,
  databases: string,
  view: TrendView,
  adjective: string,
): string {
  const names = view.people
    .slice(0, fallbackHandles)
    .map(({ row }) => truncateMrkdwn(personLabel(row), 80))
    .join(', ');
  const ellipsis = view.people.length > fallbackHandles ? '…' : '';
  return truncateMrkdwn(
    `${adjective} trend for ${neutralizeMrkdwn(truncate(databases, 300))}, ${formatDayRange(request)}: ${names}${ellipsis}`,
    blockKitLimits.fallbackText,
  );
}
