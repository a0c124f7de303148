/**
 * Sorts what went wrong in a run into "try again soon" and "a person must act", and says how a
 * step that certainly had no effect is tried again. Posters may throw the app's errors
 * (ChannelUnreachableError, RateLimitedError with `retryAfterMs`) or @slack/web-api's own errors
 * unchanged.
 */
import { type ChannelProblem, type ErrorCode, isAppError } from '../errors.ts';
import { defined } from '../model/defined.ts';

export interface Failure {
  readonly kind: 'transient' | 'permanent';
  readonly code: ErrorCode | 'unknown';
  /** Set for rate limits: how long the far side asked us to wait. */
  readonly retryAfterMs?: number;
  readonly channelProblem?: ChannelProblem;
}

const permanentCodes = new Set<ErrorCode>([
  'channel_unreachable',
  'credentials_rejected',
  'unauthorized',
  'access_denied',
  'unknown_database',
  'bad_request',
  'team_not_allowed',
  'digest_not_found',
  'parse_error',
  'config_invalid',
  'digest_permission_denied',
]);

/**
 * Slack error strings (chat.postMessage, conversations.join) that no retry can fix, and what they
 * mean for the channel. The Slack poster translates with this same table.
 */
export const slackChannelProblems: Readonly<Record<string, ChannelProblem>> = {
  not_in_channel: 'not_in_channel',
  channel_not_found: 'not_found',
  is_archived: 'archived',
  channel_is_archived: 'archived',
  restricted_action: 'restricted',
  restricted_action_read_only_channel: 'restricted',
  restricted_action_thread_only_channel: 'restricted',
  restricted_action_non_threadable_channel: 'restricted',
  cannot_join: 'restricted',
  method_not_supported_for_channel_type: 'not_in_channel',
};
const slackTransientErrors = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);

interface SlackLikeError {
  readonly code?: unknown;
  readonly retryAfter?: unknown;
  readonly statusCode?: unknown;
  readonly data?: { readonly error?: unknown };
}

export function classifyFailure(error: unknown): Failure {
  if (isAppError(error)) {
    if (error.code === 'rate_limited') {
      const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
      return {
        kind: 'transient',
        code: 'rate_limited',
        ...defined({ retryAfterMs }),
      };
    }
    if (error.code === 'channel_unreachable') {
      const channelProblem = (error as { problem?: ChannelProblem }).problem;
      return { kind: 'permanent', code: error.code, ...(channelProblem ? { channelProblem } : {}) };
    }
    return { kind: permanentCodes.has(error.code) ? 'permanent' : 'transient', code: error.code };
  }
  const slack = (error ?? {}) as SlackLikeError;
  switch (slack.code) {
    case 'slack_webapi_rate_limited_error': {
      const seconds = Number(slack.retryAfter);
      return {
        kind: 'transient',
        code: 'rate_limited',
        ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
      };
    }
    case 'slack_webapi_platform_error': {
      const reason = String(slack.data?.error ?? '');
      const channelProblem = slackChannelProblems[reason];
      if (channelProblem) return { kind: 'permanent', code: 'channel_unreachable', channelProblem };
      return {
        kind: slackTransientErrors.has(reason) ? 'transient' : 'permanent',
        code: 'unknown',
      };
    }
    case 'slack_webapi_http_error':
      return { kind: Number(slack.statusCode) >= 500 ? 'transient' : 'permanent', code: 'unknown' };
    case 'slack_webapi_request_error':
      return { kind: 'transient', code: 'network' };
    default:
      return { kind: 'transient', code: 'unknown' };
  }
}

/**
 * Slack's `ok: false` answers that, by Slack's own description, may come after part of the work
 * was done: "It's possible some aspect of the operation succeeded before the error was raised."
 */
const slackMaybeDoneErrors = new Set(['internal_error', 'fatal_error']);

/**
 * Network failures that happen before a request leaves this machine (no connection, no address),
 * so the far side cannot have acted on it. undici reports them in `cause.code`.
 */
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Codes at any depth of `original` / `cause`, as the Web API client and fetch nest them. */
function nestedCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, original, cause } = current as {
      code?: unknown;
      original?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string') codes.push(code);
    current = original ?? cause;
  }
  return codes;
}

/**
 * Whether a failed chat.postMessage may still have posted the message. chat.postMessage has no
 * idempotency key, so such an attempt is never sent again: the slot is recorded `unconfirmed`.
 * - Certainly not posted (false): Slack answered and said no (a 429, any `ok: false` but the two
 *   below, a 4xx), or the request never left (connection refused, DNS, connect timeout), or the
 *   poster translated Slack's answer into one of the app's errors (channel, token, rate limit).
 * - Maybe posted (true): a 5xx (a gateway may answer after Slack's backend acted), `ok: false`
 *   with `internal_error` or `fatal_error`, a timeout or a connection lost once the request was
 *   sent, and anything unrecognised.
 */
export function mayHavePosted(error: unknown): boolean {
  if (isAppError(error)) {
    return ['timeout', 'network', 'service_unavailable', 'invalid_response'].includes(error.code);
  }
  const slack = (error ?? {}) as SlackLikeError;
  switch (slack.code) {
    case 'slack_webapi_rate_limited_error':
      return false;
    case 'slack_webapi_platform_error':
      return slackMaybeDoneErrors.has(String(slack.data?.error ?? ''));
    case 'slack_webapi_http_error':
      return Number(slack.statusCode) >= 500;
    case 'slack_webapi_request_error':
      return !nestedCodes(error).some((code) => notSentCodes.has(code));
    default:
      return true;
  }
}

/** How a step that certainly had no effect is tried again. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly attempts: number;
  /** The wait after the first failed attempt, doubled after each further one. */
  readonly backoffMs: number;
}

/** The wait after the `tried`-th failed attempt: doubling, so a struggling far side recovers. */
export function backoffDelay(policy: RetryPolicy, tried: number): number {
  return policy.backoffMs * 2 ** (tried - 1);
}

/** A step that gave up: carries the failure that decided it, the original error as its cause. */
export class RunFailedError extends Error {
  readonly failure: Failure;

  constructor(failure: Failure, cause: unknown) {
    super(`digest run failed: ${failure.code}`, { cause });
    this.failure = failure;
  }
}

/** What made a run fail, and the error to log for it. */
export function runFailure(error: unknown): { readonly failure: Failure; readonly cause: unknown } {
  return error instanceof RunFailedError
    ? { failure: error.failure, cause: error.cause }
    : { failure: classifyFailure(error), cause: error };
}
