/**
 * The part of the Database contract about run history (one run per slot, written with the
 * slot's delivery record, newest first, the latest `runsKept` kept) and the people a digest
 * keeps. `store.test.ts` runs it per adapter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DigestRunDetails } from '../../src/model/digest-run.ts';
import type { Database } from '../../src/store/database.ts';
import { runsKept } from '../../src/store/runs.ts';
import { digestInput } from '../digests/helpers.ts';
import type { StoreFixture } from './store-contract.ts';

const slot = new Date('2026-06-08T08:00:00Z');
const now = new Date('2026-06-08T08:00:30Z');
const nextWeek = new Date('2026-06-15T08:00:00Z');
const lease = { limit: 50, leaseMs: 60_000, owner: 'runner-a' };
const weekMs = 7 * 24 * 3_600_000;

const details: DigestRunDetails = {
  window: { start: '2026-06-01T09:00:00+01:00', end: '2026-06-08T09:00:00+01:00' },
  metric: 'mentions',
  entries: [
    { rank: 1, handle: 'alice', name: 'Alice A', value: 120 },
    { rank: 2, handle: 'bob', value: 80 },
  ],
  entered: ['bob'],
  left: ['carol'],
};

export function runsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract, run history: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Database;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('records a posted run with its window and top N in the completion', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.digests.claimDue(now, lease);
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'posted',
        at: now,
        messageTs: '1.1',
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
        run: details,
      });
      expect(await store.runs.recent(digest.id, 12)).toEqual([
        { digestId: digest.id, slot, at: now, outcome: 'posted', ...details },
      ]);
    });

    it('keeps one run per slot: a failure retried and posted is one posted run', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.digests.claimDue(now, lease);
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'failed',
        at: now,
        errorCode: 'timeout',
        run: { window: details.window, entries: [], entered: [], left: [] },
      });
      expect(await store.runs.recent(digest.id, 12)).toMatchObject([
        { outcome: 'failed', errorCode: 'timeout', window: details.window, entries: [] },
      ]);
      await store.runs.beginDelivery(digest.id, slot, 'runner-b', now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-b',
        outcome: 'posted',
        at: now,
        messageTs: '1.2',
        run: details,
      });
      const runs = await store.runs.recent(digest.id, 12);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ outcome: 'posted', entered: ['bob'], left: ['carol'] });
      expect(runs[0]?.errorCode).toBeUndefined();
    });

    it('records nothing for a completion that may not write the slot (another runner posted it)', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-b',
        outcome: 'posted',
        at: now,
        messageTs: '9.9',
        run: details,
      });
      expect(await store.runs.recent(digest.id, 12)).toEqual([]);
    });

    it('records quiet runs with why, and missed slots without a ranking', async () => {
      const digest = await store.digests.create(digestInput({ postWhen: 'changed' }), now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'skipped',
        skipReason: { kind: 'unchanged' },
        at: now,
        run: details,
      });
      const later = new Date(slot.getTime() + weekMs);
      await store.runs.recordSkipped(digest.id, later, {
        owner: 'runner-a',
        at: later,
        reason: { kind: 'missed' },
        count: 1,
        nextRunAt: new Date(later.getTime() + weekMs),
      });
      expect(await store.runs.recent(digest.id, 12)).toMatchObject([
        { slot: later, outcome: 'skipped', skipReason: { kind: 'missed' }, entries: [] },
        { slot, outcome: 'skipped', skipReason: { kind: 'unchanged' }, entries: details.entries },
      ]);
    });

    it(`returns the newest first and keeps the latest ${runsKept}`, async () => {
      const digest = await store.digests.create(digestInput(), now);
      const slots = Array.from(
        { length: runsKept + 3 },
        (_, i) => new Date(slot.getTime() + i * weekMs),
      );
      await store.runs.completeMany(
        slots.map((each) => ({
          digestId: digest.id,
          slot: each,
          completion: { owner: 'runner-a', outcome: 'posted', at: each, run: details },
        })),
      );
      const runs = await store.runs.recent(digest.id, 100);
      expect(runs).toHaveLength(runsKept);
      expect(runs[0]?.slot).toEqual(slots.at(-1));
      expect(runs.at(-1)?.slot).toEqual(slots[3]);
      expect(await store.runs.recent(digest.id, 26)).toHaveLength(26);
    });

    it('keeps who a digest keeps and its ranking by followers, and edits them', async () => {
      const stakeholders = { include: ['Doctor'], exclude: ['Org. Pharma'] };
      const digest = await store.digests.create(
        digestInput({ stakeholders, orderBy: 'followers' }),
        now,
      );
      expect(await store.digests.get(digest.id)).toMatchObject({
        stakeholders,
        orderBy: 'followers',
      });
      const edited = await store.digests.update(
        digest.id,
        {
          schedule: digest.schedule,
          window: digest.window,
          top: digest.top,
          metric: undefined,
          presentation: 'list',
          postWhen: 'always',
        },
        now,
      );
      expect(edited.stakeholders).toBeUndefined();
      expect(edited.orderBy).toBeUndefined();
    });

    it('removes a digest’s runs with it', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'posted',
        at: now,
        run: details,
      });
      await store.digests.remove(digest.id);
      expect(await store.runs.recent(digest.id, 12)).toEqual([]);
    });
  });
}
