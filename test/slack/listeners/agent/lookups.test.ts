import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/logger.ts';
import { AgentLookups, runningLeaseMs } from '../../../../src/slack/listeners/agent/lookups.ts';
import type { AgentState } from '../../../../src/store/agent-state.ts';
import type { Database } from '../../../../src/store/database.ts';
import { openSqliteDatabase } from '../../../../src/store/sql/sqlite.ts';
import { ManualTimer } from '../../../helpers/manual-timer.ts';

const start = new Date('2026-11-21T15:00:00Z');
const reason = new Error('stop');

describe('AgentLookups', () => {
  let store: Database;
  let now = start;
  /** One instance's lookups over the test's store, polling on `timer`. */
  const instance = (
    timer = new ManualTimer(),
    state: () => AgentState | undefined = () => store.agentState,
  ) =>
    new AgentLookups({
      state,
      logger: silentLogger,
      now: () => now,
      reason,
      poll: timer.schedule(1_000),
    });

  beforeEach(async () => {
    store = openSqliteDatabase({ path: ':memory:' });
    await store.migrate();
    now = start;
  });
  afterEach(async () => {
    await store.close();
  });

  it('stops the thread’s running lookup with the reason given, and only that one', async () => {
    const lookups = instance();
    const running = await lookups.start('D1', '1.0');
    const other = await lookups.start('D1', '2.0');
    expect(await lookups.stop('D1', '1.0')).toBe('here');
    expect(running.signal.reason).toBe(reason);
    expect(other.signal.aborted).toBe(false);
    await running.release();
    expect(await lookups.stop('D1', '1.0')).toBe('none');
  });

  it('stops the latest lookup of a thread, leaving an earlier one to finish', async () => {
    const lookups = instance();
    const earlier = await lookups.start('D1', '1.0');
    const latest = await lookups.start('D1', '1.0');
    await earlier.release();
    expect(await lookups.stop('D1', '1.0')).toBe('here');
    expect(latest.signal.aborted).toBe(true);
    expect(earlier.signal.aborted).toBe(false);
  });

  it('asks the store for stops only while a lookup runs here', async () => {
    const timer = new ManualTimer();
    const lookups = instance(timer);
    expect(timer.pending).toEqual([]);
    const first = await lookups.start('D1', '1.0');
    const second = await lookups.start('D1', '2.0');
    expect(timer.pending).toEqual([1_000]);
    expect(lookups.polling).toBe(true);
    await first.release();
    await timer.fire();
    expect(timer.pending).toEqual([1_000]);
    await second.release();
    await second.release();
    expect(timer.pending).toEqual([]);
    expect(lookups.polling).toBe(false);
  });

  it('stops a lookup that another instance sharing the store runs, at that instance’s next poll', async () => {
    const timer = new ManualTimer();
    const a = instance(timer);
    const b = instance();
    const running = await a.start('D1', '1.0');
    const bystander = await a.start('D1', '2.0');
    expect(await b.stop('D1', '1.0')).toBe('elsewhere');
    expect(running.signal.aborted).toBe(false);
    await timer.fire();
    expect(running.signal.reason).toBe(reason);
    expect(bystander.signal.aborted).toBe(false);
    await running.release();
    expect(await b.stop('D1', '1.0')).toBe('none');
  });

  it('finds nothing to stop once the instance running the lookup stopped renewing it', async () => {
    const timer = new ManualTimer();
    const a = instance(timer);
    await a.start('D1', '1.0');
    now = new Date(start.getTime() + runningLeaseMs / 2);
    await timer.fire();
    now = new Date(start.getTime() + runningLeaseMs);
    expect(await instance().stop('D1', '1.0')).toBe('elsewhere');
    now = new Date(start.getTime() + runningLeaseMs * 2);
    expect(await instance().stop('D1', '1.0')).toBe('none');
  });

  it('keeps Stop to its own lookups when the store fails', async () => {
    const broken = () =>
      instance(new ManualTimer(), () => {
        throw new Error('the store is not open yet');
      });
    const a = broken();
    const running = await a.start('D1', '1.0');
    expect(await broken().stop('D1', '1.0')).toBe('none');
    expect(await a.stop('D1', '1.0')).toBe('here');
    expect(running.signal.aborted).toBe(true);
    await running.release();
  });
});
