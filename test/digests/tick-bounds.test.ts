/**
 * What a tick holds is bounded by its options, not by how many digests are due: the digests it
 * has claimed and not finished, and the answers it keeps for the digests still to come.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { withRepositories } from '../helpers/repositories.ts';
import { describeEachStore, digestInput, influencers } from './helpers.ts';

const slot = new Date('2026-06-08T08:00:00Z');

/**
 * The database, recording the digests claimed and not yet finished (completed, skipped or given
 * back) after each call, and how many claims were started.
 */
function recording(store: Database) {
  const unfinished = new Set<string>();
  const seen = { most: 0, claims: 0, claiming: 0 };
  const finishing = new Set(['complete', 'recordSkipped', 'releaseLease']);
  const handler = <T extends object>(): ProxyHandler<T> => ({
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'claimDue') {
        return async (...args: Parameters<Database['digests']['claimDue']>) => {
          seen.claims++;
          seen.claiming++;
          try {
            const claims = await store.digests.claimDue(...args);
            for (const claim of claims) unfinished.add(claim.digest.id);
            seen.most = Math.max(seen.most, unfinished.size);
            return claims;
          } finally {
            seen.claiming--;
          }
        };
      }
      if (property === 'completeMany') {
        return async (items: Parameters<Database['runs']['completeMany']>[0]) => {
          await store.runs.completeMany(items);
          for (const item of items) unfinished.delete(item.digestId);
        };
      }
      if (typeof property === 'string' && finishing.has(property)) {
        return async (digestId: string, ...rest: unknown[]) => {
          const result: unknown = await value.call(target, digestId, ...rest);
          unfinished.delete(digestId);
          return result;
        };
      }
      return value.bind(target);
    },
  });
  const digests = new Proxy(store.digests, handler());
  const runs = new Proxy(store.runs, handler());
  return { store: withRepositories(store, { digests, runs }), seen };
}

/**
 * Resolves once the runner has started no claim for a few turns of the event loop and has none
 * in flight: a runner that claims every due digest before it answers any never lets this happen
 * until it claimed them all.
 */
async function claimsPaused(seen: { claims: number; claiming: number }): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    const before = seen.claims;
    await turn();
    quiet = seen.claims === before && seen.claiming === 0 ? quiet + 1 : 0;
  }
}

describeEachStore('DigestRunner tick bounds', '2026-06-08T08:00:20Z', (world) => {
  it('holds at most `maxClaimed` digests claimed and unfinished, however many are due', async () => {
    const { db, clock, analytics, poster } = world();
    const due = 150;
    for (let i = 0; i < due; i++) {
      await db.store.digests.create(
        digestInput({ channelId: `C${i}`, top: 1 + (i % 15), nextRunAt: slot }),
        clock.now(),
      );
    }
    const { store, seen } = recording(db.store);
    analytics.answer = async () => {
      await claimsPaused(seen);
      return influencers('alice', 'bob');
    };
    const runner = world().runner({
      db: store,
      options: { maxClaimed: 20, claimBatchSize: 10, channelIntervalMs: 0 },
    });
    expect(await runner.runDue(clock.now())).toMatchObject({
      claimed: due,
      posted: due,
      analyticsCalls: 15,
    });
    expect(seen.most).toBeLessThanOrEqual(20);
    expect(new Set(poster.posts.map((post) => post.channelId)).size).toBe(due);
    expect(poster.posts).toHaveLength(due);
  });

  it('asks each question once while keeping the answers of two claim batches, its digests claimed together', async () => {
    const { db, clock, analytics, poster } = world();
    const databases = ['#hcsm', '#bcsm', '#lcsm', '#mcsm'];
    for (let i = 0; i < 96; i++) {
      await db.store.digests.create(
        digestInput({
          channelId: `C${i}`,
          databases: [databases[i % 4] ?? '#hcsm'],
          top: 1 + (i % 3),
          nextRunAt: slot,
        }),
        clock.now(),
      );
    }
    const runner = world().runner({
      // Raised to twice the claim batch, 6: a question's digests come in consecutive batches, so
      // between two of its asks come at most the other questions of two batches (2 x 3 - 2).
      options: { answersKept: 1, maxClaimed: 9, claimBatchSize: 3, channelIntervalMs: 0 },
    });
    expect(await runner.runDue(clock.now())).toMatchObject({ posted: 96, analyticsCalls: 12 });
    expect(analytics.calls).toHaveLength(12);
    expect(poster.posts).toHaveLength(96);
  });
});
