/**
 * Bolt's HTTP receiver, with each request's work held until the store every instance shares says
 * whether the request is new. The front door refuses a signature this instance has seen, from
 * memory, and hands every other request on with its sighting under way (`firstSighting`); an ack
 * never waits for the store. A request replayed to another instance is then acked there, and does
 * nothing:
 * - A request is dispatched at once, and its ack leaves at once; the ack then returns to its
 *   caller only once the store has answered (within its bounded wait: a slow or failing store
 *   counts the request as new). For a request another instance has handled, it throws
 *   {@link ReplayedRequestError} instead, so nothing after any listener's ack runs: no post, no DM, no
 *   digest or conference created. Bolt acks an event itself before any middleware, so an event's
 *   listeners never start.
 * - A modal's submission is dispatched only once the store has answered: its listener may write
 *   before it acks (an edit is saved, and its outcome is the ack). A replayed one is acked empty.
 * This is the one place the wait happens, so no listener can forget it; every listener acks before
 * its side effects.
 */
import type { IncomingMessage } from 'node:http';
import { type App, HTTPReceiver, type HTTPReceiverOptions, type ReceiverEvent } from '@slack/bolt';
import type { Logger } from '../../logger.ts';

/** A request the front door passed, with its body read and its sighting under way. */
export interface SightedRequest extends IncomingMessage {
  /** Where Bolt's receiver looks for a body already read. */
  rawBody?: Buffer;
  /** True unless another instance has handled the request; never rejects. */
  firstSighting?: Promise<boolean>;
}

/**
 * Thrown by a replayed request's ack, after the ack has left, so that nothing after it runs. The
 * receiver logs the replay once; the app's error handler ignores this.
 */
// Not an AppError: a signal that ends a replayed request's listener after its ack, never a failure.
export class ReplayedRequestError extends Error {
  constructor() {
    super('another instance has handled this request');
    this.name = 'ReplayedRequestError';
  }
}

export interface SightedReceiverOptions extends HTTPReceiverOptions {
  /** Holds each request's wait for its sighting, so shutdown lets it end. */
  readonly track: (work: Promise<unknown>) => void;
  readonly log: Logger;
}

/** Bolt names the payload of a modal's submission so. */
function isViewSubmission(body: ReceiverEvent['body']): boolean {
  return body.type === 'view_submission';
}

export class SightedReceiver extends HTTPReceiver {
  readonly #track: (work: Promise<unknown>) => void;
  readonly #log: Logger;

  constructor({ track, log, ...options }: SightedReceiverOptions) {
    super({
      ...options,
      customPropertiesExtractor: (req) => {
        const sighting = (req as SightedRequest).firstSighting;
        return sighting === undefined ? {} : { firstSighting: sighting };
      },
    });
    this.#track = track;
    this.#log = log;
  }

  override init(app: App): void {
    // The receiver asks nothing of the app but to process its events.
    const gated = { processEvent: (event: ReceiverEvent) => this.#process(app, event) };
    super.init(gated as unknown as App);
  }

  async #process(app: App, event: ReceiverEvent): Promise<void> {
    const sighting = event.customProperties?.firstSighting as Promise<boolean> | undefined;
    if (sighting === undefined) {
      await app.processEvent(event);
      return;
    }
    this.#track(sighting);
    if (isViewSubmission(event.body)) {
      if (await sighting) await app.processEvent(event);
      else {
        this.#replayed();
        await event.ack();
      }
      return;
    }
    const ack = event.ack;
    const gated: ReceiverEvent = {
      ...event,
      ack: async (response) => {
        await ack(response);
        if (await sighting) return;
        this.#replayed();
        throw new ReplayedRequestError();
      },
    };
    try {
      await app.processEvent(gated);
    } catch (error) {
      // Bolt's own ack of an event throws out of processEvent; a listener's goes to app.error.
      if (!(error instanceof ReplayedRequestError)) throw error;
    }
  }

  #replayed(): void {
    this.#log.warn('did nothing for a request another instance had handled (a replay)');
  }
}
