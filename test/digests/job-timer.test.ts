import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobTimer } from '../../src/digests/job-timer.ts';
import { createLogger } from '../../src/logger.ts';

/** A job whose ticks the test ends: each call waits until `finish()` is called. */
function heldJob(name: string) {
  const ticks: (() => void)[] = [];
  return {
    ticks,
    job: {
      name,
      runDue: () => new Promise<void>((resolve) => ticks.push(resolve)),
    },
    finish: () => ticks.at(-1)?.(),
  };
}

describe('JobTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-28T08:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the first tick at once and the next one tickMs after the last ended', async () => {
    const held = heldJob('digest');
    const timer = new JobTimer({
      job: held.job,
      tickMs: 30_000,
      logger: createLogger({ level: 'silent' }),
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(held.ticks).toHaveLength(1);
    // A long tick is not overlapped by the next one.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(held.ticks).toHaveLength(1);
    held.finish();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(held.ticks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.ticks).toHaveLength(2);
    held.finish();
    await timer.stop();
  });

  it('runs two jobs side by side: a digest tick that hangs never holds up the conferences', async () => {
    const digests = heldJob('digest');
    const conferences = heldJob('conference');
    const logger = createLogger({ level: 'silent' });
    const timers = [
      new JobTimer({ job: digests.job, tickMs: 30_000, logger }),
      new JobTimer({ job: conferences.job, tickMs: 30_000, logger }),
    ];
    for (const timer of timers) timer.start();
    await vi.advanceTimersByTimeAsync(0);
    for (let round = 0; round < 3; round++) {
      conferences.finish();
      await vi.advanceTimersByTimeAsync(30_000);
    }
    expect(digests.ticks).toHaveLength(1);
    expect(conferences.ticks).toHaveLength(4);
    digests.finish();
    conferences.finish();
    await Promise.all(timers.map((timer) => timer.stop()));
  });

  it('logs a tick that fails under the job name and ticks again', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => lines.push(line) },
    });
    let calls = 0;
    const timer = new JobTimer({
      job: {
        name: 'conference',
        runDue: async () => {
          calls++;
          throw new Error('analytics unavailable');
        },
      },
      tickMs: 1_000,
      logger,
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(1_000);
    await timer.stop();
    expect(calls).toBe(2);
    expect(lines.map((line) => JSON.parse(line).msg)).toContain('conference tick failed');
  });

  it('waits for the tick in flight when stopped, and starts no other', async () => {
    const held = heldJob('digest');
    const timer = new JobTimer({
      job: held.job,
      tickMs: 10,
      logger: createLogger({ level: 'silent' }),
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = timer.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    held.finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(100);
    expect(held.ticks).toHaveLength(1);
  });
});
