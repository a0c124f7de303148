import type { KnownBlock } from '@slack/types';

/**
 * Slack's chart block (docs.slack.dev/reference/block-kit/blocks/data-visualization-block), which
 * @slack/types 3.2 does not describe yet. Read from that page: `title` at most 50 characters;
 * `chart` is a pie (`segments`, 1-6, each a label and a value) or a bar, line or area chart
 * (`series`, 1-6 with unique names of at most 20 characters, each with one `{ label, value }` per
 * category, and `axis_config` with the `categories` in order, labels of at most 20 characters,
 * and optional `x_label` / `y_label` of at most 50). A message holds at most two of these.
 */
export interface DataVisualizationBlock {
  readonly type: 'data_visualization';
  readonly block_id?: string;
  readonly title: string;
  readonly chart: PieChart | SeriesChart;
}

export interface ChartPoint {
  readonly label: string;
  readonly value: number;
}

export interface PieChart {
  readonly type: 'pie';
  readonly segments: readonly ChartPoint[];
}

export interface SeriesChart {
  readonly type: 'bar' | 'line' | 'area';
  readonly series: readonly { readonly name: string; readonly data: readonly ChartPoint[] }[];
  readonly axis_config: {
    readonly categories: readonly string[];
    readonly x_label?: string;
    readonly y_label?: string;
  };
}

/** A block of a message: Block Kit's known blocks and the chart block beside them. */
export type MessageBlock = KnownBlock | DataVisualizationBlock;

/** A message ready for chat.postMessage, response_url or the console: `text` is the notification fallback. */
export interface SlackMessage {
  readonly text: string;
  readonly blocks: MessageBlock[];
}
