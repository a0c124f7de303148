/**
 * The part of the Database contract about following up on what a runner left behind: slots
 * whose post was never confirmed (who is told, who may post them again). `store.test.ts` runs it
 * per adapter, beside `storeContract`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DigestNotFoundError } from '../../src/errors.ts';
import type { Database } from '../../src/store/database.ts';
import { digestInput } from '../digests/helpers.ts';
import type { StoreFixture } from './store-contract.ts';

const slot = new Date('2026-06-08T08:00:00Z');
const claimedAt = new Date('2026-06-08T08:00:05Z');
const leaseMs = 5 * 60_000;
const lease = { limit: 50, leaseMs, owner: 'runner-a' };
const afterLease = new Date(claimedAt.getTime() + leaseMs + 60_000);
const oldEnough = (now: Date) => new Date(now.getTime() - leaseMs);

export function followUpContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract, following up: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Database;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    /** A digest whose runner claimed it, wrote its slot `posting` and died. */
    async function leftPosting(overrides = {}) {
      const digest = await store.digests.create(
        digestInput({ nextRunAt: slot, ...overrides }),
        claimedAt,
      );
      await store.digests.claimDue(claimedAt, { ...lease, limit: 1 });
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', claimedAt);
      return digest;
    }

    it('hands an unconfirmed slot to one caller once its runner’s lease ended, and never again', async () => {
      const digest = await leftPosting();
      const during = new Date(claimedAt.getTime() + leaseMs - 1_000);
      expect(await store.runs.takeUnconfirmed(during, new Date(during.getTime() + 1))).toEqual([]);
      const taken = await Promise.all([
        store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease)),
        store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease)),
      ]);
      expect(taken.flat()).toEqual([
        { digest: expect.objectContaining({ id: digest.id }), slot, startedAt: claimedAt },
      ]);
      expect(await store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease))).toEqual([]);
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'posting',
        noticedAt: afterLease,
      });
    });

    it('leaves a slot alone while a runner still holds the lease, and slots too recent', async () => {
      const digest = await leftPosting();
      await store.digests.renewLeases('runner-a', afterLease, leaseMs);
      expect(await store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease))).toEqual([]);
      await store.digests.releaseLease(digest.id, 'runner-a');
      expect(
        await store.runs.takeUnconfirmed(afterLease, new Date(claimedAt.getTime() - 1)),
      ).toEqual([]);
      expect(await store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease))).toHaveLength(1);
    });

    it('never hands out a posted, failed or skipped slot', async () => {
      const digest = await leftPosting();
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'posted',
        at: claimedAt,
        messageTs: '1.1',
      });
      expect(await store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease))).toEqual([]);
    });

    it('gives a slot back for a creator not told yet', async () => {
      const digest = await leftPosting();
      expect(await store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease))).toHaveLength(1);
      await store.runs.untakeUnconfirmed(digest.id, slot);
      const later = new Date(afterLease.getTime() + 30_000);
      expect(await store.runs.takeUnconfirmed(later, oldEnough(later))).toHaveLength(1);
    });

    it('lets one person post a told slot again, once; a certain failure lets them try again', async () => {
      const digest = await leftPosting();
      const retake = (owner: string, by: string) =>
        store.runs.retakeUnconfirmed(digest.id, slot, owner, by, afterLease);
      expect(await retake('runner-b:U1', 'U1')).toMatchObject({
        kind: 'already',
        delivery: { status: 'posting', owner: 'runner-a' },
      });
      await store.runs.takeUnconfirmed(afterLease, oldEnough(afterLease));
      const presses = await Promise.all([retake('runner-b:U1', 'U1'), retake('runner-c:U2', 'U2')]);
      expect(presses.filter((press) => press.kind === 'started')).toHaveLength(1);
      const winner = presses[0]?.kind === 'started' ? 'U1' : 'U2';
      const owner = winner === 'U1' ? 'runner-b:U1' : 'runner-c:U2';
      expect(presses.find((press) => press.kind === 'already')).toMatchObject({
        delivery: { status: 'posting', owner, repostBy: winner },
      });
      await store.runs.complete(digest.id, slot, {
        owner,
        outcome: 'failed',
        at: afterLease,
        errorCode: 'slack_rate_limited',
      });
      expect(await retake('runner-b:U1', 'U1')).toEqual({ kind: 'started' });
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-b:U1',
        outcome: 'posted',
        at: afterLease,
        messageTs: '2.2',
      });
      expect(await retake('runner-c:U2', 'U2')).toMatchObject({
        kind: 'already',
        delivery: { status: 'posted', messageTs: '2.2', repostBy: 'U1' },
      });
      expect((await store.digests.get(digest.id))?.lastRun).toMatchObject({
        slot,
        outcome: 'posted',
        messageTs: '2.2',
      });
    });

    it('lists the slots an outage skipped since it began, per digest, and no others', async () => {
      const since = new Date('2026-06-08T06:00:00Z');
      const outage = { kind: 'outage', cause: 'analytics_unavailable' } as const;
      const skip = (
        id: string,
        from: string,
        count: number,
        at: string,
        reason: Parameters<Database['runs']['recordSkipped']>[2]['reason'] = outage,
      ) =>
        store.runs.recordSkipped(id, new Date(from), {
          owner: 'runner-a',
          at: new Date(at),
          reason,
          count,
          nextRunAt: new Date('2026-07-01T08:00:00Z'),
        });
      const daily = {
        kind: 'cron',
        expression: '0 8 * * *',
        zone: 'UTC',
        cadence: 'daily',
      } as const;
      const a = await store.digests.create(
        digestInput({ schedule: daily, creatorId: 'U1' }),
        since,
      );
      const b = await store.digests.create(
        digestInput({ schedule: daily, channelId: 'C2' }),
        since,
      );
      const elsewhere = await store.digests.create(
        digestInput({ teamId: 'T2', schedule: daily }),
        since,
      );
      await skip(a.id, '2026-06-08T08:00:00Z', 2, '2026-06-09T09:00:00Z');
      await skip(a.id, '2026-06-10T08:00:00Z', 1, '2026-06-10T09:30:00Z');
      await skip(a.id, '2026-06-11T08:00:00Z', 1, '2026-06-11T09:00:00Z', { kind: 'missed' });
      await skip(b.id, '2026-06-07T08:00:00Z', 1, '2026-06-07T09:00:00Z');
      await skip(b.id, '2026-06-12T08:00:00Z', 1, '2026-06-12T09:00:00Z', { kind: 'unchanged' });
      await skip(elsewhere.id, '2026-06-08T08:00:00Z', 1, '2026-06-09T09:00:00Z');
      expect(await store.runs.outageSkips('T1', since)).toEqual([
        {
          digest: expect.objectContaining({ id: a.id, creatorId: 'U1' }),
          runs: [
            { from: new Date('2026-06-08T08:00:00Z'), count: 2 },
            { from: new Date('2026-06-10T08:00:00Z'), count: 1 },
          ],
        },
      ]);
      expect(await store.runs.outageSkips('T3', since)).toEqual([]);
    });

    it('says a removed digest’s slot is not found', async () => {
      const digest = await leftPosting();
      await store.digests.remove(digest.id);
      await expect(
        store.runs.retakeUnconfirmed(digest.id, slot, 'runner-b:U1', 'U1', afterLease),
      ).rejects.toBeInstanceOf(DigestNotFoundError);
    });
  });
}
