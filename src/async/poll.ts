/**
 * Work repeated every so often while something needs it, and not at all otherwise: the first
 * `hold()` schedules it, the last release cancels what is scheduled. One round at a time: the next
 * is scheduled once the one before has finished, however long it took.
 */

/**
 * Runs `work` once after `ms` unless the returned function cancels it first. `work` never
 * rejects; a timer a test drives may wait for it.
 */
export type Timer = (work: () => Promise<void>, ms: number) => () => void;

/** Real time. The timer does not keep the process alive: those who hold the poll do. */
export const realTimer: Timer = (work, ms) => {
  const timeout = setTimeout(() => void work(), ms);
  timeout.unref();
  return () => clearTimeout(timeout);
};

/** How often a poll runs, and on what timer (tests drive their own). */
export interface PollSchedule {
  readonly everyMs: number;
  readonly timer: Timer;
}

export class Poll {
  readonly #work: () => Promise<void>;
  readonly #schedule: PollSchedule;
  #holders = 0;
  #cancel: (() => void) | undefined;
  #running = false;

  /** `work` is expected to handle its own failures; one it lets through is dropped. */
  constructor(work: () => Promise<void>, schedule: PollSchedule) {
    this.#work = work;
    this.#schedule = schedule;
  }

  /** Whether a round is scheduled or running. */
  get active(): boolean {
    return this.#cancel !== undefined || this.#running;
  }

  /** Keeps the poll going until the returned function is called (once). */
  hold(): () => void {
    this.#holders += 1;
    if (this.#holders === 1 && !this.#running) this.#next();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holders -= 1;
      if (this.#holders > 0) return;
      this.#cancel?.();
      this.#cancel = undefined;
    };
  }

  #next(): void {
    this.#cancel = this.#schedule.timer(() => {
      this.#cancel = undefined;
      return this.#round();
    }, this.#schedule.everyMs);
  }

  async #round(): Promise<void> {
    this.#running = true;
    try {
      await this.#work();
    } catch {
      // The work logs its own failures; the poll goes on regardless.
    } finally {
      this.#running = false;
      if (this.#holders > 0) this.#next();
    }
  }
}
