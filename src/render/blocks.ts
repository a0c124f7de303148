/**
 * The blocks most messages are made of, and a message's fallbacks when Slack refuses it.
 * Without its pictures when one cannot be fetched; without its native tables and charts (drawn as
 * text) where a workspace does not have them yet.
 */
import type { ContextBlock, DataTableBlock, ImageElement, SectionBlock } from '@slack/types';
import type { DataVisualizationBlock, MessageBlock, SlackMessage } from '../model/message.ts';
import { escapeMrkdwn, neutralizeMrkdwn, truncate } from './format.ts';
import { blockKitLimits, blockTextLength } from './limits.ts';
import { chartText, tableText } from './text-figures.ts';

/**
 * A section of mrkdwn, the block most messages here are made of; the caller has already escaped or
 * neutralized whatever came from outside. `accessory` sits beside the text (a profile picture).
 */
export function section(mrkdwn: string, accessory?: ImageElement): SectionBlock {
  const block: SectionBlock = { type: 'section', text: { type: 'mrkdwn', text: mrkdwn } };
  if (accessory !== undefined) block.accessory = accessory;
  return block;
}

/** A line of small grey mrkdwn under the content: notes, hints and "…and N more". */
export function context(mrkdwn: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: mrkdwn }] };
}

/**
 * The message without its pictures (section accessories and image blocks), or the same message
 * when it has none. Slack fetches every image before it accepts a message and refuses the whole
 * message when one cannot be fetched; sent again without them, it is accepted.
 */
export function withoutImages<T extends SlackMessage>(message: T): T {
  const hasImage = message.blocks.some(
    (block) =>
      block.type === 'image' || (block.type === 'section' && block.accessory?.type === 'image'),
  );
  if (!hasImage) return message;
  const blocks = message.blocks
    .filter((block) => block.type !== 'image')
    .map((block) => {
      if (block.type !== 'section' || block.accessory?.type !== 'image') return block;
      const { accessory: _picture, ...rest } = block;
      return rest;
    });
  return { ...message, blocks };
}

/** Blocks Slack is still rolling out: a workspace or client without them refuses the message. */
const newBlockTypes: ReadonlySet<string> = new Set(['data_table', 'data_visualization']);

const isNewBlock = (block: MessageBlock): block is DataTableBlock | DataVisualizationBlock =>
  newBlockTypes.has(block.type);

/** Cells of the text table are cut to this many characters, so a line stays readable. */
const fallbackCellWidth = 20;

/**
 * The message without its tables and charts, or the very same message when it has neither: the
 * senders try it after Slack answers `invalid_blocks`. A table becomes a text table in code
 * blocks (rank, name, handle and the figures, aligned; several sections, ending with "…and N
 * more: Export CSV for all" when the message cannot hold every row), a chart becomes text bars;
 * every other block stays where it was. Both are read from the blocks, so any message works.
 */
export function withoutNewBlocks<T extends SlackMessage>(message: T): T {
  if (!message.blocks.some(isNewBlock)) return message;
  const kept = message.blocks.filter((block) => !isNewBlock(block));
  let textLeft =
    blockKitLimits.messageBlockText - kept.reduce((sum, block) => sum + blockTextLength(block), 0);
  let blocksLeft = blockKitLimits.messageBlocks - kept.length;
  const blocks: MessageBlock[] = [];
  for (const block of message.blocks) {
    if (!isNewBlock(block)) {
      blocks.push(block);
      continue;
    }
    const instead =
      block.type === 'data_table'
        ? textTable(block, textLeft, blocksLeft)
        : textChart(block, textLeft, blocksLeft);
    blocks.push(...instead);
    textLeft -= instead.reduce((sum, one) => sum + blockTextLength(one), 0);
    blocksLeft -= instead.length;
  }
  return { ...message, blocks };
}

/** A line of a code block: Slack formats nothing there but still reads `&`, `<`, `>` and fences. */
function codeLine(text: string): string {
  return escapeMrkdwn(text.replaceAll('`', 'ˋ'));
}

function fenced(title: string, lines: readonly string[]): string {
  return `${title}\`\`\`\n${lines.join('\n')}\n\`\`\``;
}

function textTable(block: DataTableBlock, textBudget: number, blockBudget: number): MessageBlock[] {
  const table = tableText(block, { columns: 'compact', maxCellWidth: fallbackCellWidth });
  const header = table.head.map(codeLine);
  const rows = table.rows.map(codeLine);
  const title = `*${neutralizeMrkdwn(truncate(block.caption, blockKitLimits.dataTableCaption))}*\n`;
  const more = (count: number) => context(`…and ${count} more: Export CSV for all`);
  const moreCost = blockTextLength(more(rows.length));
  const sections: SectionBlock[] = [];
  let used = 0;
  let shown = 0;
  while (shown < rows.length && sections.length < blockBudget - 1) {
    const lines = [...header];
    // The fenced text's length so far, counted as rows are added rather than joined each time.
    let length = fenced(sections.length === 0 ? title : '', lines).length;
    for (const row of rows.slice(shown)) {
      const last = shown + lines.length - header.length + 1 === rows.length;
      // Room for the "…and N more" line is kept until the last row is placed.
      const room = textBudget - used - (last ? 0 : moreCost);
      if (length + row.length + 1 > Math.min(blockKitLimits.sectionText, room)) break;
      lines.push(row);
      length += row.length + 1;
    }
    const taken = lines.length - header.length;
    if (taken === 0) break;
    const text = fenced(sections.length === 0 ? title : '', lines);
    sections.push(section(text));
    used += text.length;
    shown += taken;
  }
  const hidden = rows.length - shown;
  if (hidden === 0) return sections;
  return sections.length < blockBudget && moreCost <= textBudget - used
    ? [...sections, more(hidden)]
    : sections;
}

function textChart(
  block: DataVisualizationBlock,
  textBudget: number,
  blockBudget: number,
): MessageBlock[] {
  if (blockBudget < 1) return [];
  const title = `*${neutralizeMrkdwn(block.title)}*\n`;
  const lines = chartText(block).map(codeLine);
  const limit = Math.min(blockKitLimits.sectionText, textBudget);
  while (lines.length > 0 && fenced(title, lines).length > limit) lines.pop();
  return lines.length > 0 ? [section(fenced(title, lines))] : [];
}
