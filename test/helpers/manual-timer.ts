/**
 * A timer for `Poll` (src/async/poll.ts) that runs nothing until the test fires it: a poll's
 * rounds happen when the test says, and the test waits for them, never for a clock.
 */
import type { PollSchedule, Timer } from '../../src/async/poll.ts';

interface Scheduled {
  readonly work: () => Promise<void>;
  readonly ms: number;
}

export class ManualTimer {
  readonly #scheduled = new Set<Scheduled>();

  readonly timer: Timer = (work, ms) => {
    const entry = { work, ms };
    this.#scheduled.add(entry);
    return () => {
      this.#scheduled.delete(entry);
    };
  };

  /** A poll schedule on this timer, every `everyMs` (which only the delays it records show). */
  schedule(everyMs = 1_000): PollSchedule {
    return { everyMs, timer: this.timer };
  }

  /** The delays of what is scheduled and not yet run or cancelled. */
  get pending(): number[] {
    return [...this.#scheduled].map((entry) => entry.ms);
  }

  /** Runs what is scheduled now, and resolves once it has finished. */
  async fire(): Promise<void> {
    const due = [...this.#scheduled];
    this.#scheduled.clear();
    await Promise.all(due.map((entry) => entry.work()));
  }
}
