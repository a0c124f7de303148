import { describe, expect, it } from 'vitest';
import { InFlight } from '../../../src/slack/process/in-flight.ts';

describe('InFlight', () => {
  it('waits for work, then aborts what outlives the grace period', async () => {
    const inFlight = new InFlight();
    void inFlight.track(new Promise((resolve) => setTimeout(resolve, 20)));
    expect(await inFlight.drain(1_000, 100)).toBe(true);
    const stuck = inFlight.run(
      (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
    );
    expect(await inFlight.drain(20, 1_000)).toBe(false);
    await stuck;
    expect(inFlight.size).toBe(0);
  });
});
