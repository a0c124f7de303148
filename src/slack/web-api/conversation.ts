import type { WebClient } from '@slack/web-api';
import { SlackCallError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { SlackMessage } from '../../model/message.ts';
import { withBlocksFallback } from './blocks-fallback.ts';
import { withRateLimitRetry } from './client.ts';
import { toAppError } from './failures.ts';

export interface Conversation {
  readonly channel: string;
  /**
   * Set for mentions and for DMs typed in a thread: every message of the answer goes into that
   * thread.
   */
  readonly threadTs?: string;
}

/** A conversation of one workspace: where an answer goes, and whose access takes it there. */
export interface Reply extends Conversation {
  /** Undefined when the request named no workspace (the single bot token serves it). */
  readonly teamId: string | undefined;
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
): Promise<{ ts?: string | undefined; channel?: string | undefined }> {
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
 * A post Slack confirmed, with the conversation Slack names it in (a post to a person's user id
 * lands in the app's DM with them, whose `D…` id chat.update needs), or the transient failure
 * that leaves it unconfirmed.
 */
export type PostOutcome =
  | { readonly posted: true; readonly ts: string | undefined; readonly channel: string }
  | { readonly posted: false; readonly failure: SlackCallError };

/**
 * {@link postInConversation} for a message someone is waiting for, sent once more when Slack was
 * briefly unable and certainly posted nothing (`service_unavailable`, `request_timeout`, a
 * connection never made). After a failure that may have posted it all the same
 * (`internal_error`, `fatal_error`, a 5xx, a request lost on the way) it is not sent again, so
 * nobody reads it twice. Either way a transient failure resolves as not posted; any other failure
 * (a refusal, a rate limit waited out once) is thrown.
 */
export async function postRetryingOnce(
  client: WebClient,
  where: Conversation,
  message: SlackMessage,
  logger?: Logger,
): Promise<PostOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { ts, channel } = await postInConversation(client, where, message, logger);
      return { posted: true, ts, channel: channel ?? where.channel };
    } catch (error) {
      const failure = toAppError('chat.postMessage', where.channel, error);
      if (!(failure instanceof SlackCallError) || !failure.transient) throw error;
      if (failure.mayHaveActed || attempt > 1) return { posted: false, failure };
    }
  }
}
