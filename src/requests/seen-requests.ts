import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.ts';
import type { SightingRepository } from '../store/sightings.ts';
import { timedOut, within } from '../time/within.ts';

/**
 * A signature is remembered for as long as its timestamp can be accepted: from five minutes before
 * it to five minutes after it, whenever it was first seen.
 */
export const signatureTtlMs = 10 * 60_000;
/** Slack redelivers an event three times within about five minutes; an hour covers them all. */
export const eventTtlMs = 60 * 60_000;
/**
 * A workflow step's run is finished once, whichever event or instance brings it: its id is kept
 * as long as an event's, which covers every redelivery.
 */
export const executionTtlMs = eventTtlMs;
/**
 * How long a request's work waits for the store before it goes on anyway: a slow database must not
 * hold up every answer, nor the ack of a modal's submission (which waits for it) past Slack's
 * 3 seconds.
 */
export const sightingWaitMs = 500;
/**
 * Signatures this instance keeps in memory to refuse a replay without asking the store. Slack sends
 * an app a few requests a second; ten thousand cover the ten-minute window at fifteen a second. A
 * signature pushed out sooner is still refused by the store, only later (after its ack).
 */
export const recentSignaturesMax = 10_000;

export interface SeenRequestsOptions {
  /** The database's sightings, open by the time the app listens. */
  readonly sightings: () => SightingRepository;
  readonly logger: Logger;
  readonly now?: () => Date;
  /** How long a request waits for the store; default {@link sightingWaitMs} (tests hold it longer). */
  readonly waitMs?: number;
}

/**
 * What the app has already handled, across every instance sharing the digest store: request
 * signatures, so a captured request replayed inside the timestamp window runs nothing (answered at
 * once from this instance's memory, then by the store for every instance), event ids,
 * so each of Slack's redeliveries of an event is answered once whichever instance it reaches, and
 * workflow step runs, so each ends once.
 * When the store fails or is slow, a request counts as new: a replay needs a signed request to have
 * leaked, while refusing everything during a database hiccup would fail every person at once.
 */
export class SeenRequests {
  readonly #options: SeenRequestsOptions;
  readonly #recentSignatures = new LRUCache<string, true>({
    max: recentSignaturesMax,
    ttl: signatureTtlMs,
  });

  constructor(options: SeenRequestsOptions) {
    this.#options = options;
  }

  /**
   * A request signature's sighting in two steps, so that an ack need not wait for the store.
   * Undefined, decided at once, when this instance has seen the signature. Otherwise whether no
   * instance has: the store is asked on the next turn of the event loop, once the ack has left
   * (SQLite runs its statements on this thread), and its answer comes within
   * {@link sightingWaitMs}. Work with side effects waits for that answer; the promise never rejects.
   */
  sightSignature(signature: string): Promise<boolean> | undefined {
    if (this.#recentSignatures.has(signature)) return undefined;
    this.#recentSignatures.set(signature, true);
    const now = this.#now();
    return new Promise((resolve) => {
      setImmediate(() => resolve(this.#first(`signature:${signature}`, signatureTtlMs, now)));
    });
  }

  /** True the first time a request signature is seen, here or by any instance. */
  firstSignature(signature: string): Promise<boolean> {
    return this.sightSignature(signature) ?? Promise.resolve(false);
  }

  /** True the first time an event id is seen; an event without one is always new. */
  async firstEvent(eventId: string | undefined): Promise<boolean> {
    return eventId === undefined ? true : this.#first(`event:${eventId}`, eventTtlMs);
  }

  /**
   * True the first time a workflow step's run (`function_execution_id`) is seen, under whatever
   * event id it arrives; a run without an id is always new.
   */
  async firstExecution(executionId: string | undefined): Promise<boolean> {
    return executionId === undefined
      ? true
      : this.#first(`execution:${executionId}`, executionTtlMs);
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }

  async #first(key: string, ttlMs: number, now = this.#now()): Promise<boolean> {
    const waitMs = this.#options.waitMs ?? sightingWaitMs;
    try {
      const first = await within(this.#options.sightings().firstSighting(key, now, ttlMs), waitMs);
      if (first !== timedOut) return first;
      this.#options.logger.warn(
        { waitMs },
        'the store was too slow to check a request for a repeat',
      );
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'could not check a request for a repeat');
    }
    return true;
  }
}
