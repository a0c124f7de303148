/**
 * The ranking as Slack's native `data_visualization` block, by person or by category.
 * A bar chart of the top people by the ranking metric (this period beside the previous one when
 * compared), or the stakeholder categories among them, counted by people. Labels are short and
 * plain (at most 20 characters), as the block asks.
 */
import type { DataVisualizationBlock } from '../../model/message.ts';
import { cleanText, truncate } from '../format.ts';
import { blockKitLimits } from '../limits.ts';
import { metricHeading, metricValue } from './metric-words.ts';
import type { RankedRow, Ranking } from './ranking.ts';
import { stakeholderMix } from './stakeholder-mix.ts';

/** Bars a chart shows: the top ten, whatever the top N. */
export const maxChartBars = 10;

const seriesNames = { current: 'This period', previous: 'Previous period' } as const;
const noCategory = 'No category';
const otherCategories = 'Other';

/** A bar chart of the top {@link maxChartBars} by the ranking metric; undefined when empty. */
export function rankingBarChart(
  ranking: Ranking,
  title: string,
): DataVisualizationBlock | undefined {
  const rows = ranking.rows.slice(0, maxChartBars);
  if (rows.length === 0) return undefined;
  // Someone without a place then is drawn at 0 before, which their label says is no figure: new
  // (the previous ranking was whole), or outside the part of it that was fetched (`>500`).
  const absent = ranking.compared ? absentMark(ranking) : '';
  const categories = uniqueLabels(
    rows.map((row) =>
      ranking.compared && row.before === undefined ? marked(row, absent) : barLabel(row),
    ),
  );
  const values = (row: RankedRow | undefined): number =>
    row === undefined ? 0 : (metricValue(row.influencer, ranking.metric) ?? 0);
  const points = (pick: (row: RankedRow) => RankedRow | undefined) =>
    rows.map((row, index) => ({ label: categories[index] ?? '', value: values(pick(row)) }));
  const series: { name: string; data: { label: string; value: number }[] }[] = [
    { name: seriesNames.current, data: points((row) => row) },
  ];
  if (ranking.compared)
    series.push({ name: seriesNames.previous, data: points((row) => row.before) });
  return {
    type: 'data_visualization',
    title: chartTitle(title),
    chart: {
      type: 'bar',
      series,
      axis_config: {
        categories,
        x_label: 'Influencer',
        y_label: metricHeading(ranking.metric),
      },
    },
  };
}

/**
 * The stakeholder categories among the ranking's people, counted by people: a pie (the five most
 * frequent and "Other") while nobody is in two categories, so that its shares are shares of the
 * people; otherwise a bar per category, since overlapping counts cannot be slices of one whole.
 * Undefined when empty.
 */
export function categoryPie(ranking: Ranking, title: string): DataVisualizationBlock | undefined {
  if (ranking.rows.length === 0) return undefined;
  const mix = stakeholderMix(ranking.rows);
  const counts: (readonly [string, number])[] = [...mix.counts];
  if (mix.uncategorized > 0) counts.push([noCategory, mix.uncategorized]);
  if (mix.overlapping) {
    // A bar per category; the answer's mix line says that someone in two counts in each.
    const points = namedPoints(counts, blockKitLimits.chartCategories);
    return {
      type: 'data_visualization',
      title: chartTitle(title),
      chart: {
        type: 'bar',
        series: [{ name: 'People', data: points }],
        axis_config: {
          categories: points.map(({ label }) => label),
          x_label: 'Category',
          y_label: 'People',
        },
      },
    };
  }
  return {
    type: 'data_visualization',
    title: chartTitle(title),
    chart: { type: 'pie', segments: namedPoints(counts, blockKitLimits.chartSegments) },
  };
}

/**
 * At most `max` labelled counts, most first: the first `max - 1` by name and the rest summed as
 * "Other" when there are more.
 */
function namedPoints(
  counts: readonly (readonly [string, number])[],
  max: number,
): { label: string; value: number }[] {
  const named = counts.length <= max ? counts : counts.slice(0, max - 1);
  const rest = counts.slice(named.length).reduce((sum, [, count]) => sum + count, 0);
  const labels = uniqueLabels([
    ...named.map(([name]) => name),
    ...(rest > 0 ? [otherCategories] : []),
  ]);
  const values = [...named.map(([, count]) => count), ...(rest > 0 ? [rest] : [])];
  return labels.map((label, index) => ({ label, value: values[index] ?? 0 }));
}

/** A chart's title, plain and within the block's 50 characters. */
export function chartTitle(title: string): string {
  return truncate(cleanText(title), blockKitLimits.chartTitle) || 'Top influencers';
}

/** "#1 @drjane_doe": the rank keeps labels apart and tells the bars' order at a glance. */
function barLabel(row: RankedRow): string {
  const who = row.handle.length > 0 ? `@${row.handle}` : row.name;
  return `#${row.rank}${who.length > 0 ? ` ${who}` : ''}`;
}

/** `#3 @JudeCares ·>500`: the bar's label with its mark, the label cut to leave room for it. */
function marked(row: RankedRow, mark: string): string {
  const suffix = ` ·${mark}`;
  return `${truncate(cleanText(barLabel(row)), blockKitLimits.chartLabel - suffix.length)}${suffix}`;
}

/** The mark of a row without a place then: `new`, or `>500` outside the fetched 500. */
function absentMark(ranking: Ranking): string {
  const depth = ranking.previousDepth ?? 0;
  return depth < ranking.top ? 'new' : `>${depth}`;
}

/** Labels cut to the block's 20 characters and kept distinct, since a series matches on them. */
export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Set<string>();
  return labels.map((raw, index) => {
    const base = truncate(cleanText(raw), blockKitLimits.chartLabel) || `#${index + 1}`;
    let label = base;
    for (let n = index + 1; seen.has(label); n += 1) {
      const suffix = ` ${n}`;
      label = `${truncate(base, blockKitLimits.chartLabel - suffix.length)}${suffix}`;
    }
    seen.add(label);
    return label;
  });
}
