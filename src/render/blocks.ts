import type { ContextBlock, ImageElement, SectionBlock } from '@slack/types';

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
