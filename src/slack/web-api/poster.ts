/**
 * Where the digest runner's messages go in Slack: chat.postMessage in the digest's channel and in
 * the creator's DM with the app. Runs in the background (timer, `digests run-due`), so its Web API
 * client retries a few times over seconds, unlike the interactive one, and hands 429s back to the
 * runner, which waits out Retry-After for the whole workspace and keeps its per-channel pacing.
 *
 * A digest's chat.postMessage is the exception: Slack offers no idempotency key for it, and a
 * timeout, a connection lost mid-request or a 5xx may come after Slack posted the message, so a
 * resend could post it twice. It goes through a client that never retries; the runner decides
 * what may be sent again (only what certainly did not reach Slack, see `mayHavePosted`).
 * conversations.join and the pause notice keep the retries: joining twice is harmless, and a
 * repeated pause notice is a rare duplicate DM to one person, better than none.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WebClient, type WebClient as WebClientType } from '@slack/web-api';
import type { DigestPoster } from '../../digests/runner.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import type { SlackMessage } from '../../model/message.ts';
import {
  slackErrorString,
  type TokenSource,
  TokenSourceClient,
  webClientOptions,
  withRateLimitRetry,
} from './client.ts';
import { toAppError } from './failures.ts';
import { UserDirectory } from './user-directory.ts';

/** A few retries of 5xx and network failures, spread over about 15 s. */
export const backgroundRetryConfig = {
  retries: 3,
  factor: 2,
  minTimeout: 1_000,
  maxTimeout: 8_000,
  randomize: true,
} as const;

/** For calls that must not be resent by the client: one attempt. */
export const singleAttemptRetryConfig = { retries: 0 } as const;

/** Per-request timeout of a background Web API call. */
export const backgroundWebApiTimeoutMs = 15_000;

/** A DM that Slack rate limits waits at most this long once before giving up. */
const notifyRateLimitWaitMaxMs = 30_000;

/** The wait before retrying a rate-limited DM when Slack gives no Retry-After. */
const notifyRateLimitDefaultWaitMs = 1_000;

export interface BackgroundClientSettings {
  /** A workspace's fixed token, or where its current one is asked for at each call. */
  readonly token: string | TokenSource;
  readonly fetch?: typeof fetch;
  /** Web API base URL (SLACK_API_URL). */
  readonly apiUrl?: string;
  readonly logger?: Logger;
  /** Per-request timeout; default `backgroundWebApiTimeoutMs`. */
  readonly timeoutMs?: number;
}

/** The single-attempt client made alongside each background client, for digest posts. */
const singleAttemptClients = new WeakMap<WebClientType, WebClientType>();

function webClient(
  settings: BackgroundClientSettings,
  retryConfig: { readonly retries: number },
): WebClientType {
  const options = webClientOptions({
    retryConfig,
    timeoutMs: settings.timeoutMs ?? backgroundWebApiTimeoutMs,
    ...defined({ fetch: settings.fetch }),
    ...defined({ apiUrl: settings.apiUrl }),
    ...defined({ logger: settings.logger }),
  });
  return typeof settings.token === 'string'
    ? new WebClient(settings.token, options)
    : new TokenSourceClient(settings.token, options);
}

/**
 * The Web API client for work nobody is waiting on in Slack: digests, pause notices. A
 * SlackDigestPoster given this client posts digests through a single-attempt twin of it.
 */
export function backgroundWebClient(settings: BackgroundClientSettings): WebClientType {
  const client = webClient(settings, backgroundRetryConfig);
  singleAttemptClients.set(client, webClient(settings, singleAttemptRetryConfig));
  return client;
}

/** The single-attempt twin of a `backgroundWebClient`, for calls that must not be resent. */
export function singleAttemptTwin(client: WebClientType): WebClientType {
  return singleAttemptClients.get(client) ?? client;
}

/** What the digest runner is told when a post or a join fails: the app's error for it. */
export function toDigestError(channelId: string, error: unknown, message?: SlackMessage): unknown {
  return toAppError('chat.postMessage', channelId, error, message ?? {});
}

export interface SlackDigestPosterOptions {
  /** For conversations.join and the notices, which may be retried. */
  readonly client: WebClientType;
  readonly logger?: Logger;
  /** users.info, to tell admins from other creators; a private cache when not given. */
  readonly directory?: UserDirectory;
  /** Waits out a rate-limited DM; tests pass a fake. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * The runner's `DigestPoster` over the Web API. A public channel the bot has not joined is joined
 * (conversations.join) and the post retried once; a private channel needs a person to `/invite`
 * the bot, which the error says.
 */
export class SlackDigestPoster implements DigestPoster {
  readonly #client: WebClientType;
  readonly #postClient: WebClientType;
  readonly #logger: Logger;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #directory: UserDirectory;

  constructor(options: SlackDigestPosterOptions) {
    this.#client = options.client;
    this.#directory = options.directory ?? new UserDirectory();
    // A `backgroundWebClient` has a single-attempt twin for digest posts; tests pass fakes.
    this.#postClient = singleAttemptClients.get(options.client) ?? options.client;
    this.#logger = options.logger ?? silentLogger;
    this.#sleep = options.sleep ?? ((ms) => sleep(ms, undefined, { ref: false }));
  }

  /**
   * One chat.postMessage attempt (two when Slack says `not_in_channel`, which certainly did not
   * post, and the bot could join). Errors that may hide a post reach the runner unchanged; blocks
   * Slack refuses come back as SlackBlocksRefusedError, which `blocksFallbackPoster` answers by
   * posting a lighter message.
   */
  async post(channelId: string, message: SlackMessage): Promise<{ ts: string }> {
    try {
      return await this.#postMessage(this.#postClient, channelId, message);
    } catch (error) {
      if (slackErrorString(error) !== 'not_in_channel') {
        throw toDigestError(channelId, error, message);
      }
    }
    await this.#join(channelId);
    try {
      return await this.#postMessage(this.#postClient, channelId, message);
    } catch (error) {
      throw toDigestError(channelId, error, message);
    }
  }

  async notifyCreator(userId: string, message: SlackMessage): Promise<void> {
    try {
      await withRateLimitRetry(() => this.#postMessage(this.#client, userId, message), {
        maxWaitMs: notifyRateLimitWaitMaxMs,
        beyondMax: 'give-up',
        defaultWaitMs: notifyRateLimitDefaultWaitMs,
        sleep: this.#sleep,
      });
    } catch (error) {
      throw toDigestError(userId, error);
    }
  }

  /**
   * DMs each of `userIds` whom users.info calls an admin or owner, one after the other; a person
   * Slack cannot describe, or a DM Slack refuses, is logged and the others are still told.
   */
  async notifyAdmins(userIds: readonly string[], message: SlackMessage): Promise<void> {
    for (const userId of userIds) {
      try {
        if (!(await this.#directory.get(this.#client, userId)).isAdmin) continue;
        await this.notifyCreator(userId, message);
      } catch (error) {
        this.#logger.warn({ err: error, userId }, 'could not tell an admin about an outage');
      }
    }
  }

  /** auth.test's workspace; undefined when Slack refuses the token or cannot be asked. */
  async workspace(): Promise<string | undefined> {
    try {
      const { team_id: teamId } = await this.#client.auth.test();
      return typeof teamId === 'string' && teamId !== '' ? teamId : undefined;
    } catch (error) {
      this.#logger.debug({ err: toAppError('auth.test', '', error) }, 'auth.test failed');
      return undefined;
    }
  }

  async #postMessage(
    client: WebClientType,
    channel: string,
    message: SlackMessage,
  ): Promise<{ ts: string }> {
    const result = await client.chat.postMessage({
      channel,
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    if (typeof result.ts !== 'string') {
      // Not an AppError: every caller turns it into the Slack layer's own error (toDigestError).
      throw new Error('chat.postMessage answered ok without a message ts');
    }
    return { ts: result.ts };
  }

  async #join(channelId: string): Promise<void> {
    try {
      await this.#client.conversations.join({ channel: channelId });
      this.#logger.info({ channelId }, 'joined a public channel to post a digest');
    } catch (error) {
      // A private channel (or a DM) cannot be joined: a person must invite the bot.
      throw toDigestError(channelId, error);
    }
  }
}
