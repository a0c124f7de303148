/**
 * Identical lookups cost the service one request: callers asking at once share the call in
 * flight, and a repeat within a short while is answered from memory. Each caller still waits
 * within its own deadline and signal, and the call is stopped only once nobody is waiting for it.
 */
import { LRUCache } from 'lru-cache';
import { TimeoutError } from '../errors.ts';
import { CallStoppedError } from './transport.ts';

/** What the work behind a shared call may read of it. */
export interface SharedCallBudget {
  /** Aborts when the last waiter leaves or the client closes. */
  readonly signal: AbortSignal;
  /** Latest deadline among the callers waiting (monotonic ms): the budget for waits and retries. */
  readonly deadlineAt: number;
}

/** Starts the one operation behind a shared call. */
export type SharedWork<T> = (call: SharedCallBudget) => Promise<T>;

export interface SharedCallsOptions {
  /** How long an answer is reused; 0 disables the cache. */
  readonly cacheTtlMs: number;
  readonly cacheMax: number;
  /** Wall clock the cache TTL is measured on. */
  readonly now: () => number;
  /** Clock deadlines are measured on. */
  readonly monotonicNow: () => number;
}

/** One operation shared by every concurrent caller of the same key. */
class SharedCall<T> implements SharedCallBudget {
  readonly controller = new AbortController();
  deadlineAt: number;
  waiters = 0;
  settled = false;
  promise!: Promise<T>;

  constructor(deadlineAt: number) {
    this.deadlineAt = deadlineAt;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  join(deadlineAt: number): void {
    this.waiters += 1;
    if (deadlineAt > this.deadlineAt) this.deadlineAt = deadlineAt;
  }

  /** The last caller to leave before the answer stops the work: nobody would read it. */
  leave(): void {
    this.waiters -= 1;
    if (this.waiters === 0 && !this.settled)
      this.controller.abort(new CallStoppedError('abandoned'));
  }
}

/**
 * The calls in flight and the recent answers, by key. A key must be equal exactly for requests the
 * service answers identically. Failures are never cached.
 */
export class SharedCalls<T extends {}> {
  readonly #inFlight = new Map<string, SharedCall<T>>();
  readonly #answers: LRUCache<string, T> | undefined;
  readonly #monotonicNow: () => number;
  #cacheHits = 0;
  #joins = 0;

  constructor(options: SharedCallsOptions) {
    this.#monotonicNow = options.monotonicNow;
    if (options.cacheTtlMs > 0) {
      const { now } = options;
      this.#answers = new LRUCache<string, T>({
        max: options.cacheMax,
        ttl: options.cacheTtlMs,
        ttlResolution: 0,
        perf: { now },
      });
    }
  }

  /** Calls answered from the cache. */
  get cacheHits(): number {
    return this.#cacheHits;
  }

  /** Calls that joined an identical call already in flight. */
  get joins(): number {
    return this.#joins;
  }

  /**
   * The answer for `key` while it is fresh. Looked up before anything else so a repeat costs no
   * timer, no promise and no deadline bookkeeping.
   */
  cached(key: string): T | undefined {
    const cached = this.#answers?.get(key);
    if (cached !== undefined) this.#cacheHits += 1;
    return cached;
  }

  /**
   * Waits for the call in flight for `key`, starting `work` when there is none. Rejects with
   * TimeoutError('deadline') when this caller's deadline passes or its signal aborts, whatever the
   * shared call is doing.
   */
  share(
    key: string,
    deadlineMs: number,
    signal: AbortSignal | undefined,
    work: SharedWork<T>,
  ): Promise<T> {
    const started = this.#monotonicNow();
    const deadlineAt = started + deadlineMs;
    let call = this.#inFlight.get(key);
    // A call every waiter left is being torn down: joining it would only inherit its cancellation.
    if (call?.controller.signal.aborted) call = undefined;
    if (call) {
      this.#joins += 1;
    } else {
      call = this.#start(key, deadlineAt, work);
    }
    call.join(deadlineAt);
    return awaitWithin(call, started, deadlineMs, signal, this.#monotonicNow);
  }

  /** Stops every call in flight and forgets every answer: the client is closing. */
  close(): void {
    for (const call of this.#inFlight.values())
      call.controller.abort(new CallStoppedError('closed'));
    this.#inFlight.clear();
    this.#answers?.clear();
  }

  #start(key: string, deadlineAt: number, work: SharedWork<T>): SharedCall<T> {
    const call = new SharedCall<T>(deadlineAt);
    this.#inFlight.set(key, call);
    call.promise = work(call).then(
      (result) => {
        call.settled = true;
        if (this.#inFlight.get(key) === call) this.#inFlight.delete(key);
        this.#answers?.set(key, result);
        return result;
      },
      (error: unknown) => {
        call.settled = true;
        if (this.#inFlight.get(key) === call) this.#inFlight.delete(key);
        throw error;
      },
    );
    // Every waiter may have left already; the rejection must not surface as unhandled.
    call.promise.catch(() => {});
    return call;
  }
}

/**
 * Waits for a shared call within this caller's own deadline and signal; the time a cancelled
 * caller waited is read on the monotonic clock, as every other duration is.
 */
function awaitWithin<T>(
  call: SharedCall<T>,
  started: number,
  deadlineMs: number,
  signal: AbortSignal | undefined,
  monotonicNow: () => number,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      call.leave();
      settle();
    };
    const onAbort = (): void =>
      finish(() =>
        reject(
          new TimeoutError('deadline', Math.round(monotonicNow() - started), {
            cause: signal?.reason,
          }),
        ),
      );
    const timer = setTimeout(
      () => finish(() => reject(new TimeoutError('deadline', deadlineMs))),
      deadlineMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    call.promise.then(
      (result) => finish(() => resolve(result)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
