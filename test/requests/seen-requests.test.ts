import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import { eventTtlMs, SeenRequests, signatureTtlMs } from '../../src/requests/seen-requests.ts';
import { openDatabase } from '../../src/store/open.ts';

describe('SeenRequests', () => {
  it('answers true only the first time a signature or an event id is seen', async () => {
    const store = await openDatabase({ sqlitePath: ':memory:' });
    const seen = new SeenRequests({ sightings: () => store.sightings, logger: silentLogger });
    expect([
      await seen.firstSignature('v0=1'),
      await seen.firstSignature('v0=1'),
      await seen.firstEvent('Ev1'),
      await seen.firstEvent('Ev1'),
      await seen.firstEvent('v0=1'),
      await seen.firstEvent(undefined),
      await seen.firstEvent(undefined),
    ]).toEqual([true, false, true, false, true, true, true]);
    await store.close();
  });

  it('remembers a signature for its whole replay window and an event for an hour', async () => {
    const calls: number[] = [];
    const seen = new SeenRequests({
      sightings: () => ({
        firstSighting: async (_key, _now, ttlMs) => {
          calls.push(ttlMs);
          return true;
        },
      }),
      logger: silentLogger,
    });
    await seen.firstSignature('v0=1');
    await seen.firstEvent('Ev1');
    expect(calls).toEqual([signatureTtlMs, eventTtlMs]);
    expect(signatureTtlMs).toBe(10 * 60_000);
  });

  it('refuses a signature seen here from memory, and asks the store after this turn', async () => {
    const asked: string[] = [];
    const seen = new SeenRequests({
      sightings: () => ({
        firstSighting: async (key) => {
          asked.push(key);
          return false;
        },
      }),
      logger: silentLogger,
    });
    const sighting = seen.sightSignature('v0=1');
    expect(asked).toEqual([]);
    expect(seen.sightSignature('v0=1')).toBeUndefined();
    // Another instance saw it first: the store says so once asked.
    expect(await sighting).toBe(false);
    expect(asked).toEqual(['signature:v0=1']);
    expect(await seen.firstSignature('v0=1')).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('refuses a signature seen here even while the store fails', async () => {
    const seen = new SeenRequests({
      sightings: () => ({ firstSighting: () => Promise.reject(new Error('database unavailable')) }),
      logger: silentLogger,
    });
    expect([await seen.firstSignature('v0=1'), await seen.firstSignature('v0=1')]).toEqual([
      true,
      false,
    ]);
  });

  it.each([
    ['fails', () => Promise.reject(new Error('database unavailable'))],
    ['does not answer', () => new Promise<boolean>(() => {})],
  ])('counts a request as new when the store %s', async (_name, firstSighting) => {
    const seen = new SeenRequests({ sightings: () => ({ firstSighting }), logger: silentLogger });
    expect(await seen.firstSignature('v0=1')).toBe(true);
  });
});
