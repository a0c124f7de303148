import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';

/** What the app reads from a person's `users.info`. */
export interface SlackUserFacts {
  /** IANA zone of the Slack profile, when it has one. */
  readonly tz: string | undefined;
  /** Workspace admin or owner: may change anyone's digests. */
  readonly isAdmin: boolean;
  /** The name people see in Slack, for lines like "created by Jane". */
  readonly displayName: string | undefined;
  /** The Slack locale (`en-GB`, `en-US`): the order the person writes numeric dates in. */
  readonly locale: string | undefined;
}

/**
 * How long a person's facts are reused. Zones and names rarely change; admin rights occasionally,
 * and this also bounds how long a revoked admin keeps rights over others' digests.
 */
export const userFactsTtlMs = 10 * 60_000;

export interface UserDirectoryOptions {
  readonly ttlMs?: number;
  readonly max?: number;
}

/**
 * One cache of `users.info` (a Tier 4 method) for everything that needs a person's zone, rights or
 * name, with one call in flight per person. Failures are not cached: each caller picks its own
 * fallback (UTC, "not an admin", the bare mention).
 */
export class UserDirectory {
  readonly #cache: LRUCache<string, SlackUserFacts>;
  readonly #pending = new Map<string, Promise<SlackUserFacts>>();

  constructor(options: UserDirectoryOptions = {}) {
    this.#cache = new LRUCache({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? userFactsTtlMs,
    });
  }

  /** The person's facts; rejects with Slack's error when users.info fails. */
  get(client: WebClient, userId: string): Promise<SlackUserFacts> {
    const cached = this.#cache.get(userId);
    if (cached !== undefined) return Promise.resolve(cached);
    let pending = this.#pending.get(userId);
    if (pending === undefined) {
      pending = this.#fetch(client, userId).finally(() => this.#pending.delete(userId));
      this.#pending.set(userId, pending);
    }
    return pending;
  }

  async #fetch(client: WebClient, userId: string): Promise<SlackUserFacts> {
    const { user } = await client.users.info({ user: userId, include_locale: true });
    const facts = factsOf(user);
    this.#cache.set(userId, facts);
    return facts;
  }
}

interface UserShape {
  readonly tz?: string | undefined;
  readonly is_admin?: boolean | undefined;
  readonly is_owner?: boolean | undefined;
  readonly is_primary_owner?: boolean | undefined;
  readonly real_name?: string | undefined;
  readonly name?: string | undefined;
  readonly locale?: string | undefined;
  readonly profile?: {
    readonly display_name?: string | undefined;
    readonly real_name?: string | undefined;
  };
}

/** Slack's user object reduced to what the app uses; empty strings count as missing. */
export function factsOf(user: UserShape | undefined): SlackUserFacts {
  const nonEmpty = (value: string | undefined) =>
    value !== undefined && value.trim() !== '' ? value.trim() : undefined;
  return {
    tz: nonEmpty(user?.tz),
    isAdmin: user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true,
    displayName:
      nonEmpty(user?.profile?.display_name) ??
      nonEmpty(user?.profile?.real_name) ??
      nonEmpty(user?.real_name) ??
      nonEmpty(user?.name),
    locale: nonEmpty(user?.locale),
  };
}

/**
 * A person's display name for messages that mention who did something, without pinging them with
 * an `<@U…>` mention each time; undefined when Slack cannot say (the caller falls back).
 */
export function displayNames(
  directory: UserDirectory,
  client: WebClient,
): (userId: string) => Promise<string | undefined> {
  return async (userId) => {
    try {
      return (await directory.get(client, userId)).displayName;
    } catch {
      return undefined;
    }
  };
}
