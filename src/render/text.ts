/**
 * Any message or view as readable plain text, for the console and the MCP tools' text content.
 */
import type { AnyBlock } from '@slack/types';
import { readerDateAt, unescapeMrkdwn } from './format.ts';
import { type ChartLike, chartText, type TableLike, tableText } from './text-figures.ts';

interface TextObjectLike {
  readonly type?: unknown;
  readonly text?: unknown;
}

interface ElementLike extends TextObjectLike {
  readonly alt_text?: unknown;
  readonly placeholder?: TextObjectLike;
  readonly initial_value?: unknown;
  readonly url?: unknown;
  readonly elements?: readonly ElementLike[];
}

interface BlockLike extends TableLike, ChartLike {
  readonly type: string;
  readonly text?: TextObjectLike;
  readonly fields?: readonly TextObjectLike[];
  readonly accessory?: ElementLike;
  readonly elements?: readonly ElementLike[];
  readonly element?: ElementLike;
  readonly label?: TextObjectLike;
  readonly alt_text?: unknown;
}

/** Table cells longer than this are cut in the console, so a row stays on a wide line. */
const consoleCellWidth = 24;

export interface PlainTextOptions {
  /**
   * The reader's zone: a `<!date^…>` token, which Slack draws in each reader's zone, is written in
   * it. Without it, the token's fallback (the zone the message was written in).
   */
  readonly zone?: string;
}

/**
 * A message (or view) as readable terminal text, for the local console that shows answers without
 * Slack: headers underlined, mrkdwn markers dropped, `<!date^…|fallback>` in the reader's zone
 * (else as its fallback), `<url|label>` as `label (url)`, buttons as `[Share in channel]`, tables
 * as aligned columns and charts as bars, as Slack would draw them. Blocks are separated by a blank
 * line; with no blocks, the `text` fallback is shown.
 */
export function toPlainText(
  message: {
    readonly text?: string;
    readonly blocks?: readonly AnyBlock[];
  },
  options: PlainTextOptions = {},
): string {
  const blocks = message.blocks ?? [];
  if (blocks.length === 0) return mrkdwnToPlain(message.text ?? '', options);
  return blocks
    .map((block) => blockToPlain(block as BlockLike, options))
    .filter((text) => text.length > 0)
    .join('\n\n');
}

/** One mrkdwn string as plain text (see {@link toPlainText}). */
export function mrkdwnToPlain(mrkdwn: string, options: PlainTextOptions = {}): string {
  // Slack applies no formatting inside `code`: convert only the text between code spans.
  return mrkdwn
    .split(/(`[^`\n]*`)/)
    .map((part, index) =>
      index % 2 === 1 ? unescapeMrkdwn(part) : plainOutsideCode(part, options),
    )
    .join('');
}

/**
 * A formatting marker pair as Slack reads it: the text between starts and ends with a non-space,
 * so `"0 9 * * 1"` stays as typed while `*bold*` loses its stars.
 */
function markers(marker: string): RegExp {
  const m = RegExp.escape(marker);
  return new RegExp(
    `(^|[\\s(])${m}([^${m}\\s](?:[^${m}\\n]*[^${m}\\s])?)${m}(?=$|[\\s).,:;!?…])`,
    'gmu',
  );
}

const bold = markers('*');
const italic = markers('_');
const strike = markers('~');

/**
 * The emoji the renderers use, by Slack shortcode; a terminal shows the character. A shortcode
 * not listed stays as typed.
 */
const emoji: Readonly<Record<string, string>> = {
  arrow_down: '⬇️',
  arrow_forward: '▶️',
  arrow_up: '⬆️',
  bulb: '💡',
  double_vertical_bar: '⏸️',
  eyes: '👀',
  grey_question: '❔',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  no_entry: '⛔',
  warning: '⚠️',
  wastebasket: '🗑️',
  white_check_mark: '✅',
  x: '❌',
};

function plainOutsideCode(mrkdwn: string, options: PlainTextOptions): string {
  const withoutTokens = mrkdwn.replace(/<([^<>]*)>/g, (_token, inner: string) =>
    tokenText(inner, options),
  );
  const withoutMarkers = withoutTokens
    .replace(bold, '$1$2')
    .replace(italic, '$1$2')
    .replace(strike, '$1$2')
    .replace(/:([a-z0-9_+-]+):/g, (code: string, name: string) => emoji[name] ?? code);
  return unescapeMrkdwn(withoutMarkers);
}

function tokenText(inner: string, options: PlainTextOptions): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('!date^')) {
    const seconds = Number(target.split('^')[1]);
    const read =
      options.zone === undefined || !Number.isFinite(seconds)
        ? undefined
        : readerDateAt(seconds, options.zone);
    return read ?? label ?? '';
  }
  if (target.startsWith('!subteam^')) return label ?? '@group';
  if (target.startsWith('!')) return label ?? `@${target.slice(1)}`;
  if (target.startsWith('@')) return label === undefined ? target : `@${label.replace(/^@/, '')}`;
  if (target.startsWith('#')) return label === undefined ? target : `#${label.replace(/^#/, '')}`;
  if (label === undefined || label === target) return target;
  return `${label} (${target})`;
}

function textOf(object: TextObjectLike | undefined, options: PlainTextOptions = {}): string {
  if (object === undefined || typeof object.text !== 'string') return '';
  return object.type === 'mrkdwn' ? mrkdwnToPlain(object.text, options) : object.text;
}

function elementToPlain(element: ElementLike, options: PlainTextOptions): string {
  switch (element.type) {
    case 'button':
      return `[${textOf(element.text as TextObjectLike | undefined)}]`;
    case 'image':
      return '';
    case 'mrkdwn':
    case 'plain_text':
      return textOf(element, options);
    default: {
      const shown = textOf(element.placeholder);
      return shown.length > 0 ? `[${shown}]` : '';
    }
  }
}

function richText(elements: readonly ElementLike[] | undefined): string {
  return (elements ?? [])
    .map((element) => {
      if (typeof element.text === 'string') {
        return element.type === 'link' && typeof element.url === 'string'
          ? `${element.text} (${element.url})`
          : element.text;
      }
      if (element.type === 'link' && typeof element.url === 'string') return element.url;
      return richText(element.elements);
    })
    .join('');
}

function elementsToPlain(
  elements: readonly ElementLike[] | undefined,
  separator: string,
  options: PlainTextOptions,
): string {
  return (elements ?? [])
    .map((element) => elementToPlain(element, options))
    .filter((text) => text.length > 0)
    .join(separator);
}

function blockToPlain(block: BlockLike, options: PlainTextOptions): string {
  switch (block.type) {
    case 'header': {
      const text = textOf(block.text);
      return `${text}\n${'='.repeat(Math.min(Array.from(text).length, 72))}`;
    }
    case 'section': {
      const lines: string[] = [];
      const text = textOf(block.text, options);
      if (text.length > 0) lines.push(text);
      for (const field of block.fields ?? []) lines.push(textOf(field, options));
      if (block.accessory !== undefined) {
        const accessory = elementToPlain(block.accessory, options);
        if (accessory.length > 0) lines.push(accessory);
      }
      return lines.join('\n');
    }
    case 'context':
      return elementsToPlain(block.elements, '  ', options);
    case 'actions':
      return elementsToPlain(block.elements, ' ', options);
    case 'divider':
      return '---';
    case 'image':
      return `[image: ${typeof block.alt_text === 'string' ? block.alt_text : ''}]`;
    case 'input': {
      const value = block.element?.initial_value;
      return `${textOf(block.label)}: ${typeof value === 'string' ? value : ''}`.trimEnd();
    }
    case 'rich_text':
      return richText(block.elements);
    case 'data_table': {
      const { head, rows } = tableText(block, { columns: 'all', maxCellWidth: consoleCellWidth });
      const caption = typeof block.caption === 'string' ? [block.caption] : [];
      return [...caption, ...head, ...rows].join('\n');
    }
    case 'data_visualization': {
      const title = typeof block.title === 'string' ? [block.title] : [];
      return [...title, ...chartText(block)].join('\n');
    }
    default:
      return '';
  }
}
