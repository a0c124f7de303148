import { describe, expect, it } from 'vitest';
import { type IssuedToken, TokenCache } from '../../src/analytics/token-cache.ts';
import { FakeClock } from './helpers.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function cacheWith(lifetimeMs = 3_600_000, skewMs = 60_000) {
  const clock = new FakeClock();
  let issued = 0;
  const cache = new TokenCache({
    fetchToken: async (): Promise<IssuedToken> => {
      issued += 1;
      return { accessToken: `token-${issued}`, lifetimeMs };
    },
    tokenExpirySkewMs: skewMs,
    now: clock.now,
  });
  return { cache, clock, issued: () => issued };
}

describe('TokenCache', () => {
  it('reuses the token until its lifetime minus the skew, then exchanges again', async () => {
    const { cache, clock, issued } = cacheWith();
    expect(await cache.get()).toBe('token-1');
    clock.advance(3_540_000);
    expect(await cache.get()).toBe('token-1');
    expect(cache.peek()).toBe('token-1');
    clock.advance(1);
    expect(cache.peek()).toBeUndefined();
    expect(await cache.get()).toBe('token-2');
    expect(issued()).toBe(2);
  });

  it('caps the skew at half the lifetime of a short-lived token', async () => {
    const { cache, clock } = cacheWith(30_000, 60_000);
    expect(await cache.get()).toBe('token-1');
    clock.advance(15_000);
    expect(await cache.get()).toBe('token-1');
    clock.advance(1);
    expect(await cache.get()).toBe('token-2');
  });

  it('runs one exchange for every caller that finds the cache cold', async () => {
    const clock = new FakeClock();
    const exchange = deferred<IssuedToken>();
    let calls = 0;
    const cache = new TokenCache({
      fetchToken: () => {
        calls += 1;
        return exchange.promise;
      },
      tokenExpirySkewMs: 60_000,
      now: clock.now,
    });
    const waiting = Array.from({ length: 100 }, () => cache.get());
    exchange.resolve({ accessToken: 'shared', lifetimeMs: 3_600_000 });
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['shared']));
    expect(calls).toBe(1);
  });

  it('does not keep a failed exchange: the next caller starts a fresh one', async () => {
    const clock = new FakeClock();
    const outcomes = [
      () => Promise.reject(new Error('503')),
      () => Promise.resolve({ accessToken: 'fresh', lifetimeMs: 3_600_000 }),
    ];
    let calls = 0;
    const cache = new TokenCache({
      fetchToken: () => {
        const next = outcomes[calls] ?? outcomes[1];
        calls += 1;
        return next?.() ?? Promise.reject(new Error('no outcome'));
      },
      tokenExpirySkewMs: 60_000,
      now: clock.now,
    });
    const first = await Promise.allSettled([cache.get(), cache.get()]);
    expect(first.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    expect(await cache.get()).toBe('fresh');
    expect(calls).toBe(2);
  });

  it('forgets a refused token only while it is still the cached one', async () => {
    const { cache, issued } = cacheWith();
    await cache.get();
    cache.invalidate('token-1');
    expect(await cache.get()).toBe('token-2');
    cache.invalidate('token-1');
    expect(await cache.get()).toBe('token-2');
    expect(issued()).toBe(2);
  });
});
