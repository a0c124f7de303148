/**
 * Pages of a list whose items are a few blocks each (the digests of a channel): where each page
 * starts so that it fits one message, and the Previous and Next buttons between them.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import { digestListPageIds, digestListPagesBlockId } from '../ids.ts';
import { blockKitLimits, checkBlockKitLimits } from '../limits.ts';

/**
 * The index of the first item of each page: as many items as fit after `head` with room left for
 * the page buttons, within the message's blocks and text. Always at least one page, and at least
 * one item a page (an item fits a message alone: its texts are cut to their limits).
 */
export function pageStarts(head: readonly KnownBlock[], items: readonly KnownBlock[][]): number[] {
  const starts = [0];
  const buttons = pageButtons(1, 3);
  let blocks = [...head];
  let count = 0;
  for (const [index, item] of items.entries()) {
    const candidate = [...blocks, ...item];
    const fits =
      candidate.length + 1 <= blockKitLimits.messageBlocks &&
      checkBlockKitLimits({ text: 'x', blocks: [...candidate, buttons] }, 'message').length === 0;
    if (fits || count === 0) {
      blocks = candidate;
      count++;
    } else {
      starts.push(index);
      blocks = [...head, ...item];
      count = 1;
    }
  }
  return starts;
}

/** The page showing item `index`: the last one starting at or before it. */
export function pageOf(starts: readonly number[], index: number): number {
  let page = 0;
  for (const [each, start] of starts.entries()) if (start <= index) page = each;
  return page;
}

/** Previous (unless on the first page) and Next (unless on the last) under page `page`. */
export function pageButtons(page: number, pages: number): ActionsBlock {
  const elements: Button[] = [];
  if (page > 0) elements.push(button('Previous', digestListPageIds.previous, page - 1));
  if (page < pages - 1) elements.push(button('Next', digestListPageIds.next, page + 1));
  return { type: 'actions', block_id: digestListPagesBlockId, elements };
}

function button(label: string, actionId: string, page: number): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: label },
    value: String(page),
  };
}
