/**
 * Native tables and charts drawn with characters, for wherever those blocks cannot be shown.
 * They are read from the blocks themselves (a `data_table`'s rows, a `data_visualization`'s
 * series), so any message works: in a code block when Slack refuses them, and in the console,
 * which shows what Slack would.
 */
import { compactNumber, truncate } from './format.ts';

/** A block read loosely: whatever sent it, only the fields drawn here are looked at. */
export interface TableLike {
  readonly caption?: unknown;
  readonly rows?: unknown;
}

export interface ChartLike {
  readonly title?: unknown;
  readonly chart?: unknown;
}

export interface TableTextOptions {
  /**
   * `all` columns, or `compact`: the first three (rank, name, handle) and those whose cells are
   * all short (the figures, a move), leaving out long text such as categories. In `compact`, a
   * cell written `short · more` (a trend's `#3 · 1.2K`) shows its short part.
   */
  readonly columns: 'all' | 'compact';
  /** Longer cells are cut, in characters. */
  readonly maxCellWidth: number;
}

/** Columns of `compact` text: cells up to this wide, besides the first three. */
const compactCellWidth = 8;
/** Where the short form of a cell ends, for `compact` text. */
const shortFormEnd = ' · ';
/** A line chart's values drawn as a sparkline, lowest to highest; `·` for nothing. */
const sparks = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
const columnGap = '  ';
/** Eighths of a block, for bars drawn to an eighth of a character. */
const eighths = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const;
const fullBlock = '█';
const barWidth = 24;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNumber = (cell: unknown): boolean => isRecord(cell) && cell.type === 'raw_number';

/** What a table shows in a cell without a value: a column of figures may hold it too. */
export const missingCell = '–';

/** The text a table cell shows: a raw cell's `text`, a rich_text cell's texts joined. */
export function cellText(cell: unknown): string {
  if (!isRecord(cell)) return '';
  if (cell.type !== 'rich_text') return typeof cell.text === 'string' ? cell.text : '';
  const walk = (value: unknown): string =>
    Array.isArray(value)
      ? value.map(walk).join('')
      : isRecord(value)
        ? typeof value.text === 'string'
          ? value.text
          : walk(value.elements)
        : '';
  return walk(cell.elements);
}

/** Characters as a terminal or a code block lays them out (code points, near enough). */
function width(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function pad(text: string, to: number, right: boolean): string {
  const gap = ' '.repeat(Math.max(0, to - width(text)));
  return right ? `${gap}${text}` : `${text}${gap}`;
}

/**
 * A table's rows as aligned lines: `head` is the header and a rule under it, `rows` one line per
 * body row. Numbers (columns of `raw_number` cells) are aligned right.
 */
export function tableText(
  block: TableLike,
  options: TableTextOptions,
): { readonly head: readonly string[]; readonly rows: readonly string[] } {
  const rows = (Array.isArray(block.rows) ? (block.rows as unknown[]) : []).map((row) =>
    Array.isArray(row) ? row : [],
  );
  const [header = [], ...body] = rows;
  const count = Math.max(0, ...rows.map((row) => row.length));
  const shown = (cell: unknown): string => {
    const text = cellText(cell).replace(/\s+/gu, ' ');
    return options.columns === 'compact' ? (text.split(shortFormEnd)[0] ?? text) : text;
  };
  const texts = rows.map((row) =>
    Array.from({ length: count }, (_, column) =>
      truncate(shown(row[column]), options.maxCellWidth),
    ),
  );
  const columns = Array.from({ length: count }, (_, column) => column).filter(
    (column) =>
      options.columns === 'all' ||
      column < 3 ||
      texts.slice(1).every((row) => width(row[column] ?? '') <= compactCellWidth),
  );
  const numeric = columns.map(
    (column) =>
      body.length > 0 &&
      body.some((row) => isNumber(row[column])) &&
      body.every((row) => isNumber(row[column]) || cellText(row[column]) === missingCell),
  );
  const widths = columns.map((column) =>
    Math.max(0, ...texts.map((row) => width(row[column] ?? ''))),
  );
  const line = (row: readonly string[]): string =>
    columns
      .map((column, index) => pad(row[column] ?? '', widths[index] ?? 0, numeric[index] === true))
      .join(columnGap)
      .trimEnd();
  const [headerTexts = [], ...bodyTexts] = texts;
  return {
    head: header.length > 0 ? [line(headerTexts), '-'.repeat(width(line(headerTexts)))] : [],
    rows: bodyTexts.map(line),
  };
}

/** The bar for `value` on a scale where `max` fills {@link barWidth} characters. */
export function bar(value: number, max: number): string {
  if (!(value > 0) || !(max > 0)) return '';
  const cells = Math.min(1, value / max) * barWidth;
  let full = Math.floor(cells);
  let eighth = Math.round((cells - full) * 8);
  if (eighth === 8) {
    full += 1;
    eighth = 0;
  }
  const drawn = `${fullBlock.repeat(full)}${eighths[eighth] ?? ''}`;
  return drawn.length > 0 ? drawn : eighths[1];
}

/** A bar and the figure after it, one space apart. */
function barWith(value: number, max: number, figure: string): string {
  const drawn = bar(value, max);
  return drawn.length > 0 ? `${drawn} ${figure}` : figure;
}

interface Point {
  readonly label: string;
  readonly value: number;
}

function pointsOf(value: unknown): Point[] {
  return (Array.isArray(value) ? value : []).map((point) => ({
    label: isRecord(point) && typeof point.label === 'string' ? point.label : '',
    value:
      isRecord(point) && typeof point.value === 'number' && Number.isFinite(point.value)
        ? point.value
        : 0,
  }));
}

/**
 * A chart as text: a pie's segments with their share and a bar or area chart's categories with
 * each series' value (the series named when there are several) as horizontal bars, one line per
 * value; a line chart as one sparkline per series on a common scale, under the first and last
 * categories, ending with its last value.
 */
export function chartText(block: ChartLike): readonly string[] {
  const chart = isRecord(block.chart) ? block.chart : {};
  if (chart.type === 'pie') {
    const segments = pointsOf(chart.segments);
    const total = segments.reduce((sum, { value }) => sum + Math.max(0, value), 0);
    const max = Math.max(0, ...segments.map(({ value }) => value));
    const labelWidth = Math.max(0, ...segments.map(({ label }) => width(label)));
    return segments.map(({ label, value }) => {
      const share = total > 0 ? Math.round((Math.max(0, value) / total) * 100) : 0;
      return `${pad(label, labelWidth, false)}  ${barWith(value, max, `${share}% (${compactNumber(value)})`)}`;
    });
  }
  const axis = isRecord(chart.axis_config) ? chart.axis_config : {};
  const series = (Array.isArray(chart.series) ? chart.series : []).map((one) => ({
    name: isRecord(one) && typeof one.name === 'string' ? one.name : '',
    data: pointsOf(isRecord(one) ? one.data : undefined),
  }));
  const categories = Array.isArray(axis.categories)
    ? axis.categories.map((category) => (typeof category === 'string' ? category : ''))
    : (series[0]?.data.map(({ label }) => label) ?? []);
  const max = Math.max(0, ...series.flatMap(({ data }) => data.map(({ value }) => value)));
  if (chart.type === 'line') return sparklines(series, categories, max);
  const labelWidth = Math.max(0, ...categories.map(width));
  const nameWidth = series.length > 1 ? Math.max(0, ...series.map(({ name }) => width(name))) : 0;
  const lines: string[] = [];
  categories.forEach((category, index) => {
    series.forEach(({ name, data }, seriesIndex) => {
      const value = data[index]?.value ?? 0;
      const label = pad(seriesIndex === 0 ? category : '', labelWidth, false);
      const named = nameWidth > 0 ? `  ${pad(name, nameWidth, false)}` : '';
      lines.push(`${label}${named}  ${barWith(value, max, compactNumber(value))}`);
    });
  });
  return lines;
}

/** {@link chartText} of a line chart: `@alice  ▂▃▅▇█▆  1.2K`, one line per series. */
function sparklines(
  series: readonly { readonly name: string; readonly data: readonly Point[] }[],
  categories: readonly string[],
  max: number,
): string[] {
  const nameWidth = Math.max(0, ...series.map(({ name }) => width(name)));
  const span = categories.length > 1 ? `${categories[0]} → ${categories.at(-1)}` : categories[0];
  const spark = (value: number): string =>
    value > 0 && max > 0
      ? (sparks[Math.min(sparks.length - 1, Math.floor((value / max) * sparks.length))] ?? '·')
      : '·';
  return [
    ...(span === undefined ? [] : [`${pad('', nameWidth, false)}  ${span}`]),
    ...series.map(({ name, data }) => {
      const points = categories.map((_, index) => spark(data[index]?.value ?? 0)).join('');
      const last = data[categories.length - 1]?.value ?? 0;
      return `${pad(name, nameWidth, false)}  ${points}  ${compactNumber(last)}`;
    }),
  ];
}
