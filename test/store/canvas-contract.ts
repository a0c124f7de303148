/**
 * The part of the Database contract about a digest's channel canvas: whether it keeps one, the
 * canvas the app created, the last problem, and telling its creator once per problem.
 * `store.test.ts` runs it per adapter, beside `storeContract`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { digestInput } from '../digests/helpers.ts';
import type { StoreFixture } from './store-contract.ts';

const now = new Date('2026-06-08T08:00:30Z');
const later = new Date('2026-06-15T08:00:30Z');

export function canvasContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract, canvases: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Database;

    beforeEach(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('keeps no canvas unless asked', async () => {
      const digest = await store.digests.create(digestInput(), now);
      expect(digest.canvas).toBeUndefined();
      const asked = await store.digests.create(digestInput({ canvas: true }), now);
      expect(asked.canvas).toEqual({ enabled: true, told: [] });
    });

    it('records the canvas written, then a problem beside it, then clears the problem', async () => {
      const { id } = await store.digests.create(digestInput({ canvas: true }), now);
      await store.canvases.digests.record(
        id,
        { kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'standalone' } },
        now,
      );
      expect((await store.digests.get(id))?.canvas).toEqual({
        enabled: true,
        canvas: { id: 'F0CANVAS0001', kind: 'standalone' },
        told: [],
      });
      await store.canvases.digests.record(id, { kind: 'failed', problem: 'editing_failed' }, later);
      expect((await store.digests.get(id))?.canvas).toMatchObject({
        canvas: { id: 'F0CANVAS0001', kind: 'standalone' },
        problem: 'editing_failed',
      });
      await store.canvases.digests.record(
        id,
        { kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'standalone' } },
        later,
      );
      expect((await store.digests.get(id))?.canvas?.problem).toBeUndefined();
    });

    it('marks each problem told once, for one of callers racing', async () => {
      const { id } = await store.digests.create(digestInput({ canvas: true }), now);
      const sibling = fixture.openSibling ? await fixture.openSibling() : store;
      const first = await Promise.all([
        store.canvases.digests.markTold(id, 'missing_scope'),
        sibling.canvases.digests.markTold(id, 'missing_scope'),
      ]);
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await store.canvases.digests.markTold(id, 'missing_scope')).toBe(false);
      expect(await store.canvases.digests.markTold(id, 'not_allowed')).toBe(true);
      expect((await store.digests.get(id))?.canvas?.told).toEqual(['missing_scope', 'not_allowed']);
    });

    it('turns the canvas off and on by an edit, keeping the canvas and forgetting what was told', async () => {
      const digest = await store.digests.create(digestInput({ canvas: true }), now);
      const canvas = { id: 'F0CANVAS0001', kind: 'channel' } as const;
      await store.canvases.digests.record(digest.id, { kind: 'written', canvas }, now);
      await store.canvases.digests.markTold(digest.id, 'not_allowed');
      const settings = {
        schedule: digest.schedule,
        window: digest.window,
        top: digest.top,
        presentation: digest.presentation,
        postWhen: digest.postWhen,
        metric: digest.metric,
      };
      const off = await store.digests.update(digest.id, { ...settings, canvas: false }, later);
      expect(off.canvas).toEqual({ enabled: false, canvas, told: ['not_allowed'] });
      const untouched = await store.digests.update(digest.id, { ...settings, top: 7 }, later);
      expect(untouched.canvas?.enabled).toBe(false);
      const on = await store.digests.update(digest.id, { ...settings, canvas: true }, later);
      expect(on.canvas).toEqual({ enabled: true, canvas, told: [] });
    });

    it('hands the creation of a canvas to one caller at a time, until one is recorded', async () => {
      const { id } = await store.digests.create(digestInput({ canvas: true }), now);
      const sibling = fixture.openSibling ? await fixture.openSibling() : store;
      const until = new Date(now.getTime() + 60_000);
      const claims = await Promise.all([
        store.canvases.digests.claimCreation(id, now, until),
        sibling.canvases.digests.claimCreation(id, now, until),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      // A holder that died frees it once its hold ran out.
      expect(await store.canvases.digests.claimCreation(id, until, later)).toBe(true);
      await store.canvases.digests.record(id, { kind: 'failed', problem: 'slack_failed' }, now);
      expect(await store.canvases.digests.claimCreation(id, now, until)).toBe(true);
      await store.canvases.digests.record(
        id,
        { kind: 'written', canvas: { id: 'F0CANVAS0001', kind: 'channel' } },
        now,
      );
      expect(await store.canvases.digests.claimCreation(id, later, later)).toBe(false);
    });

    it('holds a creation the plan refused until the hold runs out', async () => {
      const { id } = await store.digests.create(digestInput({ canvas: true }), now);
      const until = new Date(now.getTime() + 60_000);
      expect(await store.canvases.digests.claimCreation(id, now, until)).toBe(true);
      await store.canvases.digests.record(
        id,
        { kind: 'failed', problem: 'channel_canvas_taken' },
        now,
        later,
      );
      expect(await store.canvases.digests.claimCreation(id, until, until)).toBe(false);
      expect((await store.digests.get(id))?.canvas?.heldUntil).toEqual(later);
      expect(await store.canvases.digests.claimCreation(id, later, until)).toBe(true);
    });

    it('lets a canvas turned off and on again be tried at once after a plan refused it', async () => {
      const digest = await store.digests.create(digestInput({ canvas: true }), now);
      await store.canvases.digests.record(
        digest.id,
        { kind: 'failed', problem: 'canvases_unavailable' },
        now,
        later,
      );
      const settings = {
        schedule: digest.schedule,
        window: digest.window,
        top: digest.top,
        presentation: digest.presentation,
        postWhen: digest.postWhen,
        metric: digest.metric,
      };
      await store.digests.update(digest.id, { ...settings, canvas: false }, now);
      const on = await store.digests.update(digest.id, { ...settings, canvas: true }, now);
      expect(on.canvas).toEqual({ enabled: true, told: [] });
      expect(await store.canvases.digests.claimCreation(digest.id, now, later)).toBe(true);
    });
  });
}
