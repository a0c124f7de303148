import type { Logger } from '../logger.ts';
import type { Digest } from '../model/digest.ts';
import type { SlackMessage } from '../model/message.ts';
import type { RunRepository } from '../store/runs.ts';
import { classifyFailure } from './failures.ts';
import type { NotifyCreator } from './per-team.ts';

/**
 * The DM to a digest's creator about a slot whose post may not have reached the channel, with the
 * way to post it now.
 */
export type RenderUnconfirmedNotice = (digest: Digest, slot: Date, now: Date) => SlackMessage;

export interface UnconfirmedPostsOptions {
  readonly runs: Pick<RunRepository, 'takeUnconfirmed' | 'untakeUnconfirmed'>;
  readonly logger: Logger;
  readonly notifyCreator: NotifyCreator;
  /** Without it the creators are not told (benchmarks); the slots are still logged. */
  readonly renderNotice: RenderUnconfirmedNotice | undefined;
  /** A `posting` record older than this, whose runner holds no lease, is left for good. */
  readonly leaseMs: number;
}

/**
 * Slots whose post may or may not have reached their channel: the runner wrote the slot's
 * `posting` record and then died (or Slack never confirmed the post). Posting again could post
 * twice, so nothing guesses: once the runner's lease has ended, the digest's creator is told by
 * DM, once, whichever instance finds it, and decides (see `Deliveries.deliverUnconfirmed`). A DM
 * that could not go out for a passing reason is tried again at a later tick.
 */
export class UnconfirmedPosts {
  readonly #options: UnconfirmedPostsOptions;

  constructor(options: UnconfirmedPostsOptions) {
    this.#options = options;
  }

  /** Tells the creators of the slots left unconfirmed; returns how many were found. */
  async tellCreators(now: Date): Promise<number> {
    const { runs, logger, notifyCreator, renderNotice, leaseMs } = this.#options;
    const found = await runs.takeUnconfirmed(now, new Date(now.getTime() - leaseMs));
    for (const { digest, slot, startedAt } of found) {
      const context = { digestId: digest.id, slot: slot.toISOString(), startedAt };
      logger.warn(context, 'a digest post was never confirmed; telling its creator');
      if (renderNotice === undefined) continue;
      try {
        await notifyCreator(digest.teamId, digest.creatorId, renderNotice(digest, slot, now));
      } catch (error) {
        if (classifyFailure(error).kind === 'permanent') {
          logger.error(
            { err: error, ...context },
            'could not tell the creator about an unconfirmed post',
          );
          continue;
        }
        logger.warn(
          { err: error, ...context },
          'could not tell the creator about an unconfirmed post yet; trying again later',
        );
        await runs.untakeUnconfirmed(digest.id, slot);
      }
    }
    return found.length;
  }
}
