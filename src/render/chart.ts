/**
 * The ranking as Slack's native `data_visualization` block: a bar chart of the top people by the
 * ranking metric (this period beside the previous one when compared), or a pie of the stakeholder
 * categories among them. Labels are short and plain (at most 20 characters), as the block asks.
 */
import type { DataVisualizationBlock } from '../model/message.ts';
import { cleanText, truncate } from './format.ts';
import { blockKitLimits } from './limits.ts';
import { metricHeading, metricValue } from './metric-words.ts';
import type { RankedRow, Ranking } from './ranking.ts';

/** Bars a chart shows: the top ten, whatever the top N. */
export const maxChartBars = 10;
/** Named slices of the category pie; the rest are summed as "Other". */
const namedSlices = blockKitLimits.chartSegments - 1;

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
  const categories = uniqueLabels(rows.map(barLabel));
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
 * A pie of the stakeholder categories among the ranking's people (one count per person and
 * category): the five most frequent and "Other"; undefined when empty.
 */
export function categoryPie(ranking: Ranking, title: string): DataVisualizationBlock | undefined {
  if (ranking.rows.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const row of ranking.rows) {
    const names = row.categories.length > 0 ? row.categories : [noCategory];
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  // Stable: equal counts keep the order they were first met in, the ranking's.
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const named =
    sorted.length <= blockKitLimits.chartSegments ? sorted : sorted.slice(0, namedSlices);
  const rest = sorted.slice(named.length).reduce((sum, [, count]) => sum + count, 0);
  const labels = uniqueLabels([
    ...named.map(([name]) => name),
    ...(rest > 0 ? [otherCategories] : []),
  ]);
  const values = [...named.map(([, count]) => count), ...(rest > 0 ? [rest] : [])];
  return {
    type: 'data_visualization',
    title: chartTitle(title),
    chart: {
      type: 'pie',
      segments: labels.map((label, index) => ({ label, value: values[index] ?? 0 })),
    },
  };
}

function chartTitle(title: string): string {
  return truncate(cleanText(title), blockKitLimits.chartTitle) || 'Top influencers';
}

/** "#1 @drjane_doe": the rank keeps labels apart and tells the bars' order at a glance. */
function barLabel(row: RankedRow): string {
  const who = row.handle.length > 0 ? `@${row.handle}` : row.name;
  return `#${row.rank}${who.length > 0 ? ` ${who}` : ''}`;
}

/** Labels cut to the block's 20 characters and kept distinct, since a series matches on them. */
function uniqueLabels(labels: readonly string[]): string[] {
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
