/**
 * Block Kit's limits, and the check every rendering passes before it is sent.
 * Renderers truncate against {@link blockKitLimits}; {@link checked} throws on a breach, naming the
 * limit, so a renderer bug fails here rather than as Slack's opaque `invalid_blocks`.
 */
import type { AnyBlock } from '@slack/types';
import { cellText } from './text-figures.ts';

/**
 * Block Kit's documented limits, and the bot's own budgets where Slack's are vague: Slack refuses a
 * message that breaks any of them (`invalid_blocks`, `msg_blocks_too_long`), so renderers truncate
 * against these numbers and tests check every rendering with {@link checkBlockKitLimits}.
 */
export const blockKitLimits = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  /** Context text elements share the section text limit. */
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  blockId: 255,
  url: 3000,
  altText: 2000,
  /** Slack answers `msg_blocks_too_long` near 13,000 characters of block text; stay well below. */
  messageBlockText: 12_000,
  /** The notification fallback: Slack truncates at 40,000, but a notification is read in a glance. */
  fallbackText: 3000,
  viewTitle: 24,
  viewButton: 24,
  inputLabel: 2000,
  inputHint: 2000,
  placeholder: 150,
  callbackId: 255,
  privateMetadata: 3000,
  /** `data_table`: the header row and up to 100 more. */
  dataTableRows: 101,
  dataTableColumns: 20,
  pageSize: 100,
  /** Slack documents about 10,000 characters across a table's cells; stay below. */
  dataTableText: 9500,
  /** The table's caption has no documented limit; the bot's own. */
  dataTableCaption: 200,
  /** `data_visualization`: at most two a message. */
  chartsPerMessage: 2,
  chartTitle: 50,
  /** Category, data point, segment and series labels. */
  chartLabel: 20,
  chartAxisLabel: 50,
  chartSeries: 6,
  chartSegments: 6,
  /** Data points per series, so categories per chart. */
  chartCategories: 20,
} as const;

/** Messages allow 50 blocks and need a notification text; Home tabs and modals allow 100. */
export type Surface = 'message' | 'view';

/** A message (`text` + `blocks`) or a view (`blocks` + title, buttons, ids). */
export interface Renderable {
  readonly text?: string;
  readonly blocks: readonly AnyBlock[];
  readonly title?: TextLike;
  readonly submit?: TextLike;
  readonly close?: TextLike;
  readonly callback_id?: string;
  readonly private_metadata?: string;
}

interface TextLike {
  readonly type?: unknown;
  readonly text?: unknown;
}

/** A block as the checker reads it: every field optional, so any block (known or not) can be read. */
interface LooseBlock {
  readonly type: string;
  readonly block_id?: string;
  readonly text?: TextLike;
  readonly fields?: readonly TextLike[];
  readonly elements?: readonly LooseElement[];
  readonly accessory?: LooseElement;
  readonly element?: LooseElement;
  readonly label?: TextLike;
  readonly hint?: TextLike;
  readonly image_url?: string;
  readonly alt_text?: string;
  readonly caption?: unknown;
  readonly page_size?: unknown;
  readonly row_header_column_index?: unknown;
  readonly rows?: unknown;
  readonly title?: unknown;
  readonly chart?: unknown;
}

interface LooseElement {
  readonly type?: unknown;
  readonly text?: unknown;
  readonly action_id?: string;
  readonly value?: string;
  readonly url?: string;
  readonly image_url?: string;
  readonly alt_text?: string;
  readonly placeholder?: TextLike;
  readonly elements?: readonly LooseElement[];
}

const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && 'text' in value
      ? textOf((value as TextLike).text)
      : '';

/**
 * Every Block Kit limit `surface` breaks, as readable lines (`blocks[3].text: 3012 > 3000`); empty
 * when the message or view would be accepted. `text` is the message's notification fallback.
 */
export function checkBlockKitLimits(surface: Renderable, kind: Surface = 'message'): string[] {
  const problems: string[] = [];
  const limit = blockKitLimits;
  const over = (path: string, length: number, max: number): void => {
    if (length > max) problems.push(`${path}: ${length} > ${max}`);
  };
  const empty = (path: string, text: string): void => {
    if (text.trim().length === 0) problems.push(`${path}: empty`);
  };

  over(
    'blocks',
    surface.blocks.length,
    kind === 'message' ? limit.messageBlocks : limit.viewBlocks,
  );
  if (kind === 'message') {
    const fallback = surface.text ?? '';
    empty('text', fallback);
    over('text', fallback.length, limit.fallbackText);
  } else {
    for (const key of ['title', 'submit', 'close'] as const) {
      const value = surface[key];
      if (value !== undefined) {
        empty(key, textOf(value));
        over(key, textOf(value).length, key === 'title' ? limit.viewTitle : limit.viewButton);
      }
    }
    if (surface.callback_id !== undefined) {
      over('callback_id', surface.callback_id.length, limit.callbackId);
    }
    if (surface.private_metadata !== undefined) {
      over('private_metadata', surface.private_metadata.length, limit.privateMetadata);
    }
  }

  let total = 0;
  let charts = 0;
  const checker: Checker = {
    over,
    empty,
    problem: (text) => problems.push(text),
    count: (text) => {
      total += text.length;
      return text;
    },
  };
  surface.blocks.forEach((raw, index) => {
    if ((raw as LooseBlock).type === 'data_visualization') charts += 1;
    checkBlock(raw as LooseBlock, `blocks[${index}]`, kind, checker);
  });
  over('data_visualization blocks', charts, limit.chartsPerMessage);

  if (kind === 'message') over('block text', total, limit.messageBlockText);
  return problems;
}

interface Checker {
  over(path: string, length: number, max: number): void;
  empty(path: string, text: string): void;
  problem(text: string): void;
  /** Adds `text` to the message's block text and returns it. */
  count(text: string): string;
}

/**
 * The characters `block` adds to a message's block text, as {@link checkBlockKitLimits} counts
 * them against `messageBlockText`: renderers measure what they have placed with it.
 */
export function blockTextLength(block: AnyBlock): number {
  let total = 0;
  const ignore = (): void => {};
  checkBlock(block as LooseBlock, '', 'message', {
    over: ignore,
    empty: ignore,
    problem: ignore,
    count: (text) => {
      total += text.length;
      return text;
    },
  });
  return total;
}

function checkElement(path: string, element: LooseElement, { over, empty, count }: Checker): void {
  const limit = blockKitLimits;
  if (element.action_id !== undefined)
    over(`${path}.action_id`, element.action_id.length, limit.actionId);
  if (element.type === 'button') {
    const label = count(textOf(element.text));
    empty(`${path}.text`, label);
    over(`${path}.text`, label.length, limit.buttonText);
    if (element.value !== undefined) over(`${path}.value`, element.value.length, limit.buttonValue);
    if (element.url !== undefined) over(`${path}.url`, element.url.length, limit.url);
  }
  if (element.type === 'image') {
    over(`${path}.image_url`, (element.image_url ?? '').length, limit.url);
    const alt = element.alt_text ?? '';
    empty(`${path}.alt_text`, alt);
    over(`${path}.alt_text`, alt.length, limit.altText);
  }
  if (element.placeholder !== undefined) {
    over(`${path}.placeholder`, textOf(element.placeholder).length, limit.placeholder);
  }
}

/** The checks and the character count of one block, whatever its type. */
function checkBlock(block: LooseBlock, path: string, kind: Surface, checker: Checker): void {
  const { over, empty, problem, count } = checker;
  const limit = blockKitLimits;
  if (block.block_id !== undefined) over(`${path}.block_id`, block.block_id.length, limit.blockId);
  switch (block.type) {
    case 'header': {
      const text = count(textOf(block.text));
      empty(`${path}.text`, text);
      over(`${path}.text`, text.length, limit.headerText);
      if (block.text?.type !== 'plain_text') problem(`${path}.text: must be plain_text`);
      break;
    }
    case 'section': {
      const fields = block.fields ?? [];
      if (block.text === undefined && fields.length === 0) problem(`${path}: no text`);
      if (block.text !== undefined) {
        const text = count(textOf(block.text));
        empty(`${path}.text`, text);
        over(`${path}.text`, text.length, limit.sectionText);
      }
      over(`${path}.fields`, fields.length, limit.sectionFields);
      fields.forEach((field, fieldIndex) => {
        const text = count(textOf(field));
        empty(`${path}.fields[${fieldIndex}]`, text);
        over(`${path}.fields[${fieldIndex}]`, text.length, limit.fieldText);
      });
      if (block.accessory !== undefined)
        checkElement(`${path}.accessory`, block.accessory, checker);
      break;
    }
    case 'context': {
      const elements = block.elements ?? [];
      if (elements.length === 0) problem(`${path}.elements: empty`);
      over(`${path}.elements`, elements.length, limit.contextElements);
      elements.forEach((element, elementIndex) => {
        const elementPath = `${path}.elements[${elementIndex}]`;
        if (element.type === 'image') {
          checkElement(elementPath, element, checker);
          return;
        }
        const text = count(textOf(element));
        empty(elementPath, text);
        over(elementPath, text.length, limit.contextText);
      });
      break;
    }
    case 'actions': {
      const elements = block.elements ?? [];
      if (elements.length === 0) problem(`${path}.elements: empty`);
      over(`${path}.elements`, elements.length, limit.actionsElements);
      elements.forEach((element, elementIndex) => {
        checkElement(`${path}.elements[${elementIndex}]`, element, checker);
      });
      break;
    }
    case 'image': {
      over(`${path}.image_url`, (block.image_url ?? '').length, limit.url);
      const alt = block.alt_text ?? '';
      empty(`${path}.alt_text`, alt);
      over(`${path}.alt_text`, alt.length, limit.altText);
      break;
    }
    case 'input': {
      const label = textOf(block.label);
      empty(`${path}.label`, label);
      over(`${path}.label`, label.length, limit.inputLabel);
      if (block.hint !== undefined)
        over(`${path}.hint`, textOf(block.hint).length, limit.inputHint);
      if (block.element !== undefined) checkElement(`${path}.element`, block.element, checker);
      if (kind === 'message') problem(`${path}: input blocks belong in views`);
      break;
    }
    case 'data_table':
      checkDataTable(block, path, checker);
      break;
    case 'data_visualization':
      checkChart(block, path, checker);
      break;
    default:
      break;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const cellTypes = new Set(['raw_text', 'raw_number', 'rich_text']);

function checkDataTable(block: LooseBlock, path: string, checker: Checker): void {
  const { over, empty, problem, count } = checker;
  const limit = blockKitLimits;
  const caption = count(typeof block.caption === 'string' ? block.caption : '');
  empty(`${path}.caption`, caption);
  over(`${path}.caption`, caption.length, limit.dataTableCaption);
  if (block.page_size !== undefined) {
    const size = block.page_size;
    if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > limit.pageSize) {
      problem(`${path}.page_size: ${String(size)} is not 1-${limit.pageSize}`);
    }
  }
  const rows = Array.isArray(block.rows) ? (block.rows as unknown[]) : [];
  if (rows.length < 2) problem(`${path}.rows: ${rows.length} < 2 (a header and a row)`);
  over(`${path}.rows`, rows.length, limit.dataTableRows);
  const first = rows[0];
  const columns = Array.isArray(first) ? first.length : 0;
  if (columns === 0) problem(`${path}.rows[0]: no cells`);
  over(`${path}.rows[0]`, columns, limit.dataTableColumns);
  const headerColumn = block.row_header_column_index;
  if (
    headerColumn !== undefined &&
    (!Number.isInteger(headerColumn) ||
      (headerColumn as number) < 0 ||
      (headerColumn as number) >= columns)
  ) {
    problem(`${path}.row_header_column_index: ${String(headerColumn)} is not a column`);
  }
  let cells = 0;
  rows.forEach((row, rowIndex) => {
    const rowPath = `${path}.rows[${rowIndex}]`;
    if (!Array.isArray(row)) {
      problem(`${rowPath}: not a row`);
      return;
    }
    if (row.length !== columns) problem(`${rowPath}: ${row.length} cells, not ${columns}`);
    row.forEach((cell: unknown, cellIndex) => {
      const cellPath = `${rowPath}[${cellIndex}]`;
      if (!isRecord(cell) || !cellTypes.has(String(cell.type))) {
        problem(`${cellPath}: not a raw_text, raw_number or rich_text cell`);
        return;
      }
      if (rowIndex === 0 && cell.type === 'rich_text')
        problem(`${cellPath}: rich_text in the header`);
      if (
        cell.type === 'raw_number' &&
        !(typeof cell.value === 'number' && Number.isFinite(cell.value))
      ) {
        problem(`${cellPath}.value: not a finite number`);
      }
      const text = count(cellText(cell));
      if (cell.type !== 'rich_text' && text.length === 0) problem(`${cellPath}.text: empty`);
      cells += text.length;
    });
  });
  over(`${path} cell text`, cells, limit.dataTableText);
}

function checkChart(block: LooseBlock, path: string, checker: Checker): void {
  const { over, empty, problem, count } = checker;
  const limit = blockKitLimits;
  const label = (at: string, value: unknown, max: number): string => {
    const text = count(typeof value === 'string' ? value : '');
    empty(at, text);
    over(at, text.length, max);
    return text;
  };
  const finite = (at: string, value: unknown): void => {
    if (!(typeof value === 'number' && Number.isFinite(value)))
      problem(`${at}: not a finite number`);
  };
  label(`${path}.title`, block.title, limit.chartTitle);
  const chart = isRecord(block.chart) ? block.chart : {};
  const points = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value) ? value.map((point) => (isRecord(point) ? point : {})) : [];
  switch (chart.type) {
    case 'pie': {
      const segments = points(chart.segments);
      if (segments.length === 0) problem(`${path}.chart.segments: empty`);
      over(`${path}.chart.segments`, segments.length, limit.chartSegments);
      segments.forEach((segment, index) => {
        label(`${path}.chart.segments[${index}].label`, segment.label, limit.chartLabel);
        finite(`${path}.chart.segments[${index}].value`, segment.value);
        if (typeof segment.value === 'number' && segment.value < 0) {
          problem(`${path}.chart.segments[${index}].value: negative`);
        }
      });
      break;
    }
    case 'bar':
    case 'line':
    case 'area': {
      const axis = isRecord(chart.axis_config) ? chart.axis_config : {};
      const categories = Array.isArray(axis.categories) ? (axis.categories as unknown[]) : [];
      if (categories.length === 0) problem(`${path}.chart.axis_config.categories: empty`);
      over(`${path}.chart.axis_config.categories`, categories.length, limit.chartCategories);
      const names = categories.map((category, index) =>
        label(`${path}.chart.axis_config.categories[${index}]`, category, limit.chartLabel),
      );
      for (const key of ['x_label', 'y_label'] as const) {
        if (axis[key] !== undefined)
          label(`${path}.chart.axis_config.${key}`, axis[key], limit.chartAxisLabel);
      }
      const series = points(chart.series);
      if (series.length === 0) problem(`${path}.chart.series: empty`);
      over(`${path}.chart.series`, series.length, limit.chartSeries);
      const seen = new Set<string>();
      series.forEach((one, index) => {
        const at = `${path}.chart.series[${index}]`;
        const name = label(`${at}.name`, one.name, limit.chartLabel);
        if (seen.has(name)) problem(`${at}.name: "${name}" twice`);
        seen.add(name);
        const data = points(one.data);
        if (data.length !== names.length)
          problem(`${at}.data: ${data.length} points for ${names.length} categories`);
        data.forEach((point, pointIndex) => {
          if (point.label !== names[pointIndex])
            problem(`${at}.data[${pointIndex}].label: not its category`);
          finite(`${at}.data[${pointIndex}].value`, point.value);
        });
      });
      break;
    }
    default:
      problem(`${path}.chart.type: ${String(chart.type)} is not pie, bar, line or area`);
  }
}

/**
 * Throws when `surface` breaks a limit. The renderers truncate against the same numbers, so a throw
 * here is a renderer bug: it fails with the exact limit named instead of Slack's opaque
 * `invalid_blocks` after the user has waited for the answer.
 */
export function assertWithinBlockKitLimits(surface: Renderable, kind: Surface = 'message'): void {
  const problems = checkBlockKitLimits(surface, kind);
  if (problems.length > 0) {
    // Not an AppError: a renderer bug, named with its limit; people get the generic words.
    throw new Error(`Rendered ${kind} breaks Block Kit limits: ${problems.join('; ')}`);
  }
}

/** {@link assertWithinBlockKitLimits} as a renderer's last step: returns `surface` once it fits. */
export function checked<T extends Renderable>(surface: T, kind: Surface = 'message'): T {
  assertWithinBlockKitLimits(surface, kind);
  return surface;
}
