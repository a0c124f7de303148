import type { WebClient } from '@slack/web-api';
import type { SlackMessage } from '../../model/message.ts';
import { withRateLimitRetry } from './client.ts';

export interface Conversation {
  readonly channel: string;
  /**
   * Set for mentions and for DMs typed in a thread: every message of the answer goes into that
   * thread.
   */
  readonly threadTs?: string;
}

/**
 * chat.postMessage for someone waiting on the answer: a 429 (Slack's per-channel pace) is waited
 * out once, briefly; a second one is thrown for the caller to log.
 */
export function postInConversation(
  client: WebClient,
  where: Conversation,
  message: SlackMessage,
): Promise<{ ts?: string | undefined }> {
  const thread = where.threadTs === undefined ? {} : { thread_ts: where.threadTs };
  return withRateLimitRetry(() =>
    client.chat.postMessage({ channel: where.channel, ...thread, ...message }),
  );
}
