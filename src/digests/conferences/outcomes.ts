/** How one conference's update ends: the tick's counts, and the failures that wait or end it. */
import { failureDetail, outageCause, runFailure } from '../failures.ts';

/** What one tick did, for logs, the CLI's output, tests and the bench. */
export interface ConferenceTickReport {
  claimed: number;
  updated: number;
  boards: number;
  recaps: number;
  finals: number;
  /** Updates skipped to the next refresh (rate limit, a service briefly failing). */
  skipped: number;
  ended: number;
  analyticsCalls: number;
}

/** A failure that ends the conference: a person must act (channel archived, token revoked). */
// Not an AppError: the refresh's signal to the runner, which ends the conference on it.
export class ConferenceEndedError extends Error {
  readonly code: string;
  readonly detail: string | undefined;

  constructor(code: string, detail: string | undefined, cause: unknown) {
    super(`conference ended: ${code}`, { cause });
    this.code = code;
    this.detail = detail;
  }
}

/** A step that failed for now (rate limit, a service briefly down): the next refresh tries again. */
// Not an AppError: the refresh's signal to the runner, which saves and waits on it.
export class SkipToNextRefreshError extends Error {}

/** A failure as the run acts on it: wait for the next refresh, or end the conference. */
export function asRunError(error: unknown): Error {
  if (error instanceof SkipToNextRefreshError || error instanceof ConferenceEndedError)
    return error;
  const { failure, cause } = runFailure(error);
  // A failure of the whole app (the analytics service refusing its credentials, Slack out of
  // reach) is no reason to end every conference: it waits, as digests hold for an outage. A
  // revoked Slack token ends it: the app was removed.
  const outage = outageCause(cause);
  const appWide = outage !== undefined && outage !== 'slack_token_rejected';
  if (failure.kind === 'transient' || appWide) {
    return new SkipToNextRefreshError(failure.code, { cause });
  }
  return new ConferenceEndedError(failure.code, failureDetail(failure), cause);
}
