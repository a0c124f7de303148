/**
 * The part of the Database contract about agent conversations: the DMs whose Messages tab
 * opened, what each thread remembers, and the lookups running in them with the Stop pressed for
 * them from any instance. `database.test.ts` runs it per adapter, beside `storeContract`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { AgentRun, AgentState } from '../../src/store/agent-state.ts';
import type { Database } from '../../src/store/database.ts';
import type { StoreFixture } from './store-contract.ts';

const now = new Date('2026-06-08T08:00:30Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const day = 86_400_000;
const lease = 30_000;
const thread = { channel: 'D1', threadTs: '1700000000.000100' };
const previous: LookupRequest = {
  databases: ['#hcsm'],
  start: '2026-06-01T00:00:00-04:00',
  end: '2026-06-08T00:00:00-04:00',
  timezone: 'America/New_York',
  top: 10,
  metric: 'impressions',
};

function run(runId: string, owner = 'instance-a', where = thread): AgentRun {
  return { ...where, runId, owner };
}

function stateOf(store: Database): AgentState {
  return store.agentState;
}

export function agentStateContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract, agent conversations: ${name}`, () => {
    let fixture: StoreFixture;
    let state: AgentState;

    beforeEach(async () => {
      fixture = await open();
      state = stateOf(fixture.store);
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('knows a DM as an agent conversation until its time runs out, renewed by each opening', async () => {
      expect(await state.isConversation('D1', now)).toBe(false);
      await state.rememberConversation('D1', now, day);
      expect(await state.isConversation('D1', later(day - 1))).toBe(true);
      expect(await state.isConversation('D1', later(day))).toBe(false);
      expect(await state.isConversation('D2', now)).toBe(false);
      await state.rememberConversation('D1', later(day / 2), day);
      expect(await state.isConversation('D1', later(day))).toBe(true);
    });

    it('remembers a thread’s last lookup and title, the latest replacing the one before', async () => {
      expect(await state.threadOf(thread, now)).toBeUndefined();
      await state.rememberThread(thread, { titled: false }, now, day);
      expect(await state.threadOf(thread, now)).toEqual({ titled: false });
      await state.rememberThread(thread, { previous, titled: true }, now, day);
      expect(await state.threadOf(thread, now)).toEqual({ previous, titled: true });
      expect(
        await state.threadOf({ ...thread, threadTs: '1700000000.000200' }, now),
      ).toBeUndefined();
      expect(await state.threadOf(thread, later(day))).toBeUndefined();
    });

    it('forgets expired records and keeps working after they are purged', async () => {
      await state.rememberConversation('D1', now, 1_000);
      await state.rememberThread(thread, { previous, titled: true }, now, 1_000);
      const much = later(2 * 60_000);
      await state.rememberConversation('D2', much, day);
      expect(await state.isConversation('D1', much)).toBe(false);
      expect(await state.threadOf(thread, much)).toBeUndefined();
      await state.rememberThread(thread, { titled: true }, much, day);
      expect(await state.threadOf(thread, much)).toEqual({ titled: true });
    });

    it('finds no lookup to stop where none runs, or once it ended', async () => {
      expect(await state.requestStop(thread, now)).toBe(false);
      await state.lookupStarted(run('r1'), now, lease);
      await state.lookupEnded('r1');
      expect(await state.requestStop(thread, now)).toBe(false);
      expect(await state.stopsFor('instance-a', now, lease)).toEqual([]);
    });

    it('hands a Stop to the instance running the lookup, and to no other', async () => {
      await state.lookupStarted(run('r1'), now, lease);
      await state.lookupStarted(
        run('r2', 'instance-b', { channel: 'D2', threadTs: '2.0' }),
        now,
        lease,
      );
      expect(await state.stopsFor('instance-a', now, lease)).toEqual([]);
      expect(await state.requestStop(thread, now)).toBe(true);
      expect(await state.stopsFor('instance-a', now, lease)).toEqual(['r1']);
      expect(await state.stopsFor('instance-b', now, lease)).toEqual([]);
      await state.lookupEnded('r1');
      expect(await state.stopsFor('instance-a', now, lease)).toEqual([]);
    });

    it('gives a thread’s record to its latest lookup, which the earlier one’s end leaves alone', async () => {
      await state.lookupStarted(run('r1'), now, lease);
      expect(await state.requestStop(thread, now)).toBe(true);
      await state.lookupStarted(run('r2'), now, lease);
      expect(await state.stopsFor('instance-a', now, lease)).toEqual([]);
      await state.lookupEnded('r1');
      expect(await state.requestStop(thread, now)).toBe(true);
      expect(await state.stopsFor('instance-a', now, lease)).toEqual(['r2']);
    });

    it('lets the record of a lookup whose instance stopped renewing it lapse', async () => {
      await state.lookupStarted(run('r1'), now, lease);
      expect(await state.requestStop(thread, later(lease))).toBe(false);
      await state.stopsFor('instance-a', later(lease / 2), lease);
      expect(await state.requestStop(thread, later(lease))).toBe(true);
    });

    it('carries a Stop from one connection to the instance polling on another', async () => {
      if (!fixture.openSibling) return;
      const other = stateOf(await fixture.openSibling());
      await state.lookupStarted(run('r1'), now, lease);
      await other.rememberConversation('D1', now, day);
      expect(await other.requestStop(thread, now)).toBe(true);
      expect(await state.stopsFor('instance-a', now, lease)).toEqual(['r1']);
      expect(await state.isConversation('D1', now)).toBe(true);
    });
  });
}
