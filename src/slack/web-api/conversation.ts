import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../logger.ts';
import type { SlackMessage } from '../../model/message.ts';
import { withBlocksFallback } from './blocks-fallback.ts';
import { slackRateLimit, withRateLimitRetry } from './client.ts';

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
 * out once, briefly; a second one is thrown for the caller to log. A message whose blocks Slack
 * refuses (a table or chart it does not accept yet, a picture it could not fetch) is sent again
 * without them; `logger` hears about the first such refusal of the process.
 */
export function postInConversation(
  client: WebClient,
  where: Conversation,
  message: SlackMessage,
  logger?: Logger,
): Promise<{ ts?: string | undefined }> {
  const thread = where.threadTs === undefined ? {} : { thread_ts: where.threadTs };
  return withBlocksFallback(
    message,
    (sent) =>
      withRateLimitRetry(() =>
        client.chat.postMessage({ channel: where.channel, ...thread, ...sent }),
      ),
    logger,
  );
}

/**
 * chat.update of a message posted by {@link postInConversation}; a 429 is waited out once, and
 * refused blocks are left out as there.
 */
export async function updateInConversation(
  client: WebClient,
  where: Conversation,
  ts: string,
  message: SlackMessage,
  logger?: Logger,
): Promise<void> {
  await withBlocksFallback(
    message,
    (sent) => withRateLimitRetry(() => client.chat.update({ channel: where.channel, ts, ...sent })),
    logger,
  );
}

/**
 * Whether a failed call may have reached Slack all the same: a timeout or a lost connection after
 * sending, or a 5xx. Slack's own refusals (`ok: false`) and rate limits certainly did not.
 */
export function mayHaveLanded(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (slackRateLimit(error) !== undefined) return false;
  return code === 'slack_webapi_request_error' || code === 'slack_webapi_http_error';
}
