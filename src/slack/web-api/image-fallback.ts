/**
 * A profile picture the analytics service links to may be gone or unreachable, and Slack refuses
 * a whole message (`invalid_blocks`, "downloading image failed") when it cannot fetch one of its
 * images. Such a refusal is answered by sending the message once more without its pictures.
 */
import type { DigestPoster } from '../../digests/runner.ts';
import { SlackBlocksRefusedError } from '../../errors.ts';
import type { SlackMessage } from '../../model/message.ts';
import { withoutImages } from '../../render/blocks.ts';
import { slackErrorString } from './client.ts';

/** Slack refused the blocks: as the Web API client throws it, or as the digest poster hands it on. */
function refusedBlocks(error: unknown): boolean {
  return error instanceof SlackBlocksRefusedError || slackErrorString(error) === 'invalid_blocks';
}

/** `send(message)`, then `send` without the pictures when Slack refused the blocks. */
export async function withImageFallback<T, M extends SlackMessage>(
  message: M,
  send: (message: M) => Promise<T>,
): Promise<T> {
  try {
    return await send(message);
  } catch (error) {
    const plain = withoutImages(message);
    if (plain === message || !refusedBlocks(error)) throw error;
    return send(plain);
  }
}

/** The digest poster, with the same fallback for digest posts and notices. */
export function imageSafePoster(poster: DigestPoster): DigestPoster {
  return {
    post: (channelId, message) =>
      withImageFallback(message, (sent) => poster.post(channelId, sent)),
    notifyCreator: (userId, message) =>
      withImageFallback(message, (sent) => poster.notifyCreator(userId, sent)),
    notifyAdmins: (userIds, message) =>
      withImageFallback(message, (sent) => poster.notifyAdmins(userIds, sent)),
    workspace: () => poster.workspace(),
  };
}
