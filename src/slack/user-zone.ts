import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.ts';

export interface UserZone {
  /** IANA zone from the Slack profile, or `UTC` when it could not be read in time. */
  readonly zone: string;
  /** True when `zone` is the UTC fallback rather than the person's own zone. */
  readonly fallback: boolean;
}

export interface UserZonesOptions {
  readonly logger: Logger;
  /** How long a caller waits for users.info before using UTC; the lookup continues in the background. */
  readonly waitMs: number;
  /** Profile zones rarely change; an hour keeps Tier 4 users.info calls rare. */
  readonly ttlMs?: number;
  readonly max?: number;
}

const defaultZoneTtlMs = 3_600_000;

/**
 * The person's Slack profile zone, so "yesterday" means their yesterday. The ack must not wait for
 * Slack's API longer than a bounded moment: past `waitMs` the caller gets UTC (and says so), while
 * the call finishes in the background and fills the cache for the next request.
 */
export class UserZones {
  readonly #cache: LRUCache<string, string>;
  readonly #pending = new Map<string, Promise<string | undefined>>();
  readonly #logger: Logger;
  readonly #waitMs: number;

  constructor(options: UserZonesOptions) {
    this.#logger = options.logger;
    this.#waitMs = options.waitMs;
    this.#cache = new LRUCache({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? defaultZoneTtlMs,
    });
  }

  async zoneOf(client: WebClient, userId: string): Promise<UserZone> {
    const cached = this.#cache.get(userId);
    if (cached !== undefined) return { zone: cached, fallback: false };

    let lookup = this.#pending.get(userId);
    if (lookup === undefined) {
      lookup = this.#fetch(client, userId);
      this.#pending.set(userId, lookup);
      void lookup.finally(() => this.#pending.delete(userId));
    }
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.#waitMs);
    });
    const zone = await Promise.race([lookup, expired]);
    clearTimeout(timer);
    return zone === undefined ? { zone: 'UTC', fallback: true } : { zone, fallback: false };
  }

  async #fetch(client: WebClient, userId: string): Promise<string | undefined> {
    try {
      const result = await client.users.info({ user: userId });
      const zone = result.user?.tz;
      if (typeof zone === 'string' && zone !== '' && isKnownZone(zone)) {
        this.#cache.set(userId, zone);
        return zone;
      }
      this.#logger.warn({ userId, zone }, 'users.info gave no usable time zone; using UTC');
    } catch (error) {
      this.#logger.warn({ err: error, userId }, 'users.info failed; using UTC');
    }
    return undefined;
  }
}

function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
