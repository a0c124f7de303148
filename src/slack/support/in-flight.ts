/**
 * Work that must finish before the process exits (answers still owed to someone). Shutdown drains
 * it with a deadline, then aborts what is left so each person still gets a final message.
 */
import { timedOut, within } from '../../time/within.ts';

export class InFlight {
  readonly #running = new Set<Promise<unknown>>();
  readonly #abort = new AbortController();

  /** Aborted when shutdown gives up waiting; lookups listen to it to answer early. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

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
   * Waits for everything in flight for up to `graceMs`, then aborts the rest and waits up to
   * `abortGraceMs` for their final messages. Resolves true when everything finished on its own.
   */
  async drain(graceMs: number, abortGraceMs: number): Promise<boolean> {
    if (await this.#settledWithin(graceMs)) return true;
    this.#abort.abort(new Error('shutting down'));
    await this.#settledWithin(abortGraceMs);
    return false;
  }

  async #settledWithin(ms: number): Promise<boolean> {
    if (this.#running.size === 0) return true;
    const settled = (async () => {
      while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    })();
    return (await within(settled, ms)) !== timedOut;
  }
}
