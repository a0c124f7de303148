/**
 * Turns many single calls made close together into a few batched ones. Items submitted while a
 * batch is being written wait for the next one, so the batch size follows the load by itself:
 * one item when the store is idle, hundreds when a tick finishes thousands of digests at once.
 */

export interface CoalescerOptions<I, O> {
  /** Writes a batch; resolves with one result per item, in the items' order. */
  readonly run: (items: readonly I[]) => Promise<O[]>;
  /**
   * Handles one item of a batch that failed as a whole, so that one bad item (or one lost
   * connection) fails only itself. It must be safe to call after a batch whose outcome is
   * unknown: the store's single calls are, since they re-check the records.
   */
  readonly single: (item: I) => Promise<O>;
  /** Most items per batch. */
  readonly maxBatch: number;
  /** Batches written at once; further items wait for one of them to finish. */
  readonly maxInFlight: number;
}

interface Pending<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (reason: unknown) => void;
}

export class Coalescer<I, O> {
  readonly #options: CoalescerOptions<I, O>;
  #queue: Pending<I, O>[] = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(options: CoalescerOptions<I, O>) {
    this.#options = {
      ...options,
      maxBatch: Math.max(1, options.maxBatch),
      maxInFlight: Math.max(1, options.maxInFlight),
    };
  }

  /** Resolves with the item's own result once the batch that carried it is written. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      // A microtask, not now: every caller woken by the same event (one analytics answer wakes
      // all the digests that asked its question) submits before the batch is cut.
      if (!this.#scheduled) {
        this.#scheduled = true;
        queueMicrotask(() => {
          this.#scheduled = false;
          this.#pump();
        });
      }
    });
  }

  #pump(): void {
    while (this.#inFlight < this.#options.maxInFlight && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#options.maxBatch);
      this.#inFlight++;
      void this.#write(batch).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
  }

  async #write(batch: readonly Pending<I, O>[]): Promise<void> {
    let results: O[];
    try {
      results = await this.#options.run(batch.map((pending) => pending.item));
      if (results.length !== batch.length) {
        // Not an AppError: caught just below, where the batch falls back to one item at a time.
        throw new Error(`a batch of ${batch.length} returned ${results.length} results`);
      }
    } catch {
      await Promise.all(
        batch.map((pending) =>
          this.#options.single(pending.item).then(pending.resolve, pending.reject),
        ),
      );
      return;
    }
    batch.forEach((pending, i) => {
      pending.resolve(results[i] as O);
    });
  }
}
