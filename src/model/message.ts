import type { KnownBlock } from '@slack/types';

/** A message ready for chat.postMessage, response_url or the console: `text` is the notification fallback. */
export interface SlackMessage {
  readonly text: string;
  readonly blocks: KnownBlock[];
}
