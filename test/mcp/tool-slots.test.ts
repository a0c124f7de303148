/**
 * The MCP tool calls' own concurrency limit: a few run, the next ones wait in order, and past the
 * waiting room a call is refused at once. No clock: a wait is seen by what has or has not resolved
 * after the event loop turned.
 */
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type SlotGrant, ToolSlots } from '../../src/mcp/tool-slots.ts';

/** Whether `grant` has resolved once every callback already queued has run. */
async function settled(grant: Promise<SlotGrant>): Promise<SlotGrant | 'waiting'> {
  let value: SlotGrant | 'waiting' = 'waiting';
  void grant.then((resolved) => {
    value = resolved;
  });
  await setImmediate();
  return value;
}

function released(grant: SlotGrant): void {
  if (grant.kind !== 'granted') throw new Error(`expected a slot, got ${grant.kind}`);
  grant.release();
}

describe('ToolSlots', () => {
  it('lets N calls run and makes the N+1th wait until one of them ends', async () => {
    const slots = new ToolSlots({ running: 3, waiting: 10 });
    const running = await Promise.all([slots.acquire(), slots.acquire(), slots.acquire()]);
    expect(running.map((grant) => grant.kind)).toEqual(['granted', 'granted', 'granted']);
    const fourth = slots.acquire();
    expect(await settled(fourth)).toBe('waiting');
    expect(slots.waiting).toBe(1);
    released(running[1] as SlotGrant);
    expect((await settled(fourth)) as SlotGrant).toMatchObject({ kind: 'granted' });
    expect(slots.running).toBe(3);
    expect(slots.waiting).toBe(0);
  });

  it('hands slots out in the order they were asked for', async () => {
    const slots = new ToolSlots({ running: 1, waiting: 10 });
    const first = await slots.acquire();
    const order: string[] = [];
    const second = slots.acquire().then((grant) => {
      order.push('second');
      return grant;
    });
    const third = slots.acquire().then((grant) => {
      order.push('third');
      return grant;
    });
    released(first);
    released(await second);
    released(await third);
    expect(order).toEqual(['second', 'third']);
    expect(slots.running).toBe(0);
  });

  it('frees a slot once however often it is released', async () => {
    const slots = new ToolSlots({ running: 1, waiting: 10 });
    const first = await slots.acquire();
    released(first);
    released(first);
    const again = await slots.acquire();
    expect(again.kind).toBe('granted');
    expect(await settled(slots.acquire())).toBe('waiting');
  });

  it('refuses a call at once when the waiting room is full', async () => {
    const slots = new ToolSlots({ running: 1, waiting: 2 });
    await slots.acquire();
    void slots.acquire();
    void slots.acquire();
    expect(await slots.acquire()).toEqual({ kind: 'busy' });
    expect(slots.waiting).toBe(2);
  });

  it('lets a call whose client went away leave the queue, giving its turn to the next', async () => {
    const slots = new ToolSlots({ running: 1, waiting: 10 });
    const first = await slots.acquire();
    const gone = new AbortController();
    const leaving = slots.acquire(gone.signal);
    const staying = slots.acquire();
    gone.abort();
    expect(await leaving).toEqual({ kind: 'cancelled' });
    expect(slots.waiting).toBe(1);
    released(first);
    expect((await staying).kind).toBe('granted');
    expect(await slots.acquire(AbortSignal.abort())).toEqual({ kind: 'cancelled' });
  });
});
