/**
 * Start-up against a Slack that may be slow or failing. A platform restarts a process that exits,
 * so exiting on a slow `auth.test` or a 5xx makes a crash loop: the token is checked again with
 * backoff for as long as the boot window allows, and only a token Slack refuses ends the start at
 * once. Whatever stops a start becomes one {@link StartFailure} for the renderer's sentence.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { WebClient } from '@slack/web-api';
import {
  ConfigError,
  DigestStoreOpenFailedError,
  SlackTokenRejectedError,
  SlackUnreachableError,
} from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import type { StartFailure } from '../../render/startup.ts';
import { singleAttemptClientOptions, slackErrorString, slackFailure } from '../web-api/client.ts';

/**
 * Heroku stops a web process that has not bound $PORT 60 s after it started; opening the store and
 * binding need some of that.
 */
export const startupBudgetMs = 45_000;
/** One auth.test may take this long; the client's usual 5 s is for people waiting on an answer. */
const attemptTimeoutMs = 15_000;
const firstRetryMs = 1_000;
const maxRetryMs = 8_000;

/** The bot's ids, which Bolt needs to ignore the bot's own messages. */
export interface BotIdentity {
  readonly botId: string | undefined;
  readonly botUserId: string | undefined;
}

/**
 * Slack's answers that mean the token will never work, whatever the wait: starting again would
 * only loop. Anything else (a timeout, a 5xx, `fatal_error`) may pass, and is tried again.
 */
const refusedTokenErrors = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);

export interface VerifyBotTokenOptions {
  readonly token: string;
  readonly fetch?: typeof fetch;
  readonly apiUrl?: string;
  readonly logger: Logger;
  readonly budgetMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  /** Stops the retries: the start failed elsewhere (the database), so waiting for Slack is moot. */
  readonly signal?: AbortSignal;
}

/**
 * `auth.test` until Slack confirms the token, with backoff (1 s doubling to 8 s) within the budget.
 *
 * @throws SlackTokenRejectedError at once when Slack refuses the token (`invalid_auth` and the like).
 * @throws SlackUnreachableError once the budget leaves no room for another attempt.
 */
export async function verifyBotToken(options: VerifyBotTokenOptions): Promise<BotIdentity> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms));
  const budgetMs = options.budgetMs ?? startupBudgetMs;
  const started = now();
  for (let attempt = 1; ; attempt += 1) {
    options.signal?.throwIfAborted();
    const left = budgetMs - (now() - started);
    const client = new WebClient(
      options.token,
      singleAttemptClientOptions({
        timeoutMs: Math.max(1_000, Math.min(attemptTimeoutMs, left)),
        logger: options.logger,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.apiUrl === undefined ? {} : { apiUrl: options.apiUrl }),
      }),
    );
    try {
      const result = await client.auth.test();
      return { botId: result.bot_id, botUserId: result.user_id };
    } catch (error) {
      const refusal = slackErrorString(error);
      if (refusal !== undefined && refusedTokenErrors.has(refusal)) {
        throw new SlackTokenRejectedError(refusal, { cause: error });
      }
      const waitMs = Math.min(maxRetryMs, firstRetryMs * 2 ** (attempt - 1));
      const elapsed = now() - started;
      if (elapsed + waitMs >= budgetMs) throw new SlackUnreachableError(elapsed, error);
      options.logger.warn(
        {
          attempt,
          retryInMs: waitMs,
          url: `${options.apiUrl ?? defaultSlackApiUrl}auth.test`,
          ...slackFailure(error, 'auth.test'),
          ...defined({ reason: networkReason(error) }),
        },
        'Slack did not confirm the bot token yet; trying again',
      );
      await sleep(waitMs);
    }
  }
}

/** A failed Web API call in a few technical words, for the start sentence. */
/** Where the Web API client sends a call when SLACK_API_URL is not set. */
const defaultSlackApiUrl = 'https://slack.com/api/';

/**
 * What the network said, from the deepest cause of a failed call (`ECONNREFUSED 127.0.0.1:3000`,
 * `ENOTFOUND slack.example`, `bad port`): fetch's own error only says "fetch failed".
 */
export function networkReason(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  let deepest: string | undefined;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const shape = current as {
      code?: unknown;
      address?: unknown;
      port?: unknown;
      hostname?: unknown;
      original?: unknown;
      cause?: unknown;
      message?: unknown;
    };
    if (depth > 0 && typeof shape.message === 'string') deepest = shape.message;
    if (typeof shape.code === 'string' && /^E[A-Z_]+$/.test(shape.code)) {
      const where =
        typeof shape.address === 'string'
          ? `${shape.address}${typeof shape.port === 'number' ? `:${shape.port}` : ''}`
          : typeof shape.hostname === 'string'
            ? shape.hostname
            : undefined;
      found = where === undefined ? shape.code : `${shape.code} ${where}`;
    }
    current = shape.original ?? shape.cause;
  }
  return found ?? (deepest === 'fetch failed' ? undefined : deepest);
}

function briefly(error: unknown): string {
  const failure = slackFailure(error, 'auth.test');
  if (failure.slackError !== undefined) return failure.slackError;
  if (failure.status !== undefined) return `HTTP ${failure.status}`;
  return failure.cause ?? failure.code;
}

/** What stopped a start, for {@link startFailureText}; `port` is the one the app tried to bind. */
export function startFailure(error: unknown, port: number): StartFailure {
  if (error instanceof ConfigError) return { kind: 'config', problems: error.problems };
  if (error instanceof SlackUnreachableError) {
    return {
      kind: 'slack_unreachable',
      waitedS: Math.round(error.waitedMs / 1000),
      detail: briefly(error.cause),
    };
  }
  if (error instanceof DigestStoreOpenFailedError) {
    const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
    const detail = typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? cause);
    return { kind: 'store_unavailable', where: error.where, detail };
  }
  const code = (error as { code?: unknown; syscall?: unknown } | undefined)?.code;
  if ((error as { syscall?: unknown })?.syscall === 'listen') {
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      return { kind: 'port_unavailable', port, inUse: code === 'EADDRINUSE' };
    }
  }
  const reason = slackErrorString(error);
  if (reason !== undefined) return { kind: 'app_token_refused', reason };
  return { kind: 'unexpected', detail: error instanceof Error ? error.message : String(error) };
}
