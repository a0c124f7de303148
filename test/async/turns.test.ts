import { describe, expect, it } from 'vitest';
import { Turns } from '../../src/async/turns.ts';

const nextIteration = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Turns', () => {
  it('lets waiters continue in the order they asked, a few per loop iteration', async () => {
    const turns = new Turns(8);
    const continued: number[] = [];
    const all = Array.from({ length: 20 }, (_, i) => turns.next().then(() => continued.push(i)));
    expect(continued).toEqual([]);
    await nextIteration();
    expect(continued).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await nextIteration();
    expect(continued).toHaveLength(16);
    await Promise.all(all);
    expect(continued).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('lets I/O that arrives meanwhile run between two batches', async () => {
    const turns = new Turns(1);
    const events: string[] = [];
    const waiters = [1, 2, 3].map((n) => turns.next().then(() => events.push(`turn ${n}`)));
    await nextIteration();
    // A timer due now stands for a request that arrived while the first batch ran.
    setTimeout(() => events.push('io'), 0);
    await Promise.all(waiters);
    expect(events.indexOf('io')).toBeLessThan(events.indexOf('turn 3'));
  });
});
