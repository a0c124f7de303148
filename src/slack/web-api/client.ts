import { setTimeout as sleep } from 'node:timers/promises';
import {
  type RetryOptions,
  type WebAPICallResult,
  WebClient,
  type WebClientOptions,
} from '@slack/web-api';
import { type Logger, silentLogger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { webApiLogger } from '../process/bolt-logger.ts';

/**
 * The Web API client's defaults suit background jobs: ten retries over about 30 minutes. Every call
 * here serves someone waiting in Slack, so a failing call should give up within seconds and let
 * the handler tell them, not hold their answer for half an hour.
 */
export const interactiveRetryConfig = {
  retries: 2,
  factor: 2,
  minTimeout: 250,
  maxTimeout: 1_000,
  randomize: true,
} as const;

/** Per-request timeout of a Web API call; Slack answers in well under a second. */
export const webApiTimeoutMs = 5_000;

/**
 * The longest a person's answer waits out a 429 before its one retry. Slack's per-channel posting
 * limit asks for about a second; a longer Retry-After means the workspace is throttled, and the
 * answer is abandoned (and logged) rather than held.
 */
export const rateLimitRetryMaxWaitMs = 3_000;

export interface WebClientSettings {
  /** Slack traffic goes through it: tests and benchmarks inject a fake. */
  readonly fetch?: typeof fetch;
  /** Web API base URL (GovSlack, a proxy, tests). */
  readonly apiUrl?: string;
  /** Default {@link interactiveRetryConfig}; background work retries longer. */
  readonly retryConfig?: RetryOptions;
  /** Per-request timeout; default {@link webApiTimeoutMs}. */
  readonly timeoutMs?: number;
  /** Where the client's own log lines go, redacted; nowhere when not given, never the console. */
  readonly logger?: Logger;
}

/**
 * Options of every Web API client this app makes, interactive or background. A 429 rejects the one
 * call that got it: by default the client would pause its whole queue for Retry-After, so one
 * throttled users.info would freeze every DM answer and make `views.open` miss its 3-second
 * trigger, and the digest runner paces a throttled workspace itself. The client logs through the
 * app's logger and its redaction (see {@link webApiLogger}).
 */
export function webClientOptions(settings: WebClientSettings): WebClientOptions {
  return {
    retryConfig: { ...(settings.retryConfig ?? interactiveRetryConfig) },
    timeout: settings.timeoutMs ?? webApiTimeoutMs,
    rejectRateLimitedCalls: true,
    logger: webApiLogger(settings.logger ?? silentLogger),
    ...defined({ fetch: settings.fetch }),
    ...defined({ slackApiUrl: settings.apiUrl }),
  };
}

/**
 * {@link webClientOptions} without automatic retries, for calls whose retry could do the work
 * twice: a chat.postMessage that timed out or got a 5xx may have posted all the same.
 */
export function singleAttemptClientOptions(
  settings: Omit<WebClientSettings, 'retryConfig'>,
): WebClientOptions {
  return webClientOptions({ ...settings, retryConfig: { retries: 0 } });
}

interface SlackErrorShape {
  readonly code?: unknown;
  readonly retryAfter?: unknown;
  readonly data?: { readonly error?: unknown };
}

/** Slack's error string for a platform error (`{ ok: false, error }`), else undefined. */
export function slackErrorString(error: unknown): string | undefined {
  const shape = (error ?? {}) as SlackErrorShape;
  if (shape.code !== 'slack_webapi_platform_error') return undefined;
  return typeof shape.data?.error === 'string' ? shape.data.error : undefined;
}

/**
 * Whether Slack rate limited the call (a 429, or `ok: false` with `ratelimited`), and for how long
 * when it said so; undefined for any other error. The one reading of Slack's Retry-After.
 */
export function slackRateLimit(
  error: unknown,
): { readonly retryAfterMs: number | undefined } | undefined {
  const shape = (error ?? {}) as SlackErrorShape;
  if (shape.code === 'slack_webapi_rate_limited_error') {
    const seconds = shape.retryAfter;
    return {
      retryAfterMs:
        typeof seconds === 'number' && Number.isFinite(seconds)
          ? Math.max(0, seconds * 1000)
          : undefined,
    };
  }
  return slackErrorString(error) === 'ratelimited' ? { retryAfterMs: undefined } : undefined;
}

/** Retry-After in ms (0 when Slack did not say) when Slack rate limited the call, else undefined. */
export function slackRetryAfterMs(error: unknown): number | undefined {
  const limit = slackRateLimit(error);
  return limit === undefined ? undefined : (limit.retryAfterMs ?? 0);
}

export interface RateLimitRetryOptions {
  /** Longest wait before the retry; default {@link rateLimitRetryMaxWaitMs}. */
  readonly maxWaitMs?: number;
  /**
   * A Retry-After beyond `maxWaitMs`: wait `maxWaitMs` and retry (`wait-max`, the default), or
   * throw the 429 at once (`give-up`) for work that would rather fail than retry too early.
   */
  readonly beyondMax?: 'wait-max' | 'give-up';
  /** The wait when Slack gives no Retry-After; default 0. */
  readonly defaultWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs `call`; when Slack rate limits it, waits Retry-After (bounded by `maxWaitMs`) and tries once
 * more. Any other failure, or a second 429, is thrown to the caller, which logs it.
 */
export async function withRateLimitRetry<T>(
  call: () => Promise<T>,
  options: RateLimitRetryOptions = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const limit = slackRateLimit(error);
    if (limit === undefined) throw error;
    const maxWaitMs = options.maxWaitMs ?? rateLimitRetryMaxWaitMs;
    const retryAfterMs = limit.retryAfterMs ?? options.defaultWaitMs ?? 0;
    if (retryAfterMs > maxWaitMs && options.beyondMax === 'give-up') throw error;
    await (options.sleep ?? sleep)(Math.min(retryAfterMs, maxWaitMs));
    return call();
  }
}

/** What a log record says of a failed Web API call. */
export interface SlackFailure {
  readonly method: string;
  /** The client's error code (`slack_webapi_platform_error`…), or the error's name. */
  readonly code: string;
  /** Slack's own error string (`invalid_auth`, `channel_not_found`…) when it gave one. */
  readonly slackError?: string;
  /** The HTTP status of a non-200 answer. */
  readonly status?: number;
  /** The network failure under a request error (`ECONNREFUSED`, `TimeoutError`…). */
  readonly cause?: string;
}

/**
 * A failed Web API call by method and code, for the logs: never the error's `data`, `body` or
 * `headers`, which hold Slack's whole answer (and, for some methods, what was sent).
 */
export function slackFailure(error: unknown, method: string): SlackFailure {
  const shape = (error ?? {}) as {
    readonly code?: unknown;
    readonly name?: unknown;
    readonly statusCode?: unknown;
    readonly original?: { readonly code?: unknown; readonly name?: unknown };
  };
  const code = typeof shape.code === 'string' ? shape.code : String(shape.name ?? typeof error);
  const cause = shape.original?.code ?? shape.original?.name;
  return {
    method,
    code,
    ...defined({ slackError: slackErrorString(error) }),
    ...(typeof shape.statusCode === 'number' ? { status: shape.statusCode } : {}),
    ...(typeof cause === 'string' ? { cause } : {}),
  };
}

/** Gives the token of a call's workspace when the call is made (a store's, refreshed as needed). */
export type TokenSource = () => Promise<string>;

/**
 * A Web API client whose token is asked for at each call rather than fixed when it is made: one
 * client per workspace serves however many times its rotating token is refreshed, and a call made
 * before the workspace's installation is read waits for it. A call given its own `token` keeps it.
 */
export class TokenSourceClient extends WebClient {
  readonly #source: TokenSource;

  constructor(source: TokenSource, options: WebClientOptions) {
    super(undefined, options);
    this.#source = source;
  }

  override async apiCall(
    method: string,
    options: Record<string, unknown> = {},
  ): Promise<WebAPICallResult> {
    const token = typeof options.token === 'string' ? options.token : await this.#source();
    return super.apiCall(method, { ...options, token });
  }
}
