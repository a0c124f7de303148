import type { WebClientOptions } from '@slack/web-api';

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
}

/**
 * Options of the client every listener uses. A 429 rejects the one call that got it: by default the
 * client would pause its whole queue for Retry-After, so one throttled users.info would freeze
 * every DM answer and make `views.open` miss its 3-second trigger.
 */
export function webClientOptions(settings: WebClientSettings): WebClientOptions {
  return {
    retryConfig: { ...interactiveRetryConfig },
    timeout: webApiTimeoutMs,
    rejectRateLimitedCalls: true,
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
    ...(settings.apiUrl === undefined ? {} : { slackApiUrl: settings.apiUrl }),
  };
}

/** Retry-After in ms when `error` is the Web API client's rate-limited error, else undefined. */
export function slackRetryAfterMs(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as { code?: unknown; retryAfter?: unknown };
  if (shape.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof shape.retryAfter === 'number' && Number.isFinite(shape.retryAfter)
    ? Math.max(0, shape.retryAfter * 1000)
    : 0;
}

export interface RateLimitRetryOptions {
  /** Longest wait before the retry, whatever Retry-After says. */
  readonly maxWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs `call`; when Slack rate limits it, waits Retry-After (at most `maxWaitMs`) and tries once
 * more. Any other failure, or a second 429, is thrown to the caller, which logs it.
 */
export async function withRateLimitRetry<T>(
  call: () => Promise<T>,
  options: RateLimitRetryOptions = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const retryAfterMs = slackRetryAfterMs(error);
    if (retryAfterMs === undefined) throw error;
    const wait = Math.min(retryAfterMs, options.maxWaitMs ?? rateLimitRetryMaxWaitMs);
    await (options.sleep ?? defaultSleep)(wait);
    return call();
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
