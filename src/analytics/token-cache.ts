import { LRUCache } from 'lru-cache';

/** What one token exchange produced. */
export interface IssuedToken {
  readonly accessToken: string;
  /** Lifetime the service announced (`expires_in`), in ms. */
  readonly lifetimeMs: number;
}

export interface TokenCacheOptions {
  /** Performs one token exchange; called by at most one caller at a time. */
  readonly fetchToken: () => Promise<IssuedToken>;
  /**
   * How long before the announced expiry a token stops being reused, so a request does not leave
   * with a token that expires on the way. Capped at half the token's lifetime, so a short-lived
   * token is still reused for a while rather than exchanged on every call.
   */
  readonly tokenExpirySkewMs: number;
  /** Wall clock in ms; injectable so tests can move time. */
  readonly now: () => number;
}

const tokenKey = 'access-token';

/**
 * Holds the one access token the client uses and makes sure it is exchanged once per lifetime:
 * reused until `expires_in - skew`, and however many callers find it missing or expired at once,
 * exactly one exchange is in flight and they all await it. A failed exchange leaves nothing
 * behind, so the next caller starts a fresh one.
 */
export class TokenCache {
  readonly #fetchToken: () => Promise<IssuedToken>;
  readonly #tokenExpirySkewMs: number;
  readonly #cache: LRUCache<string, string>;
  #pending: Promise<string> | undefined;

  constructor(options: TokenCacheOptions) {
    this.#fetchToken = options.fetchToken;
    this.#tokenExpirySkewMs = options.tokenExpirySkewMs;
    const { now } = options;
    // ttlResolution 0: read the injected clock on every lookup instead of memoising it for 1 ms.
    this.#cache = new LRUCache<string, string>({ max: 1, ttlResolution: 0, perf: { now } });
  }

  /** The cached token if it is still within its reuse window, without starting an exchange. */
  peek(): string | undefined {
    return this.#cache.get(tokenKey);
  }

  /** A token valid for a while yet: the cached one, or the result of the single exchange. */
  get(): Promise<string> {
    const cached = this.#cache.get(tokenKey);
    if (cached !== undefined) return Promise.resolve(cached);
    if (this.#pending !== undefined) return this.#pending;
    const pending = this.#exchange();
    this.#pending = pending;
    const clear = (): void => {
      if (this.#pending === pending) this.#pending = undefined;
    };
    pending.then(clear, clear);
    return pending;
  }

  /**
   * Forgets `token` after the service refused it. A token that is no longer the cached one (a
   * concurrent caller already replaced it) is left alone, so a late 401 cannot throw away a fresh
   * token.
   */
  invalidate(token: string): void {
    if (this.#cache.peek(tokenKey) === token) this.#cache.delete(tokenKey);
  }

  clear(): void {
    this.#cache.clear();
  }

  async #exchange(): Promise<string> {
    const issued = await this.#fetchToken();
    const skewMs = Math.min(this.#tokenExpirySkewMs, issued.lifetimeMs / 2);
    const reuseMs = Math.floor(issued.lifetimeMs - skewMs);
    if (reuseMs > 0) this.#cache.set(tokenKey, issued.accessToken, { ttl: reuseMs });
    return issued.accessToken;
  }
}
