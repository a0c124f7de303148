import { LRUCache } from 'lru-cache';

/**
 * Event ids already handled. Slack redelivers an event it thinks was not acknowledged (with
 * `x-slack-retry-num`); remembering ids for an hour answers each one once.
 */
export class SeenEvents {
  readonly #ids = new LRUCache<string, true>({ max: 50_000, ttl: 3_600_000 });

  /** True the first time an id is seen; false for every redelivery. */
  firstTime(eventId: string | undefined): boolean {
    if (eventId === undefined) return true;
    if (this.#ids.has(eventId)) return false;
    this.#ids.set(eventId, true);
    return true;
  }
}
