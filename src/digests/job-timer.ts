/**
 * One job's own tick: the digests and the conferences each run on a timer of their own, so a long
 * digest tick never holds up a leaderboard's refresh, nor the other way round. Both jobs keep their
 * own leases in the shared database, so several instances (and `jobs run-due`) may tick at once.
 */
import type { Logger } from '../logger.ts';

/** A job the timer runs: one tick handles whatever is due. */
export interface TimedJob {
  /** As logged and reported: `digests`, `conferences`. */
  readonly name: string;
  /** One tick; resolves when everything it took on is finished. */
  runDue(): Promise<unknown>;
}

export interface JobTimerOptions {
  readonly job: TimedJob;
  /** Between the end of one tick and the start of the next. */
  readonly tickMs: number;
  readonly logger: Logger;
}

/** Runs a job's tick every `tickMs` until `stop()`; the timer does not keep the process alive. */
export class JobTimer {
  readonly #options: JobTimerOptions;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<unknown> | undefined;
  #stopped = true;

  constructor(options: JobTimerOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return !this.#stopped;
  }

  /** The first tick runs at once; the next `tickMs` after each one ends. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const { job, logger, tickMs } = this.#options;
    const tick = () => {
      this.#timer = undefined;
      this.#inFlight = job
        .runDue()
        .catch((error: unknown) =>
          logger.error({ err: error, job: job.name }, `${job.name} tick failed`),
        )
        .finally(() => {
          this.#inFlight = undefined;
          if (!this.#stopped) {
            this.#timer = setTimeout(tick, tickMs);
            this.#timer.unref();
          }
        });
    };
    this.#timer = setTimeout(tick, 0);
    this.#timer.unref();
  }

  /** Stops the timer and waits for the tick in flight, so its claims finish or expire cleanly. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }
}
