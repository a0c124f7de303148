/**
 * The whole ranking as Slack's native `data_table` block: sortable numbers, ten rows a page.
 * Within its documented limits it holds whatever the service sent (2-101 rows with the header, at
 * most 20 columns of equal length, about 10,000 characters across the cells: names and categories
 * are shortened until every row fits, and rows are left out only when even that is not enough).
 */
import type { DataTableBlock, RawNumberElement, RawTextElement } from '@slack/types';
import { compactNumber, truncate } from '../format.ts';
import { blockKitLimits } from '../limits.ts';
import { missingCell } from '../text-figures.ts';
import { followersOf } from './answer-list.ts';
import { metricHeading, metricsRankedFirst, metricValue, signedNumber } from './metric-words.ts';
import { absentBefore, metricDelta, moveSymbol, type RankedRow, type Ranking } from './ranking.ts';

/** Rows a page shows before Slack offers the next one. */
const tablePageSize = 10;

type Cell = RawTextElement | RawNumberElement;

type Widths = readonly [name: number, handle: number, categories: number];

/** Widths tried in turn for the cells that can be shortened, until the table fits its budget. */
const widest: Widths = [40, 20, 60];
const widthSteps: readonly Widths[] = [
  widest,
  [32, 20, 40],
  [24, 16, 24],
  [18, 15, 16],
  [14, 12, 10],
  [10, 10, 6],
];

interface Column {
  readonly heading: string;
  /** The column's cell for a row; `width` bounds the text of the columns that can be shortened. */
  readonly cell: (row: RankedRow, width: Widths) => Cell;
  /** True for the columns `width` shortens: the others are drawn once, whatever the widths. */
  readonly shortens?: boolean;
}

/**
 * The ranking as a table whose cells hold at most `charBudget` characters (and never more than
 * Slack's own budget), with `shown` the rows it holds and `chars` the characters its cells hold;
 * undefined when not even one row fits.
 */
export function rankingTable(
  ranking: Ranking,
  caption: string,
  charBudget: number,
): { readonly block: DataTableBlock; readonly shown: number; readonly chars: number } | undefined {
  const columns = columnsOf(ranking);
  const budget = Math.min(charBudget, blockKitLimits.dataTableText);
  const rows = ranking.rows.slice(0, blockKitLimits.dataTableRows - 1);
  const header: Cell[] = columns.map((column) => text(column.heading));
  const headerChars = cellsLength(header);
  // Figures are drawn once; only the cells the widths shorten are drawn again at each step.
  const fixed = rows.map((row) =>
    columns.map((column) => (column.shortens === true ? undefined : column.cell(row, widest))),
  );
  for (const width of widthSteps) {
    const body = rows.map((row, index) =>
      columns.map((column, at) => fixed[index]?.[at] ?? column.cell(row, width)),
    );
    let total = headerChars;
    let shown = 0;
    for (const cells of body) {
      const length = cellsLength(cells);
      if (total + length > budget) break;
      total += length;
      shown += 1;
    }
    if (shown === body.length || (width === widthSteps.at(-1) && shown > 0)) {
      return {
        block: {
          type: 'data_table',
          caption,
          page_size: tablePageSize,
          rows: [header, ...body.slice(0, shown)],
        },
        shown,
        chars: total,
      };
    }
  }
  return undefined;
}

function columnsOf(ranking: Ranking): Column[] {
  const { rows, metric } = ranking;
  const columns: Column[] = [
    { heading: 'Rank', cell: (row) => number(row.rank) },
    { heading: 'Name', cell: (row, [name]) => text(truncate(row.name, name)), shortens: true },
    {
      heading: 'Handle',
      cell: (row, [, handle]) =>
        text(row.handle.length > 0 ? truncate(`@${row.handle}`, handle) : ''),
      shortens: true,
    },
  ];
  if (ranking.compared) {
    columns.push(
      {
        heading: 'Then',
        cell: (row) =>
          text(row.before === undefined ? absentBefore(ranking) : `#${row.before.rank}`),
      },
      { heading: 'Change', cell: (row) => text(row.before === undefined ? '' : moveSymbol(row)) },
    );
    if (rows.some((row) => metricDelta(row, metric) !== undefined)) {
      columns.push({
        heading: `Δ ${metricHeading(metric)}`,
        cell: (row) => signed(metricDelta(row, metric)),
      });
    }
  }
  for (const name of metricsRankedFirst(metric)) {
    if (!rows.some((row) => metricValue(row.influencer, name) !== undefined)) continue;
    columns.push({
      heading: metricHeading(name),
      cell: (row) => number(metricValue(row.influencer, name)),
    });
  }
  if (rows.some((row) => followersOf(row) !== undefined)) {
    columns.push({ heading: 'Followers', cell: (row) => number(followersOf(row)) });
  }
  if (rows.some((row) => row.categories.length > 0)) {
    columns.push({
      heading: 'Categories',
      cell: (row, [, , categories]) => text(truncate(row.categories.join(', '), categories)),
      shortens: true,
    });
  }
  return columns;
}

/** A table's figure: compact, and never longer than a dozen characters whatever the value. */
function tableNumber(value: number): string {
  return Math.abs(value) < 1e15 ? compactNumber(value) : value.toExponential(2);
}

function text(value: string): RawTextElement {
  return { type: 'raw_text', text: value.length > 0 ? value : missingCell };
}

function number(value: number | undefined): Cell {
  if (value === undefined || !Number.isFinite(value)) return text('');
  return { type: 'raw_number', value, text: tableNumber(value) };
}

function signed(value: number | undefined): Cell {
  if (value === undefined || !Number.isFinite(value)) return text('');
  return {
    type: 'raw_number',
    value,
    text: Math.abs(value) < 1e15 ? signedNumber(value) : value.toExponential(2),
  };
}

function cellsLength(cells: readonly Cell[]): number {
  let total = 0;
  for (const cell of cells) total += cell.text.length;
  return total;
}
