/**
 * Sorts what went wrong in a run into "try again soon" and "a person must act", and says how a
 * step that certainly had no effect is tried again. Posters throw the app's errors: the Slack
 * layer has already said what a Slack failure means (`SlackCallError`, `ChannelUnreachableError`,
 * `SlackRateLimitedError`, `SlackBlocksRefusedError`); anything else is unknown and treated with caution.
 */
import {
  type ChannelProblem,
  type ErrorCode,
  isAppError,
  SlackBlocksRefusedError,
  SlackCallError,
  SlackTokenRejectedError,
} from '../errors.ts';
import { defined } from '../model/defined.ts';
import type { OutageCause } from '../model/digest.ts';

export interface Failure {
  readonly kind: 'transient' | 'permanent';
  readonly code: ErrorCode | 'unknown';
  /** Set for rate limits: how long the far side asked us to wait. */
  readonly retryAfterMs?: number;
  readonly channelProblem?: ChannelProblem;
  /** Set for `slack_blocks_refused`: the block type Slack refused. */
  readonly blockType?: string;
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
  'slack_blocks_refused',
]);

/** What a failure's record keeps beside its code. */
export function failureDetail(failure: Failure): string | undefined {
  return failure.channelProblem ?? failure.blockType;
}

export function classifyFailure(error: unknown): Failure {
  if (isAppError(error)) {
    if (error.code === 'rate_limited' || error.code === 'slack_rate_limited') {
      const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
      return { kind: 'transient', code: error.code, ...defined({ retryAfterMs }) };
    }
    if (error instanceof SlackBlocksRefusedError) {
      return { kind: 'permanent', code: error.code, ...defined({ blockType: error.blockType }) };
    }
    if (error.code === 'channel_unreachable') {
      const channelProblem = (error as { problem?: ChannelProblem }).problem;
      return { kind: 'permanent', code: error.code, ...(channelProblem ? { channelProblem } : {}) };
    }
    if (error instanceof SlackCallError) {
      // Slack's own code, so the list and the pause words name Slack, not the analytics service.
      return { kind: error.transient ? 'transient' : 'permanent', code: error.code };
    }
    return { kind: permanentCodes.has(error.code) ? 'permanent' : 'transient', code: error.code };
  }
  return { kind: 'transient', code: 'unknown' };
}

/**
 * The outage an error shows, when it concerns the whole app or workspace rather than one digest:
 * Slack refusing the token or rate limiting beyond the retries, Slack out of reach, the analytics
 * service refusing the credentials, rate limiting, failing or out of reach. Such a failure never
 * counts toward pausing a digest; it holds the workspace's digests until it clears. Undefined for
 * failures that belong to one digest (its channel, its databases, its question, its blocks).
 */
export function outageCause(error: unknown): OutageCause | undefined {
  if (error instanceof SlackTokenRejectedError) return 'slack_token_rejected';
  if (error instanceof SlackCallError) return error.transient ? 'slack_unreachable' : undefined;
  if (!isAppError(error)) return undefined;
  switch (error.code) {
    case 'slack_rate_limited':
      return 'slack_rate_limited';
    case 'credentials_rejected':
    case 'unauthorized':
      return 'analytics_credentials_rejected';
    case 'rate_limited':
      return 'analytics_rate_limited';
    case 'service_unavailable':
    case 'timeout':
    case 'network':
      return 'analytics_unavailable';
    default:
      return undefined;
  }
}

/**
 * Whether a failed post may still have reached the channel. A post has no idempotency key, so
 * such an attempt is never sent again: the slot is recorded `unconfirmed`. The poster says so for
 * Slack's failures (`SlackCallError.mayHaveActed`); a rate limit, a channel or token problem
 * certainly did not post; anything unrecognised may have.
 */
export function mayHavePosted(error: unknown): boolean {
  if (error instanceof SlackCallError) return error.mayHaveActed;
  if (isAppError(error)) {
    return ['timeout', 'network', 'service_unavailable', 'invalid_response'].includes(error.code);
  }
  return true;
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
// Not an AppError: a wrapper inside the engine; runFailure unwraps it to the error it carries.
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
