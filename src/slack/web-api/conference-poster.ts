/**
 * Where conferences go in Slack: the leaderboard posted (chat.postMessage, never resent by the
 * client, as digests), edited in place (chat.update), pinned (pins.add) and unpinned once replaced
 * (pins.remove); recaps in its thread. Slack's answers the engine acts on are read here: an edit
 * Slack can no longer make is `gone`, a pin it refuses is `refused`; every other failure becomes
 * the app's error (`toAppError`), which the engine sorts as it sorts a digest's.
 */
import type { WebClient } from '@slack/web-api';
import type { ConferencePoster, FoundPost, PostMarker } from '../../digests/conferences/outlet.ts';
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

/**
 * The message metadata each post carries, so an instance that takes over from one killed between
 * a post and Slack's answer can find it in the channel.
 */
export const conferencePostEvent = 'influencers_conference_post';

/** Refusals of conversations.history that mean the history cannot be read here: `unknown`. */
const historyRefusals: ReadonlySet<string> = new Set([
  'missing_scope',
  'not_in_channel',
  'channel_not_found',
  'thread_not_found',
]);

/** How many messages a lookup reads at most: a post is looked for shortly after it was made. */
const historyPages = 5;

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

  async post(
    channelId: string,
    message: SlackMessage,
    threadTs?: string,
    marker?: PostMarker,
  ): Promise<{ ts: string }> {
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
            ...(marker === undefined
              ? {}
              : {
                  metadata: {
                    event_type: conferencePostEvent,
                    event_payload: { conference_id: marker.conferenceId, key: marker.key },
                  },
                }),
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

  async find(
    channelId: string,
    marker: PostMarker,
    since: Date,
    threadTs?: string,
  ): Promise<FoundPost> {
    const method = threadTs === undefined ? 'conversations.history' : 'conversations.replies';
    const oldest = (since.getTime() / 1000).toFixed(6);
    let cursor: string | undefined;
    try {
      for (let page = 0; page < historyPages; page++) {
        const request = {
          channel: channelId,
          oldest,
          include_all_metadata: true,
          limit: 200,
          ...(cursor === undefined ? {} : { cursor }),
        };
        const answer =
          threadTs === undefined
            ? await this.#client.conversations.history(request)
            : await this.#client.conversations.replies({ ...request, ts: threadTs });
        for (const found of answer.messages ?? []) {
          const metadata = found.metadata as
            | { event_type?: string; event_payload?: Record<string, unknown> }
            | undefined;
          if (
            metadata?.event_type === conferencePostEvent &&
            metadata.event_payload?.conference_id === marker.conferenceId &&
            metadata.event_payload.key === marker.key &&
            typeof found.ts === 'string'
          ) {
            return { ts: found.ts };
          }
        }
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (cursor === undefined) return 'absent';
      }
      // More messages since the post than a lookup reads: it cannot say.
      return 'unknown';
    } catch (error) {
      const reason = slackErrorString(error) ?? '';
      if (historyRefusals.has(reason)) {
        this.#logger.info({ channelId, reason }, 'conference post not looked for');
        return 'unknown';
      }
      throw toAppError(method, channelId, error);
    }
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
