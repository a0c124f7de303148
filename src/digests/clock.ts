import { setTimeout as delay } from 'node:timers/promises';

/** The runner's only source of time, so tests can drive ticks, backoff and pacing. */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

/** Real time, for everything but tests. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => delay(ms),
};
