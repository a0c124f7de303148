/** The one Database contract every adapter must pass; `store.test.ts` runs it per adapter. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DigestNotFoundError } from '../../src/errors.ts';
import type { NewDigest } from '../../src/model/digest.ts';
import type { Database } from '../../src/store/database.ts';
import type { Completion } from '../../src/store/runs.ts';
import { digestInput } from '../digests/helpers.ts';

export interface StoreFixture {
  readonly store: Database;
  /** Another connection to the same database, when the adapter can have one (not `:memory:`). */
  readonly openSibling?: () => Promise<Database>;
  cleanup(): Promise<void>;
}

const now = new Date('2026-06-08T08:00:30Z');
const slot = new Date('2026-06-08T08:00:00Z');
const lease = { limit: 50, leaseMs: 60_000, owner: 'runner-a' };
const nextWeek = new Date('2026-06-15T08:00:00Z');
const archivedThrice = {
  kind: 'failures',
  failures: 3,
  code: 'channel_unreachable',
  detail: 'archived',
} as const;

function fail(): never {
  throw new Error('expected a digest');
}

/** Both adapters must have the batch forms; the interface leaves them optional for fakes. */
function batchOf(store: Database) {
  const { beginDeliveries, completeMany } = store.runs;
  if (!beginDeliveries || !completeMany) throw new Error(`${store.dialect} store lacks batches`);
  return {
    beginDeliveries: beginDeliveries.bind(store.runs),
    completeMany: completeMany.bind(store.runs),
  };
}

function posted(ts: string, extra: Partial<Completion> = {}): Completion {
  return {
    owner: 'runner-a',
    outcome: 'posted',
    at: now,
    messageTs: ts,
    nextRunAt: nextWeek,
    consecutiveFailures: 0,
    ...extra,
  };
}

export function storeContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Database;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('applies migrations once and reports nothing left on a second run', async () => {
      expect(await store.migrate()).toBe(0);
    });

    it('applies migrations once when two instances migrate at the same time', async () => {
      if (!fixture.openSibling) return;
      const others = await Promise.all([fixture.openSibling(), fixture.openSibling()]);
      const applied = await Promise.all(others.map((other) => other.migrate()));
      expect(applied).toEqual([0, 0]);
    });

    it('creates a digest with a six-character id and reads it back unchanged', async () => {
      const created = await store.digests.create(
        digestInput({
          databases: ['#hcsm', 'group:Oncology'],
          window: { kind: 'last', amount: 24, unit: 'hours' },
        }),
        now,
      );
      expect(created.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
      expect(created).toMatchObject({
        teamId: 'T1',
        channelId: 'C1',
        creatorId: 'U1',
        databases: ['#hcsm', 'group:Oncology'],
        schedule: {
          kind: 'cron',
          expression: '0 9 * * 1',
          zone: 'Europe/London',
          cadence: 'weekly',
        },
        window: { kind: 'last', amount: 24, unit: 'hours' },
        top: 5,
        status: 'active',
        consecutiveFailures: 0,
        nextRunAt: slot,
        createdAt: now,
        updatedAt: now,
      });
      expect(created.lastRun).toBeUndefined();
      expect(await store.digests.get(created.id)).toEqual(created);
      expect(await store.digests.get('ZZZZZZ')).toBeUndefined();
    });

    it('lists by channel and by creator within a team, oldest first', async () => {
      const a = await store.digests.create(digestInput({ channelId: 'C1', creatorId: 'U1' }), now);
      const b = await store.digests.create(
        digestInput({ channelId: 'C1', creatorId: 'U2' }),
        new Date(now.getTime() + 1000),
      );
      await store.digests.create(
        digestInput({ channelId: 'C2', creatorId: 'U1', teamId: 'T2' }),
        now,
      );
      expect((await store.digests.listByChannel('T1', 'C1')).map((d) => d.id)).toEqual([
        a.id,
        b.id,
      ]);
      expect((await store.digests.listByCreator('T1', 'U1')).map((d) => d.id)).toEqual([a.id]);
      expect(await store.digests.listByChannel('T1', 'C9')).toEqual([]);
    });

    it('pauses with a reason, resumes with a new next run, and removes', async () => {
      const digest = await store.digests.create(digestInput(), now);
      const reason = {
        kind: 'failures',
        failures: 3,
        code: 'channel_unreachable',
        detail: 'archived',
      } as const;
      const paused = await store.digests.pause(digest.id, now, reason);
      expect(paused).toMatchObject({ status: 'paused', pauseReason: reason });
      expect(await store.digests.get(digest.id)).toEqual(paused);
      const next = new Date('2026-06-15T08:00:00Z');
      const resumed = await store.digests.resume(digest.id, now, next);
      expect(resumed.status).toBe('active');
      expect(resumed.pauseReason).toBeUndefined();
      expect(resumed.nextRunAt).toEqual(next);
      expect(await store.digests.remove(digest.id)).toBe(true);
      expect(await store.digests.remove(digest.id)).toBe(false);
      await expect(store.digests.pause(digest.id, now)).rejects.toBeInstanceOf(DigestNotFoundError);
      await expect(store.digests.resume(digest.id, now, next)).rejects.toBeInstanceOf(
        DigestNotFoundError,
      );
    });

    it('claims active due digests oldest first, leases them, and honours the limit', async () => {
      const late = await store.digests.create(digestInput({ nextRunAt: slot }), now);
      const early = await store.digests.create(
        digestInput({ nextRunAt: new Date(slot.getTime() - 60_000) }),
        now,
      );
      await store.digests.create(digestInput({ nextRunAt: new Date(now.getTime() + 60_000) }), now);
      const paused = await store.digests.create(digestInput({ nextRunAt: slot }), now);
      await store.digests.pause(paused.id, now);

      const first = await store.digests.claimDue(now, { ...lease, limit: 1 });
      expect(first.map((c) => c.digest.id)).toEqual([early.id]);
      expect(first[0]?.slot).toEqual(early.nextRunAt);
      expect(first[0]?.leaseUntil).toEqual(new Date(now.getTime() + 60_000));
      const rest = await store.digests.claimDue(now, lease);
      expect(rest.map((c) => c.digest.id)).toEqual([late.id]);
      expect(await store.digests.claimDue(now, { ...lease, owner: 'runner-b' })).toEqual([]);
    });

    it('claims batch after batch in slot then id order, past the digests already leased', async () => {
      const created: { id: string; slot: number }[] = [];
      for (let i = 0; i < 30; i++) {
        const at = new Date(slot.getTime() - (i % 3) * 60_000);
        created.push({
          id: (await store.digests.create(digestInput({ nextRunAt: at }), now)).id,
          slot: +at,
        });
      }
      const expected = created
        .sort((a, b) => a.slot - b.slot || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((digest) => digest.id);
      const claimed: string[] = [];
      for (;;) {
        const batch = await store.digests.claimDue(now, { ...lease, limit: 7 });
        if (batch.length === 0) break;
        claimed.push(...batch.map((claim) => claim.digest.id));
      }
      expect(claimed).toEqual(expected);
    });

    it('claims the digests of one slot grouped by what makes their question, batch after batch', async () => {
      const daily = {
        ...digestInput().schedule,
        expression: '0 9 * * *',
        cadence: 'daily',
      } as const;
      const questions: Partial<NewDigest>[] = [
        {},
        { top: 10 },
        { databases: ['#bcsm'] },
        { databases: ['#hcsm', '#bcsm'] },
        { window: { kind: 'last', amount: 3, unit: 'days' } },
        { metric: 'impressions' },
        { schedule: daily },
      ];
      const earlier = new Date(slot.getTime() - 60_000);
      const questionOf = new Map<string, string>();
      // Created in an order that interleaves the questions and the two slots.
      for (let i = 0; i < 42; i++) {
        const nextRunAt = i % 2 === 0 ? slot : earlier;
        const question = (i * 5) % questions.length;
        const digest = await store.digests.create(
          digestInput({ ...questions[question], nextRunAt, channelId: `C${i}` }),
          now,
        );
        questionOf.set(digest.id, `${+nextRunAt} ${question}`);
      }
      // Each batch as a set: the order of the rows one claim returns is not the claim's order.
      const batchesOf = new Map<string, Set<number>>();
      for (let batches = 0; ; batches++) {
        const batch = await store.digests.claimDue(now, { ...lease, limit: 4 });
        if (batch.length === 0) break;
        for (const claim of batch) {
          const key = questionOf.get(claim.digest.id) ?? '?';
          batchesOf.set(key, (batchesOf.get(key) ?? new Set()).add(batches));
        }
      }
      expect(batchesOf.size).toBe(2 * questions.length);
      const spans = [...batchesOf].map(([key, batches]) => ({
        key,
        first: Math.min(...batches),
        last: Math.max(...batches),
        count: batches.size,
      }));
      // A question's digests come in consecutive batches, the earlier slot's before the other's.
      for (const span of spans) expect(span.last - span.first + 1, span.key).toBe(span.count);
      const earlierLast = Math.max(
        ...spans.filter((span) => span.key.startsWith(`${+earlier} `)).map((span) => span.last),
      );
      const laterFirst = Math.min(
        ...spans.filter((span) => span.key.startsWith(`${+slot} `)).map((span) => span.first),
      );
      expect(earlierLast).toBeLessThanOrEqual(laterFirst);
    });

    it('lets another runner claim once the lease has expired, and not before', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.digests.claimDue(now, lease);
      const beforeExpiry = new Date(now.getTime() + 59_999);
      expect(await store.digests.claimDue(beforeExpiry, { ...lease, owner: 'runner-b' })).toEqual(
        [],
      );
      const afterExpiry = new Date(now.getTime() + 60_000);
      const again = await store.digests.claimDue(afterExpiry, { ...lease, owner: 'runner-b' });
      expect(again.map((c) => c.digest.id)).toEqual([digest.id]);
    });

    it('never hands one digest to two concurrent claimers', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 40; i++) ids.add((await store.digests.create(digestInput(), now)).id);
      const claimers = [
        store,
        ...(fixture.openSibling
          ? [await fixture.openSibling(), await fixture.openSibling()]
          : [store, store]),
      ];
      const results = await Promise.all(
        claimers.flatMap((claimer, index) =>
          [0, 1, 2].map((round) =>
            claimer.digests.claimDue(now, {
              limit: 7,
              leaseMs: 60_000,
              owner: `runner-${index}-${round}`,
            }),
          ),
        ),
      );
      const claimed = results.flat().map((c) => c.digest.id);
      expect(claimed.length).toBe(new Set(claimed).size);
      expect(new Set(claimed)).toEqual(ids);
    });

    it('releases a lease only for its owner', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.digests.claimDue(now, lease);
      await store.digests.releaseLease(digest.id, 'someone-else');
      expect(await store.digests.claimDue(now, { ...lease, owner: 'runner-b' })).toEqual([]);
      await store.digests.releaseLease(digest.id, 'runner-a');
      expect((await store.digests.claimDue(now, { ...lease, owner: 'runner-b' })).length).toBe(1);
    });

    it('starts a delivery once: a second begin sees it posting', async () => {
      const digest = await store.digests.create(digestInput(), now);
      expect(await store.runs.beginDelivery(digest.id, slot, 'runner-a', now)).toEqual({
        kind: 'started',
      });
      const second = await store.runs.beginDelivery(digest.id, slot, 'runner-b', now);
      expect(second).toMatchObject({
        kind: 'already',
        delivery: { status: 'posting', owner: 'runner-a' },
      });
      expect(await store.runs.hasDelivered(digest.id, slot)).toBe(false);
    });

    it('completes a posted slot: record, last run, ranking, next run, lease released', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.digests.claimDue(now, lease);
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      const next = new Date('2026-06-15T08:00:00Z');
      const at = new Date(now.getTime() + 2000);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'posted',
        at,
        messageTs: '1700000000.000100',
        ranking: [{ screenName: 'alice', rank: 1 }],
        nextRunAt: next,
        consecutiveFailures: 0,
      });
      expect(await store.runs.hasDelivered(digest.id, slot)).toBe(true);
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'posted',
        messageTs: '1700000000.000100',
        finishedAt: at,
      });
      const after = await store.digests.get(digest.id);
      expect(after).toMatchObject({
        nextRunAt: next,
        lastRun: { slot, outcome: 'posted', at, messageTs: '1700000000.000100' },
        lastRanking: [{ screenName: 'alice', rank: 1 }],
      });
      expect(await store.runs.beginDelivery(digest.id, slot, 'runner-b', now)).toMatchObject({
        kind: 'already',
        delivery: { status: 'posted' },
      });
      // The lease went with the completion: the digest is claimable as soon as it is due again.
      expect((await store.digests.claimDue(next, { ...lease, owner: 'runner-b' })).length).toBe(1);
    });

    it('never moves a digest back nor downgrades a posted slot on a late completion', async () => {
      const digest = await store.digests.create(digestInput(), now);
      const next = new Date('2026-06-15T08:00:00Z');
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-b',
        outcome: 'unconfirmed',
        at: now,
        nextRunAt: next,
      });
      expect((await store.digests.get(digest.id))?.lastRun?.outcome).toBe('unconfirmed');
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'posted',
        at: now,
        messageTs: '1.2',
        nextRunAt: next,
      });
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-c',
        outcome: 'failed',
        at: now,
        errorCode: 'network',
        nextRunAt: next,
      });
      const after = await store.digests.get(digest.id);
      expect(after?.nextRunAt).toEqual(next);
      expect(after?.lastRun).toMatchObject({ outcome: 'posted', messageTs: '1.2' });
      expect(await store.runs.hasDelivered(digest.id, slot)).toBe(true);
    });

    it('records a failure, counts it, and pauses with the reason when asked', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'failed',
        at: now,
        errorCode: 'channel_unreachable',
        errorDetail: 'archived',
        consecutiveFailures: 3,
        pauseReason: archivedThrice,
        nextRunAt: new Date('2026-06-15T08:00:00Z'),
      });
      const after = await store.digests.get(digest.id);
      expect(after).toMatchObject({
        status: 'paused',
        pauseReason: archivedThrice,
        consecutiveFailures: 3,
        lastRun: { outcome: 'failed', errorCode: 'channel_unreachable', errorDetail: 'archived' },
      });
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'failed',
        errorCode: 'channel_unreachable',
        errorDetail: 'archived',
      });
      expect(await store.runs.beginDelivery(digest.id, slot, 'runner-b', now)).toEqual({
        kind: 'started',
      });
    });

    it('records skipped slots with their count and moves the digest on', async () => {
      const digest = await store.digests.create(
        digestInput({ nextRunAt: new Date('2026-05-18T08:00:00Z') }),
        now,
      );
      const next = new Date('2026-06-15T08:00:00Z');
      await store.runs.recordSkipped(digest.id, new Date('2026-05-18T08:00:00Z'), {
        owner: 'runner-a',
        reason: { kind: 'missed' },
        at: now,
        count: 4,
        nextRunAt: next,
      });
      expect(
        await store.runs.getDelivery(digest.id, new Date('2026-05-18T08:00:00Z')),
      ).toMatchObject({
        status: 'skipped',
        skippedCount: 4,
      });
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: next,
        lastRun: { slot: new Date('2026-05-18T08:00:00Z'), outcome: 'skipped', at: now },
      });
    });

    it('begins many deliveries at once with each result in input order', async () => {
      const { beginDeliveries } = batchOf(store);
      const [fresh, posting, failed, done] = await Promise.all(
        [1, 2, 3, 4].map((i) => store.digests.create(digestInput({ channelId: `C${i}` }), now)),
      );
      if (!fresh || !posting || !failed || !done) throw new Error('setup failed');
      await store.runs.beginDelivery(posting.id, slot, 'runner-b', now);
      await store.runs.complete(failed.id, slot, {
        owner: 'runner-b',
        outcome: 'failed',
        at: now,
        errorCode: 'network',
      });
      await store.runs.complete(done.id, slot, posted('1.5', { owner: 'runner-b' }));
      const later = new Date(now.getTime() + 5000);
      const results = await beginDeliveries(
        [fresh, posting, failed, done].map((digest) => ({
          digestId: digest.id,
          slot,
          owner: 'runner-a',
          now: later,
        })),
      );
      expect(results).toEqual([
        { kind: 'started' },
        {
          kind: 'already',
          delivery: expect.objectContaining({ status: 'posting', owner: 'runner-b' }),
        },
        { kind: 'started' },
        {
          kind: 'already',
          delivery: expect.objectContaining({ status: 'posted', messageTs: '1.5' }),
        },
      ]);
      for (const digest of [fresh, failed]) {
        expect(await store.runs.getDelivery(digest.id, slot)).toEqual({
          digestId: digest.id,
          slot,
          status: 'posting',
          owner: 'runner-a',
          startedAt: later,
        });
      }
      expect(await beginDeliveries([])).toEqual([]);
    });

    it('treats a slot repeated in one batch like two calls in a row', async () => {
      const { beginDeliveries } = batchOf(store);
      const digest = await store.digests.create(digestInput(), now);
      const start = { digestId: digest.id, slot, owner: 'runner-a', now };
      expect(await beginDeliveries([start, start])).toEqual([
        { kind: 'started' },
        { kind: 'already', delivery: expect.objectContaining({ status: 'posting' }) },
      ]);
    });

    it('writes nothing of a batch of begins when one item fails', async () => {
      const { beginDeliveries } = batchOf(store);
      const digest = await store.digests.create(digestInput(), now);
      await expect(
        beginDeliveries([
          { digestId: digest.id, slot, owner: 'runner-a', now },
          { digestId: 'ZZZZZZ', slot, owner: 'runner-a', now },
        ]),
      ).rejects.toThrow();
      expect(await store.runs.getDelivery(digest.id, slot)).toBeUndefined();
    });

    it('starts each slot once when batches overlap across connections', async () => {
      if (!fixture.openSibling) return;
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push((await store.digests.create(digestInput(), now)).id);
      const others = [await fixture.openSibling(), await fixture.openSibling()];
      const results = await Promise.all(
        [store, ...others].map((each, index) =>
          batchOf(each).beginDeliveries(
            // Overlapping, in a different order per caller.
            (index === 1 ? [...ids].reverse() : ids).map((digestId) => ({
              digestId,
              slot,
              owner: `runner-${index}`,
              now,
            })),
          ),
        ),
      );
      const started = results.flat().filter((result) => result.kind === 'started');
      expect(started).toHaveLength(ids.length);
      for (const id of ids) {
        const record = await store.runs.getDelivery(id, slot);
        const owner = record?.owner ?? '';
        const index = Number(owner.slice('runner-'.length));
        const position = index === 1 ? ids.length - 1 - ids.indexOf(id) : ids.indexOf(id);
        expect(results[index]?.[position]).toEqual({ kind: 'started' });
        for (const [other, list] of results.entries()) {
          if (other === index) continue;
          const at = other === 1 ? ids.length - 1 - ids.indexOf(id) : ids.indexOf(id);
          expect(list[at]).toMatchObject({ kind: 'already', delivery: { owner } });
        }
      }
    });

    it('completes many slots at once like the single calls would', async () => {
      const { completeMany } = batchOf(store);
      const [a, b, c] = await Promise.all(
        [1, 2, 3].map((i) => store.digests.create(digestInput({ channelId: `C${i}` }), now)),
      );
      if (!a || !b || !c) throw new Error('setup failed');
      await store.digests.claimDue(now, lease);
      for (const digest of [a, b]) await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      const at = new Date(now.getTime() + 2000);
      await completeMany([
        {
          digestId: a.id,
          slot,
          completion: posted('1.1', { at, ranking: [{ screenName: 'alice', rank: 1 }] }),
        },
        {
          digestId: b.id,
          slot,
          completion: {
            owner: 'runner-a',
            outcome: 'failed',
            at,
            errorCode: 'channel_unreachable',
            nextRunAt: nextWeek,
            consecutiveFailures: 3,
            pauseReason: archivedThrice,
          },
        },
        {
          digestId: c.id,
          slot,
          completion: { owner: 'runner-a', outcome: 'unconfirmed', at, nextRunAt: nextWeek },
        },
      ]);
      expect(await store.digests.get(a.id)).toMatchObject({
        status: 'active',
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
        lastRun: { slot, outcome: 'posted', at, messageTs: '1.1' },
        lastRanking: [{ screenName: 'alice', rank: 1 }],
        updatedAt: at,
      });
      expect(await store.runs.getDelivery(a.id, slot)).toMatchObject({
        status: 'posted',
        messageTs: '1.1',
        finishedAt: at,
      });
      expect(await store.digests.get(b.id)).toMatchObject({
        status: 'paused',
        pauseReason: archivedThrice,
        consecutiveFailures: 3,
        nextRunAt: nextWeek,
        lastRun: { outcome: 'failed', errorCode: 'channel_unreachable' },
      });
      expect(await store.runs.getDelivery(b.id, slot)).toMatchObject({
        status: 'failed',
        errorCode: 'channel_unreachable',
      });
      expect(await store.digests.get(c.id)).toMatchObject({
        nextRunAt: nextWeek,
        lastRun: { outcome: 'unconfirmed' },
      });
      expect(await store.runs.getDelivery(c.id, slot)).toBeUndefined();
      // Every lease went with its completion.
      const again = await store.digests.claimDue(nextWeek, { ...lease, owner: 'runner-b' });
      expect(again.map((claim) => claim.digest.id).sort()).toEqual([a.id, c.id].sort());
      await completeMany([]);
    });

    it('applies a digest listed twice in one batch in order, never downgrading a post', async () => {
      const { completeMany } = batchOf(store);
      const digest = await store.digests.create(digestInput(), now);
      await completeMany([
        {
          digestId: digest.id,
          slot,
          completion: { owner: 'runner-b', outcome: 'unconfirmed', at: now, nextRunAt: nextWeek },
        },
        { digestId: digest.id, slot, completion: posted('1.2') },
        {
          digestId: digest.id,
          slot,
          completion: { owner: 'runner-c', outcome: 'failed', at: now, errorCode: 'network' },
        },
      ]);
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        lastRun: { outcome: 'posted', messageTs: '1.2' },
      });
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'posted',
        messageTs: '1.2',
      });
    });

    it('keeps a late batch from moving a digest back or keeping a lease it does not hold', async () => {
      const { completeMany } = batchOf(store);
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.complete(digest.id, slot, posted('1.3'));
      await store.digests.claimDue(nextWeek, { ...lease, owner: 'runner-b' });
      await completeMany([
        {
          digestId: digest.id,
          slot: new Date(slot.getTime() - 7 * 86_400_000),
          completion: posted('0.9'),
        },
      ]);
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        lastRun: { slot, outcome: 'posted', messageTs: '1.3' },
      });
      // runner-b's lease survived runner-a's completion.
      expect(await store.digests.claimDue(nextWeek, { ...lease, owner: 'runner-c' })).toEqual([]);
    });

    it('writes nothing of a batch of completions when one item fails', async () => {
      const { completeMany } = batchOf(store);
      const digest = await store.digests.create(digestInput(), now);
      await expect(
        completeMany([
          { digestId: digest.id, slot, completion: posted('1.4') },
          { digestId: 'ZZZZZZ', slot, completion: posted('1.5') },
        ]),
      ).rejects.toThrow();
      expect(await store.runs.getDelivery(digest.id, slot)).toBeUndefined();
      expect((await store.digests.get(digest.id))?.lastRun).toBeUndefined();
    });

    it('renews only the leases its owner still holds, and never shortens one', async () => {
      const renewLeases = store.digests.renewLeases?.bind(store.digests);
      if (!renewLeases) throw new Error(`${store.dialect} store cannot renew leases`);
      const [mine, taken] = await Promise.all(
        [1, 2].map((i) => store.digests.create(digestInput({ channelId: `C${i}` }), now)),
      );
      if (!mine || !taken) throw new Error('setup failed');
      await store.digests.claimDue(now, lease);
      // The second lease ran out and another runner took the digest over.
      await store.digests.releaseLease(taken.id, 'runner-a');
      await store.digests.claimDue(now, { ...lease, owner: 'runner-b' });
      const later = new Date(now.getTime() + 50_000);
      expect(await renewLeases('runner-a', later, 60_000)).toBe(1);
      expect(await renewLeases('runner-a', now, 1_000)).toBe(1);
      const afterFirstLease = new Date(now.getTime() + 100_000);
      expect(
        await store.digests.claimDue(afterFirstLease, { ...lease, owner: 'runner-c' }),
      ).toEqual([expect.objectContaining({ digest: expect.objectContaining({ id: taken.id }) })]);
      expect(await store.digests.claimDue(new Date(later.getTime() + 59_999), lease)).toEqual([]);
      const again = await store.digests.claimDue(new Date(later.getTime() + 60_000), {
        ...lease,
        owner: 'runner-c',
      });
      expect(again.map((claim) => claim.digest.id)).toEqual([mine.id]);
      expect(await renewLeases('runner-a', later, 60_000)).toBe(0);
    });

    it('gives back only its own posting record', async () => {
      const abandonDelivery = store.runs.abandonDelivery?.bind(store.runs);
      if (!abandonDelivery) throw new Error(`${store.dialect} store cannot abandon deliveries`);
      const [own, done] = await Promise.all(
        [1, 2].map((i) => store.digests.create(digestInput({ channelId: `C${i}` }), now)),
      );
      if (!own || !done) throw new Error('setup failed');
      await store.runs.beginDelivery(own.id, slot, 'runner-a', now);
      await store.runs.complete(done.id, slot, posted('1.6'));
      expect(await abandonDelivery(own.id, slot, 'runner-b')).toBe(false);
      expect(await abandonDelivery(done.id, slot, 'runner-a')).toBe(false);
      expect(await store.runs.getDelivery(done.id, slot)).toMatchObject({ status: 'posted' });
      expect(await abandonDelivery(own.id, slot, 'runner-a')).toBe(true);
      expect(await store.runs.getDelivery(own.id, slot)).toBeUndefined();
      expect(await store.runs.beginDelivery(own.id, slot, 'runner-b', now)).toEqual({
        kind: 'started',
      });
    });

    it('keeps a slot skipped when a late runner completes it', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.digests.claimDue(now, { ...lease, owner: 'runner-b' });
      await store.runs.recordSkipped(digest.id, slot, {
        owner: 'runner-b',
        reason: { kind: 'missed' },
        at: now,
        count: 1,
        nextRunAt: nextWeek,
      });
      const late: Completion[] = [
        { owner: 'runner-a', outcome: 'posted', at: now, nextRunAt: nextWeek },
        {
          owner: 'runner-a',
          outcome: 'failed',
          at: now,
          errorCode: 'network',
          nextRunAt: nextWeek,
        },
        { owner: 'runner-a', outcome: 'unconfirmed', at: now, nextRunAt: nextWeek },
      ];
      for (const completion of late) await store.runs.complete(digest.id, slot, completion);
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'skipped',
        owner: 'runner-b',
      });
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
        lastRun: { slot, outcome: 'skipped' },
      });
    });

    it('keeps another runner’s posting record from a late failure, so no third runner posts', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.beginDelivery(digest.id, slot, 'runner-b', now);
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-a',
        outcome: 'failed',
        at: now,
        errorCode: 'network',
        consecutiveFailures: 3,
        pauseReason: { kind: 'failures', failures: 3, code: 'network' },
        nextRunAt: nextWeek,
      });
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'posting',
        owner: 'runner-b',
      });
      expect(await store.runs.beginDelivery(digest.id, slot, 'runner-c', now)).toMatchObject({
        kind: 'already',
      });
      expect(await store.digests.get(digest.id)).toMatchObject({
        status: 'active',
        consecutiveFailures: 0,
      });
      await store.runs.complete(digest.id, slot, posted('2.1', { owner: 'runner-b' }));
      expect(await store.digests.get(digest.id)).toMatchObject({
        lastRun: { outcome: 'posted', messageTs: '2.1' },
      });
    });

    it('does not let a skip hide a slot another runner is posting', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      await store.runs.recordSkipped(digest.id, slot, {
        owner: 'runner-b',
        reason: { kind: 'missed' },
        at: now,
        count: 1,
        nextRunAt: nextWeek,
      });
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({ status: 'posting' });
      await store.runs.complete(digest.id, slot, posted('3.1'));
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        lastRun: { slot, outcome: 'posted', messageTs: '3.1' },
      });
    });

    it('removes a digest together with its delivery records', async () => {
      const digest = await store.digests.create(digestInput(), now);
      await store.runs.beginDelivery(digest.id, slot, 'runner-a', now);
      await store.digests.remove(digest.id);
      expect(await store.runs.getDelivery(digest.id, slot)).toBeUndefined();
    });

    describe('sightings', () => {
      const later = (ms: number) => new Date(now.getTime() + ms);

      it('answers true only the first time a key is seen while it lives', async () => {
        expect([
          await store.sightings.firstSighting('sig:a', now, 300_000),
          await store.sightings.firstSighting('sig:a', later(299_999), 300_000),
          await store.sightings.firstSighting('sig:b', now, 300_000),
        ]).toEqual([true, false, true]);
      });

      it('sees a key again as new once its time to live has passed, and remembers it anew', async () => {
        await store.sightings.firstSighting('event:Ev1', now, 60_000);
        expect(await store.sightings.firstSighting('event:Ev1', later(60_000), 60_000)).toBe(true);
        expect(await store.sightings.firstSighting('event:Ev1', later(90_000), 60_000)).toBe(false);
      });

      it('lets exactly one of several instances see a key first', async () => {
        const others = fixture.openSibling
          ? await Promise.all([fixture.openSibling(), fixture.openSibling()])
          : [store, store];
        const firsts = await Promise.all(
          [store, ...others].map((each) =>
            each.sightings.firstSighting('sig:shared', now, 300_000),
          ),
        );
        expect(firsts.filter(Boolean)).toHaveLength(1);
      });

      it('keeps working after expired keys were purged', async () => {
        await store.sightings.firstSighting('sig:old', now, 1_000);
        expect(await store.sightings.firstSighting('sig:new', later(3_600_000), 1_000)).toBe(true);
        expect(await store.sightings.firstSighting('sig:old', later(3_600_000), 1_000)).toBe(true);
        expect(await store.sightings.firstSighting('sig:new', later(3_600_000), 1_000)).toBe(false);
      });
    });
    it('opens an outage once, keeps its start, and takes a later probe time and the new cause', async () => {
      const later = new Date(now.getTime() + 60_000);
      expect(await store.outages.open('T1', 'analytics_unavailable', now, later)).toBe(true);
      const again = new Date(now.getTime() + 5_000);
      expect(
        await store.outages.open(
          'T1',
          'slack_rate_limited',
          again,
          new Date(now.getTime() + 30_000),
        ),
      ).toBe(false);
      expect(await store.outages.list()).toEqual([
        { teamId: 'T1', cause: 'slack_rate_limited', since: now, probeAt: later, probes: 0 },
      ]);
      const much = new Date(now.getTime() + 600_000);
      await store.outages.open('T1', 'slack_rate_limited', again, much);
      expect((await store.outages.list())[0]?.probeAt).toEqual(much);
    });

    it('hands a due probe to one caller, then closes the outage once', async () => {
      await store.outages.open('T1', 'analytics_unavailable', now, now);
      const next = new Date(now.getTime() + 120_000);
      const claims = await Promise.all([
        store.outages.claimProbe('T1', now, next),
        store.outages.claimProbe('T1', now, next),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.outages.claimProbe('T1', new Date(next.getTime() - 1), next)).toBe(false);
      expect((await store.outages.list())[0]).toMatchObject({ probeAt: next, probes: 1 });
      expect(await store.outages.close('T1')).toBe(true);
      expect(await store.outages.close('T1')).toBe(false);
      expect(await store.outages.list()).toEqual([]);
    });

    it('claims no digest of a workspace on hold unless asked for that workspace', async () => {
      const held = await store.digests.create(digestInput({ teamId: 'T1' }), now);
      const old = await store.digests.create(
        digestInput({ teamId: 'T1', nextRunAt: new Date(slot.getTime() - 7_200_000) }),
        now,
      );
      const other = await store.digests.create(digestInput({ teamId: 'T2' }), now);
      await store.outages.open('T1', 'analytics_unavailable', now, now);
      expect((await store.digests.claimDue(now, lease)).map((c) => c.digest.id)).toEqual([
        other.id,
      ]);
      const tooOld = new Date(now.getTime() - 3_600_000);
      expect(
        (await store.digests.claimDue(now, { ...lease, teamId: 'T1', dueBefore: tooOld })).map(
          (c) => c.digest.id,
        ),
      ).toEqual([old.id]);
      expect(
        (await store.digests.claimDue(now, { ...lease, teamId: 'T1' })).map((c) => c.digest.id),
      ).toEqual([held.id]);
    });

    it('records why a slot was skipped, for the record and the last run', async () => {
      const digest = await store.digests.create(digestInput(), now);
      const reason = { kind: 'outage', cause: 'slack_token_rejected' } as const;
      await store.runs.recordSkipped(digest.id, slot, {
        owner: 'runner-a',
        at: now,
        reason,
        count: 1,
        nextRunAt: nextWeek,
      });
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'skipped',
        skipReason: reason,
      });
      expect((await store.digests.get(digest.id))?.lastRun).toMatchObject({
        outcome: 'skipped',
        skipReason: reason,
      });
    });

    it('keeps the account a watch follows, and why a run of it stayed quiet', async () => {
      const watch = await store.digests.create(
        digestInput({ postWhen: 'new', account: 'DrFerreiraI' }),
        now,
      );
      expect(await store.digests.get(watch.id)).toMatchObject({
        postWhen: 'new',
        account: 'DrFerreiraI',
      });
      expect(
        (await store.digests.get((await store.digests.create(digestInput(), now)).id))?.account,
      ).toBeUndefined();
      const reason = { kind: 'account_steady' } as const;
      await store.runs.complete(watch.id, slot, {
        owner: 'runner-a',
        outcome: 'skipped',
        skipReason: reason,
        at: now,
        ranking: [{ screenName: 'alice', rank: 1 }],
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
      });
      expect(await store.runs.getDelivery(watch.id, slot)).toMatchObject({ skipReason: reason });
    });

    it('names the distinct creators of a workspace’s active digests', async () => {
      await store.digests.create(digestInput({ creatorId: 'U2' }), now);
      await store.digests.create(digestInput({ creatorId: 'U1' }), now);
      await store.digests.create(digestInput({ creatorId: 'U2' }), now);
      const paused = await store.digests.create(digestInput({ creatorId: 'U3' }), now);
      await store.digests.pause(paused.id, now);
      await store.digests.create(digestInput({ creatorId: 'U4', teamId: 'T2' }), now);
      expect(await store.digests.teamCreators('T1')).toEqual(['U1', 'U2']);
    });

    it('records a quiet run as skipped with why, over a failed record but never over a post', async () => {
      const quiet = (owner: string): Completion => ({
        owner,
        outcome: 'skipped',
        skipReason: { kind: 'unchanged' },
        at: now,
        ranking: [{ screenName: 'alice', rank: 1 }],
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
      });
      const digest = await store.digests.create(digestInput({ postWhen: 'changed' }), now);
      expect(digest.postWhen).toBe('changed');
      await store.runs.complete(digest.id, slot, {
        owner: 'runner-b',
        outcome: 'failed',
        at: now,
        errorCode: 'network',
        consecutiveFailures: 1,
      });
      await store.runs.complete(digest.id, slot, quiet('runner-a'));
      expect(await store.runs.getDelivery(digest.id, slot)).toMatchObject({
        status: 'skipped',
        skipReason: { kind: 'unchanged' },
      });
      expect(await store.digests.get(digest.id)).toMatchObject({
        nextRunAt: nextWeek,
        consecutiveFailures: 0,
        lastRun: { slot, outcome: 'skipped', skipReason: { kind: 'unchanged' } },
        lastRanking: [{ screenName: 'alice', rank: 1 }],
      });

      const other = await store.digests.create(digestInput(), now);
      await store.runs.beginDelivery(other.id, slot, 'runner-b', now);
      await batchOf(store).completeMany([
        { digestId: other.id, slot, completion: quiet('runner-a') },
      ]);
      expect(await store.runs.getDelivery(other.id, slot)).toMatchObject({ status: 'posting' });
      expect((await store.digests.get(other.id))?.lastRun).toBeUndefined();
    });

    it('keeps a digest’s metric, presentation and condition, with defaults when none is given', async () => {
      const chosen = await store.digests.create(
        digestInput({ metric: 'impressions', presentation: 'chart', postWhen: 'new' }),
        now,
      );
      expect(await store.digests.get(chosen.id)).toMatchObject({
        metric: 'impressions',
        presentation: 'chart',
        postWhen: 'new',
      });
      const plain =
        (await store.digests.get((await store.digests.create(digestInput(), now)).id)) ?? fail();
      expect(plain).toMatchObject({ presentation: 'list', postWhen: 'always' });
      expect(plain.metric).toBeUndefined();
    });

    it('updates a digest’s settings, moving its next run only when told, forgetting a ranking of another metric', async () => {
      const digest = await store.digests.create(digestInput({ metric: 'mentions' }), now);
      await store.runs.complete(
        digest.id,
        slot,
        posted('1.1', { ranking: [{ screenName: 'a', rank: 1 }] }),
      );
      const settings = {
        schedule: {
          kind: 'cron',
          expression: '0 10 * * 1',
          zone: 'Europe/London',
          cadence: 'weekly',
        },
        window: { kind: 'last', amount: 2, unit: 'weeks' },
        top: 3,
        metric: 'mentions',
        presentation: 'table',
        postWhen: 'changed',
      } as const;
      const kept = await store.digests.update(digest.id, settings, now);
      expect(kept).toMatchObject({
        ...settings,
        nextRunAt: nextWeek,
        lastRanking: [{ screenName: 'a', rank: 1 }],
      });
      const later = new Date('2026-06-15T09:00:00Z');
      const moved = await store.digests.update(
        digest.id,
        { ...settings, metric: undefined, nextRunAt: later },
        now,
      );
      expect(moved.nextRunAt).toEqual(later);
      expect(moved.metric).toBeUndefined();
      expect(moved.lastRanking).toBeUndefined();
      expect(await store.digests.get(digest.id)).toEqual(moved);
      await expect(store.digests.update('ZZZZZZ', settings, now)).rejects.toBeInstanceOf(
        DigestNotFoundError,
      );
    });
  });
}
