import type { ContextBlock, ImageElement, SectionBlock } from '@slack/types';
import type { SlackMessage } from '../model/message.ts';

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
