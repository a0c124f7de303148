/**
 * Where conferences go in Slack: the leaderboard posted (chat.postMessage, never resent by the
 * client, as digests), edited in place (chat.update), pinned (pins.add) and unpinned once replaced
 * (pins.remove); recaps in its thread. Slack's answers the engine acts on are read here: an edit
 * Slack can no longer make is `gone`, a pin it refuses is `refused`; every other failure becomes
 * the app's error (`toAppError`), which the engine sorts as it sorts a digest's.
 */
import type { WebClient } from '@slack/web-api';
import type { ConferencePoster } from '../../digests/conferences/outlet.ts';
import type { DigestPoster } from '../../digests/runner.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import type { SlackMessage } from '../../model/message.ts';
import { withBlocksFallback } from './blocks-fallback.ts';
import { slackErrorString } from './client.ts';
import { toAppError } from './failures.ts';
import { singleAttemptTwin, toDigestError } from './poster.ts';

/** chat.update refusals that mean the message can no longer be edited: post a new one. */
const goneMessages: ReadonlySet<string> = new Set([
  'edit_window_closed',
  'message_not_found',
  'cant_update_message',
]);

/**
 * pins.add refusals to carry on without a pin (`already_pinned` is a pin): an installation from
 * before conferences lacks `pins:write` until it is reinstalled, and still gets its leaderboard.
 */
const pinRefusals: ReadonlySet<string> = new Set([
  'too_many_pins',
  'not_pinnable',
  'missing_scope',
]);

export interface SlackConferencePosterOptions {
  /** The background client (retried); posts go through its single-attempt twin. */
  readonly client: WebClient;
  /** For DMs to the creator, as digests send theirs. */
  readonly notifier: Pick<DigestPoster, 'notifyCreator'>;
  readonly logger?: Logger;
}

export class SlackConferencePoster implements ConferencePoster {
  readonly #client: WebClient;
  readonly #postClient: WebClient;
  readonly #notifier: Pick<DigestPoster, 'notifyCreator'>;
  readonly #logger: Logger;

  constructor(options: SlackConferencePosterOptions) {
    this.#client = options.client;
    this.#postClient = singleAttemptTwin(options.client);
    this.#notifier = options.notifier;
    this.#logger = options.logger ?? silentLogger;
  }

  async post(channelId: string, message: SlackMessage, threadTs?: string): Promise<{ ts: string }> {
    return withBlocksFallback(
      message,
      async (sent) => {
        try {
          const result = await this.#postClient.chat.postMessage({
            channel: channelId,
            text: sent.text,
            blocks: sent.blocks,
            unfurl_links: false,
            unfurl_media: false,
            ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
          });
          if (typeof result.ts !== 'string') {
            // Not an AppError: toDigestError just below turns it into the Slack layer's own error.
            throw new Error('chat.postMessage answered ok without a message ts');
          }
          return { ts: result.ts };
        } catch (error) {
          throw toDigestError(channelId, error, sent);
        }
      },
      this.#logger,
    );
  }

  async update(channelId: string, ts: string, message: SlackMessage): Promise<'updated' | 'gone'> {
    return withBlocksFallback(
      message,
      async (sent) => {
        try {
          await this.#client.chat.update({
            channel: channelId,
            ts,
            text: sent.text,
            blocks: sent.blocks,
          });
          return 'updated' as const;
        } catch (error) {
          if (goneMessages.has(slackErrorString(error) ?? '')) return 'gone' as const;
          throw toAppError('chat.update', channelId, error, sent);
        }
      },
      this.#logger,
    );
  }

  async pin(channelId: string, ts: string): Promise<'pinned' | 'refused'> {
    try {
      await this.#pinJoining(channelId, ts);
      return 'pinned';
    } catch (error) {
      const reason = slackErrorString(error) ?? '';
      if (reason === 'already_pinned') return 'pinned';
      if (pinRefusals.has(reason)) {
        this.#logger.info({ channelId, reason }, 'leaderboard not pinned');
        return 'refused';
      }
      throw toAppError('pins.add', channelId, error);
    }
  }

  /**
   * pins.add, joining first a public channel the bot posts in without being a member
   * (`chat:write.public`), where pins need membership; a private one answers as it does.
   */
  async #pinJoining(channelId: string, ts: string): Promise<void> {
    try {
      await this.#client.pins.add({ channel: channelId, timestamp: ts });
      return;
    } catch (error) {
      if (slackErrorString(error) !== 'not_in_channel') throw error;
    }
    try {
      await this.#client.conversations.join({ channel: channelId });
    } catch (error) {
      throw toAppError('conversations.join', channelId, error);
    }
    await this.#client.pins.add({ channel: channelId, timestamp: ts });
  }

  async unpin(channelId: string, ts: string): Promise<void> {
    try {
      await this.#client.pins.remove({ channel: channelId, timestamp: ts });
    } catch (error) {
      this.#logger.info(
        { channelId, reason: slackErrorString(error) },
        'old leaderboard not unpinned',
      );
    }
  }

  notifyCreator(userId: string, message: SlackMessage): Promise<void> {
    return this.#notifier.notifyCreator(userId, message);
  }
}
