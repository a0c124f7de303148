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
 * How long a request waits for the store before it is handled anyway: the ack must leave within
 * Slack's 3 seconds, and a slow database must not turn every command into a timeout.
 */
export const sightingWaitMs = 500;

export interface SeenRequestsOptions {
  /** The database's sightings, open by the time the app listens. */
  readonly sightings: () => SightingRepository;
  readonly logger: Logger;
  readonly now?: () => Date;
}

/**
 * What the app has already handled, across every instance sharing the digest store: request
 * signatures, so a captured request replayed inside the timestamp window runs nothing, event ids,
 * so each of Slack's redeliveries of an event is answered once whichever instance it reaches, and
 * workflow step runs, so each ends once.
 * When the store fails or is slow, a request counts as new: a replay needs a signed request to have
 * leaked, while refusing everything during a database hiccup would fail every person at once.
 */
export class SeenRequests {
  readonly #options: SeenRequestsOptions;

  constructor(options: SeenRequestsOptions) {
    this.#options = options;
  }

  /** True the first time a request signature is seen. */
  firstSignature(signature: string): Promise<boolean> {
    return this.#first(`signature:${signature}`, signatureTtlMs);
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

  async #first(key: string, ttlMs: number): Promise<boolean> {
    const now = this.#options.now?.() ?? new Date();
    try {
      const first = await within(
        this.#options.sightings().firstSighting(key, now, ttlMs),
        sightingWaitMs,
      );
      if (first !== timedOut) return first;
      this.#options.logger.warn(
        { waitMs: sightingWaitMs },
        'the store was too slow to check a request for a repeat',
      );
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'could not check a request for a repeat');
    }
    return true;
  }
}
