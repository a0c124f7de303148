/**
 * When a leaderboard's pin is tried again. Slack allows about 20 pins.add a minute, so a thousand
 * conferences starting together pin theirs over most of an hour: each waits as Retry-After says,
 * spread a little by conference so they do not all come back in the same second.
 */
import { SlackRateLimitedError } from '../../errors.ts';
import type { PendingPin } from '../../model/conference.ts';

/** The wait when Slack did not say (or the failure was not a rate limit). */
export const pinRetryMs = 60_000;
/** Attempts before the pin is given up and the thread told: over an hour at Slack's pace. */
export const maxPinAttempts = 40;

/** A share of the wait, from 0 to 1, the same for one conference at every attempt. */
function spread(conferenceId: string): number {
  let hash = 0;
  for (const char of conferenceId) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return (hash % 1000) / 1000;
}

/** The pin after a failed attempt at `now`; undefined once it is given up. */
export function pinRetry(
  pin: PendingPin,
  conferenceId: string,
  error: unknown,
  now: Date,
): PendingPin | undefined {
  const attempts = pin.attempts + 1;
  if (attempts >= maxPinAttempts) return undefined;
  const wait =
    error instanceof SlackRateLimitedError ? (error.retryAfterMs ?? pinRetryMs) : pinRetryMs;
  const at = now.getTime() + Math.round(wait * (1 + spread(conferenceId) / 2));
  return { ...pin, attempts, notBefore: new Date(at).toISOString() };
}

/** When the conference must run next: its refresh, or its pin's retry when that comes first. */
export function nextRun(pin: PendingPin | undefined, refreshAt: Date): Date {
  if (pin === undefined) return refreshAt;
  return new Date(Math.min(refreshAt.getTime(), Date.parse(pin.notBefore)));
}
