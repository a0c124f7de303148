/** What {@link within} resolves to when the time ran out first. */
export const timedOut: unique symbol = Symbol('timed out');

/**
 * Waits for `work` at most `ms`: its value when it settles first (a rejection is thrown), else
 * {@link timedOut}. For budgets (shutdown, a profile lookup inside the 3-second ack) where the
 * caller moves on without the work; the work itself is not cancelled, and the timer never outlives
 * the race.
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof timedOut> {
  // A plain timer, cleared: aborting a timers/promises sleep instead would build an AbortError
  // (with its stack) at every call, on paths such as each command's ack.
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), timedOut);
    timer.unref();
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
