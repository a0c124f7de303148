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

/** Slack refused the blocks: as the Web API client throws it, or as the digest poster hands it on. */
function refusedBlocks(error: unknown): boolean {
  return error instanceof SlackBlocksRefusedError || slackErrorString(error) === 'invalid_blocks';
}

let newBlocksRefusalLogged = false;

/**
 * Logs, once per process, that Slack refused the table and chart blocks: where it does once it
 * does for every message, and one line says so without drowning the logs.
 */
export function noteNewBlocksRefused(logger: Logger | undefined): void {
  if (newBlocksRefusalLogged || logger === undefined) return;
  newBlocksRefusalLogged = true;
  logger.warn('Slack refused the table/chart blocks; sending without them');
}

/**
 * What to send, in order, when Slack refuses `message`'s blocks: the message, then without the
 * new blocks, then also without the pictures; each only when it differs from the one before.
 */
export function fallbacksOf<M extends SlackMessage>(message: M): M[] {
  const attempts = [message];
  const withoutNew = withoutNewBlocks(message);
  if (withoutNew !== message) attempts.push(withoutNew);
  const plain = withoutImages(withoutNew);
  if (plain !== withoutNew) attempts.push(plain);
  return attempts;
}

/**
 * `send(message)`, then `send` again with each lighter version (see {@link fallbacksOf}) while
 * Slack refuses the blocks. Any other failure, or a refusal of the lightest version, is thrown to
 * the caller. Leaving the new blocks out is logged once per process.
 */
export async function withBlocksFallback<T, M extends SlackMessage>(
  message: M,
  send: (message: M) => Promise<T>,
  logger?: Logger,
): Promise<T> {
  const attempts = fallbacksOf(message);
  const newBlocksLeftOut = withoutNewBlocks(message) !== message;
  for (let i = 0; ; i++) {
    const attempt = attempts[i] as M;
    if (i === 1 && newBlocksLeftOut) noteNewBlocksRefused(logger);
    try {
      return await send(attempt);
    } catch (error) {
      if (!refusedBlocks(error) || i === attempts.length - 1) throw error;
    }
  }
}

/** The digest poster, with the same fallback for digest posts and notices. */
export function imageSafePoster(poster: DigestPoster, logger?: Logger): DigestPoster {
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
