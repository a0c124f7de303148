import { expect, it } from 'vitest';
import { ascoInput } from '../digests/conferences/helpers.ts';
import { describeEachStore } from '../digests/helpers.ts';

const lease = { limit: 10, leaseMs: 60_000, owner: 'a' };

describeEachStore('ConferenceRepository', '2026-05-29T06:00:00Z', (world) => {
  it('stores a conference as created, and lists the active ones soonest first', async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const later = await store.create(
      ascoInput({
        nextRunAt: new Date('2026-05-29T07:00:00Z'),
        stakeholders: { include: ['Doctor'], exclude: [] },
      }),
      clock.now(),
    );
    const sooner = await store.create(ascoInput({ channelId: 'C2' }), clock.now());
    expect(await store.get(later.id)).toEqual(later);
    expect(later).toMatchObject({
      databases: ['#ASCO26'],
      firstDay: '2026-05-29',
      zone: 'America/Chicago',
      stakeholders: { include: ['Doctor'], exclude: [] },
      status: 'active',
      state: { boards: 0, pinned: false, days: [] },
    });
    expect((await store.listActive('T1')).map((each) => each.id)).toEqual([sooner.id, later.id]);
    expect((await store.listByChannel('T1', 'C2')).map((each) => each.id)).toEqual([sooner.id]);
  });

  it('leases a due conference to one claimer until the lease expires or is given back', async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const other = (await db.sibling()).conferences;
    const created = await store.create(ascoInput(), clock.now());
    expect(await store.claimDue(clock.now(), lease)).toHaveLength(1);
    expect(await other.claimDue(clock.now(), { ...lease, owner: 'b' })).toEqual([]);
    expect(
      await other.saveState(created.id, 'b', { ...created.state, boards: 9 }, clock.now()),
    ).toBe(false);
    clock.advance(61_000);
    expect(await other.claimDue(clock.now(), { ...lease, owner: 'b' })).toHaveLength(1);
    // The first owner's lease is gone: it may no longer write.
    expect(
      await store.finish(
        created.id,
        'a',
        { state: created.state, nextRunAt: clock.now() },
        clock.now(),
      ),
    ).toBe(false);
    expect(
      await other.finish(
        created.id,
        'b',
        {
          state: { ...created.state, boards: 1 },
          nextRunAt: new Date(clock.now().getTime() + 900_000),
        },
        clock.now(),
      ),
    ).toBe(true);
    expect(await store.claimDue(clock.now(), lease)).toEqual([]);
    expect((await store.get(created.id))?.state.boards).toBe(1);
  });

  it('records each post once: a second begin of the same post is refused', async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const { id } = await store.create(ascoInput(), clock.now());
    expect(await store.beginPost(id, 'recap:2026-05-29', 'a', clock.now())).toBe(true);
    expect(await store.beginPost(id, 'recap:2026-05-29', 'b', clock.now())).toBe(false);
    await store.completePost(id, 'recap:2026-05-29', '1.000100');
    expect(await store.beginPost(id, 'board:1', 'a', clock.now())).toBe(true);
    await store.abandonPost(id, 'board:1');
    expect(await store.posts(id)).toEqual([
      {
        key: 'recap:2026-05-29',
        status: 'posted',
        messageTs: '1.000100',
        startedAt: clock.now(),
        noticed: false,
      },
    ]);
  });

  it('tells of a post never confirmed once, whichever instance asks first', async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const { id } = await store.create(ascoInput(), clock.now());
    expect(await store.beginPost(id, 'board:1', 'a', clock.now())).toBe(true);
    const other = await db.sibling().then((sibling) => sibling.conferences);
    expect(await other.noticePost(id, 'board:1', clock.now())).toBe(true);
    expect(await store.noticePost(id, 'board:1', clock.now())).toBe(false);
    expect((await store.posts(id))[0]?.noticed).toBe(true);
    await store.beginPost(id, 'recap:2026-05-29', 'a', clock.now());
    await store.completePost(id, 'recap:2026-05-29', '1.000100');
    expect(await store.noticePost(id, 'recap:2026-05-29', clock.now())).toBe(false);
  });

  it('keeps a stop asked for during a run due at once when the run finishes', async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const created = await store.create(ascoInput(), clock.now());
    await store.claimDue(clock.now(), lease);
    await store.requestStop(created.id, clock.now());
    clock.advance(1_000);
    const later = new Date(clock.now().getTime() + 900_000);
    await store.finish(created.id, 'a', { state: created.state, nextRunAt: later }, clock.now());
    expect((await store.get(created.id))?.nextRunAt).toEqual(clock.now());
    expect(await store.claimDue(clock.now(), lease)).toHaveLength(1);
  });

  it('stops, edits and makes due only active conferences', async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const created = await store.create(
      ascoInput({ nextRunAt: new Date('2026-05-29T09:00:00Z') }),
      clock.now(),
    );
    expect(await store.dueNow('T1', 'C0ASCO', clock.now())).toBe(1);
    expect((await store.get(created.id))?.nextRunAt).toEqual(clock.now());
    expect(
      await store.update(created.id, { watch: ['x'], refreshMinutes: 30 }, clock.now()),
    ).toMatchObject({
      watch: ['x'],
      refreshMinutes: 30,
      firstDay: '2026-05-29',
    });
    expect((await store.requestStop(created.id, clock.now()))?.stopRequestedAt).toEqual(
      clock.now(),
    );
    await store.claimDue(clock.now(), lease);
    await store.finish(created.id, 'a', { state: created.state, ended: 'stopped' }, clock.now());
    expect(await store.get(created.id)).toMatchObject({ status: 'ended', ended: 'stopped' });
    expect(await store.requestStop(created.id, clock.now())).toBeUndefined();
    expect(await store.update(created.id, { refreshMinutes: 5 }, clock.now())).toBeUndefined();
    expect(await store.dueNow('T1', 'C0ASCO', clock.now())).toBe(0);
  });

  it("keeps a conference's canvas: on or off, which, its creation held by one, each problem told once", async () => {
    const { db, clock } = world();
    const store = db.store.conferences;
    const canvases = db.store.canvases.conferences;
    const otherCanvases = (await db.sibling()).canvases.conferences;
    const plain = await store.create(ascoInput(), clock.now());
    expect(plain.canvas).toBeUndefined();
    const created = await store.create(ascoInput({ channelId: 'C2', canvas: true }), clock.now());
    expect(created.canvas).toEqual({ enabled: true, told: [] });

    const until = new Date(clock.now().getTime() + 60_000);
    expect(await canvases.claimCreation(created.id, clock.now(), until)).toBe(true);
    expect(await otherCanvases.claimCreation(created.id, clock.now(), until)).toBe(false);
    await canvases.record(created.id, { kind: 'failed', problem: 'editing_failed' }, clock.now());
    expect((await store.get(created.id))?.canvas).toEqual({
      enabled: true,
      problem: 'editing_failed',
      told: [],
    });
    expect(await canvases.markTold(created.id, 'editing_failed')).toBe(true);
    expect(await otherCanvases.markTold(created.id, 'editing_failed')).toBe(false);

    expect(await otherCanvases.claimCreation(created.id, clock.now(), until)).toBe(true);
    const canvas = { id: 'F0CANVAS0001', kind: 'standalone' } as const;
    await otherCanvases.record(created.id, { kind: 'written', canvas }, clock.now());
    expect(await canvases.claimCreation(created.id, clock.now(), until)).toBe(false);
    expect((await store.get(created.id))?.canvas).toEqual({
      enabled: true,
      canvas,
      told: ['editing_failed'],
    });

    // Turned off, the canvas made is still known; a watchlist edit leaves the canvas as it is.
    const off = await store.update(created.id, { canvas: false }, clock.now());
    expect(off?.canvas).toEqual({ enabled: false, canvas, told: ['editing_failed'] });
    const watched = await store.update(created.id, { watch: ['dave'] }, clock.now());
    expect(watched).toMatchObject({ watch: ['dave'], canvas: { enabled: false } });
    const on = await store.update(plain.id, { canvas: true }, clock.now());
    expect(on?.canvas).toEqual({ enabled: true, told: [] });
  });
});
