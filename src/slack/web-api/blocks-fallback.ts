/**
 * Two things make Slack refuse a whole message with `invalid_blocks` although nothing in it is
 * wrong: a native table or chart (`data_table`, `data_visualization`) in a workspace or client
 * those blocks have not reached yet, and a profile picture Slack cannot fetch ("downloading image
 * failed"). Such a refusal is answered by sending the message again without the new blocks (the
 * list, and a text table in a code block in their place), then, if it is refused still, without
 * its pictures.
 */
import type { DigestPoster } from '../../digests/runner.ts';
import { SlackBlocksRefusedError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { SlackMessage } from '../../model/message.ts';
import { withoutImages, withoutNewBlocks } from '../../render/blocks.ts';
import { slackErrorString } from './client.ts';

/**
 * Slack refused the blocks: as the Web API client throws it (`refusal`, Slack's code for the
 * method), or as the digest poster hands it on.
 */
function refusedBlocks(error: unknown, refusal: string): boolean {
  return error instanceof SlackBlocksRefusedError || slackErrorString(error) === refusal;
}

/**
 * How views.publish and views.open refuse blocks: the view fails Slack's schema as a whole
 * (`invalid_arguments`, "failed to match all allowed schemas [json-pointer:/view]"); their pages
 * list no `invalid_blocks`. docs.slack.dev/reference/methods/views.publish.
 */
export const viewBlocksRefusal = 'invalid_arguments';

let newBlocksRefusalLogged = false;

/**
 * Forgets that the refusal was logged, so the next one is logged again: test files share one
 * process, and each that checks the line starts from a process that has not logged it.
 */
export function forgetNewBlocksRefusal(): void {
  newBlocksRefusalLogged = false;
}

/**
 * Logs, once per process, that Slack refused the table and chart blocks: where it does once it
 * does for every message, and one line says so without drowning the logs.
 */
function noteNewBlocksRefused(logger: Logger | undefined): void {
  if (newBlocksRefusalLogged || logger === undefined) return;
  newBlocksRefusalLogged = true;
  logger.warn('Slack refused the table/chart blocks; sending without them');
}

/**
 * The lighter versions of `message` to send, in order, after Slack refused its blocks: without
 * the new blocks, then also without the pictures; each only when it differs from the one before.
 * Made only once a refusal asks for them, so a message Slack accepts costs nothing more. Leaving
 * the new blocks out is logged once per process.
 */
export function* lighterVersions<M extends SlackMessage>(
  message: M,
  logger?: Logger,
): Generator<M> {
  const withoutNew = withoutNewBlocks(message);
  if (withoutNew !== message) {
    noteNewBlocksRefused(logger);
    yield withoutNew;
  }
  const plain = withoutImages(withoutNew);
  if (plain !== withoutNew) yield plain;
}

/**
 * `send(message)`, then `send` again with each lighter version (see {@link lighterVersions}) while
 * Slack refuses the blocks (`refusal`: `invalid_blocks` for messages, {@link viewBlocksRefusal}
 * for views). Any other failure, or a refusal of the lightest version, is thrown to the caller.
 */
export async function withBlocksFallback<T, M extends SlackMessage>(
  message: M,
  send: (message: M) => Promise<T>,
  logger?: Logger,
  refusal = 'invalid_blocks',
): Promise<T> {
  const lighter = lighterVersions(message, logger);
  let attempt = message;
  for (;;) {
    try {
      return await send(attempt);
    } catch (error) {
      if (!refusedBlocks(error, refusal)) throw error;
      const next = lighter.next();
      if (next.done) throw error;
      attempt = next.value;
    }
  }
}

/** The digest poster, with the same fallback for digest posts and notices. */
export function blocksFallbackPoster(poster: DigestPoster, logger?: Logger): DigestPoster {
  return {
    post: (channelId, message) =>
      withBlocksFallback(message, (sent) => poster.post(channelId, sent), logger),
    notifyCreator: (userId, message) =>
      withBlocksFallback(message, (sent) => poster.notifyCreator(userId, sent), logger),
    notifyAdmins: (userIds, message) =>
      withBlocksFallback(message, (sent) => poster.notifyAdmins(userIds, sent), logger),
    workspace: () => poster.workspace(),
  };
}
