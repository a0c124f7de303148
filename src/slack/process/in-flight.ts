/**
 * Work that must finish before the process exits (answers still owed to someone). Shutdown drains
 * it with a deadline, then aborts what is left so each person still gets a final message.
 */
import { timedOut, within } from '../../time/within.ts';

export class InFlight {
  readonly #running = new Set<Promise<unknown>>();
  /**
   * One controller per piece of work rather than one signal for all: thousands of listeners on a
   * single AbortSignal make each new one cost a walk of all the others.
   */
  readonly #controllers = new Set<AbortController>();
  #stopping: Error | undefined;

  get size(): number {
    return this.#running.size;
  }

  track<T>(work: Promise<T>): Promise<T> {
    this.#running.add(work);
    const forget = () => this.#running.delete(work);
    work.then(forget, forget);
    return work;
  }

  /**
   * Runs `work` with a signal that shutdown aborts when it gives up waiting (lookups listen to it
   * to answer early), and tracks it.
   */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (this.#stopping !== undefined) controller.abort(this.#stopping);
    this.#controllers.add(controller);
    const running = work(controller.signal);
    const release = () => this.#controllers.delete(controller);
    running.then(release, release);
    return this.track(running);
  }

  /**
   * Waits for everything in flight for up to `graceMs`, then aborts the rest and waits up to
   * `abortGraceMs` for their final messages. Resolves true when everything finished on its own.
   */
  async drain(graceMs: number, abortGraceMs: number): Promise<boolean> {
    if (await this.#settledWithin(graceMs)) return true;
    this.#stopping = new Error('shutting down');
    for (const controller of this.#controllers) controller.abort(this.#stopping);
    await this.#settledWithin(abortGraceMs);
    return false;
  }

  /** Waits up to `ms` for everything in flight to finish, aborting nothing; true when it did. */
  idleWithin(ms: number): Promise<boolean> {
    return this.#settledWithin(ms);
  }

  async #settledWithin(ms: number): Promise<boolean> {
    if (this.#running.size === 0) return true;
    const settled = (async () => {
      while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    })();
    return (await within(settled, ms)) !== timedOut;
  }
}
