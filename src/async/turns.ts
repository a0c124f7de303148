/**
 * Turns on the event loop, handed out a few per loop iteration. When one event wakes many waiters
 * at once (a shared analytics answer reaching hundreds of lookups), continuing them all at once
 * holds the event loop for the whole batch, and every request that arrives meanwhile (an ack Slack
 * waits 3 seconds for) waits behind it. Waiting for a turn lets I/O in between small batches.
 */
import { setImmediate } from 'node:timers';

export class Turns {
  readonly #perIteration: number;
  readonly #waiting: (() => void)[] = [];
  #scheduled = false;

  /** `perIteration`: how many waiters continue in one loop iteration. */
  constructor(perIteration = 8) {
    this.#perIteration = perIteration;
  }

  /** Resolves at the caller's turn: in a later loop iteration, after those who asked earlier. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // An immediate set from an immediate runs in the next iteration, after the poll for I/O.
    // Imported from node:timers: turns belong to the real event loop, also under fake timers.
    setImmediate(() => this.#release());
  }

  #release(): void {
    this.#scheduled = false;
    for (const resolve of this.#waiting.splice(0, this.#perIteration)) resolve();
    if (this.#waiting.length > 0) this.#schedule();
  }
}
