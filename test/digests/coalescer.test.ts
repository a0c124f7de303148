import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/digests/coalescer.ts';

interface Deferred {
  readonly items: readonly number[];
  resolve(values: string[]): void;
  reject(error: unknown): void;
}

/** A batch writer whose batches finish only when the test says so. */
function controlledWriter() {
  const batches: Deferred[] = [];
  const singles: number[] = [];
  const run = (items: readonly number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ items: [...items], resolve, reject });
    });
  const single = async (item: number) => {
    singles.push(item);
    if (item < 0) throw new Error(`bad item ${item}`);
    return `single ${item}`;
  };
  return { batches, singles, run, single };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  it('writes items submitted in the same turn as one batch and answers each its own result', async () => {
    const writer = controlledWriter();
    const coalescer = new Coalescer({ ...writer, maxBatch: 10, maxInFlight: 1 });
    const results = [1, 2, 3].map((item) => coalescer.submit(item));
    await settle();
    expect(writer.batches.map((batch) => batch.items)).toEqual([[1, 2, 3]]);
    writer.batches[0]?.resolve(['one', 'two', 'three']);
    expect(await Promise.all(results)).toEqual(['one', 'two', 'three']);
  });

  it('gathers items that arrive while batches are in flight into the next batch', async () => {
    const writer = controlledWriter();
    const coalescer = new Coalescer({ ...writer, maxBatch: 10, maxInFlight: 1 });
    const first = coalescer.submit(1);
    await settle();
    const later = [2, 3, 4].map((item) => coalescer.submit(item));
    await settle();
    expect(writer.batches.map((batch) => batch.items)).toEqual([[1]]);
    writer.batches[0]?.resolve(['a']);
    await settle();
    expect(writer.batches.map((batch) => batch.items)).toEqual([[1], [2, 3, 4]]);
    writer.batches[1]?.resolve(['b', 'c', 'd']);
    expect(await Promise.all([first, ...later])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('cuts batches at maxBatch and keeps at most maxInFlight of them writing', async () => {
    const writer = controlledWriter();
    const coalescer = new Coalescer({ ...writer, maxBatch: 2, maxInFlight: 2 });
    const results = [1, 2, 3, 4, 5].map((item) => coalescer.submit(item));
    await settle();
    expect(writer.batches.map((batch) => batch.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    writer.batches[1]?.resolve(['c', 'd']);
    await settle();
    expect(writer.batches.map((batch) => batch.items)).toEqual([[1, 2], [3, 4], [5]]);
    writer.batches[0]?.resolve(['a', 'b']);
    writer.batches[2]?.resolve(['e']);
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('falls back to one call per item when a batch fails, so only the bad item fails', async () => {
    const writer = controlledWriter();
    const coalescer = new Coalescer({ ...writer, maxBatch: 10, maxInFlight: 1 });
    const results = [1, -2, 3].map((item) => coalescer.submit(item));
    await settle();
    writer.batches[0]?.reject(new Error('constraint failed'));
    expect(await Promise.allSettled(results)).toEqual([
      { status: 'fulfilled', value: 'single 1' },
      { status: 'rejected', reason: new Error('bad item -2') },
      { status: 'fulfilled', value: 'single 3' },
    ]);
    expect(writer.singles).toEqual([1, -2, 3]);
  });

  it('treats a batch answering the wrong number of results as failed', async () => {
    const writer = controlledWriter();
    const coalescer = new Coalescer({ ...writer, maxBatch: 10, maxInFlight: 1 });
    const results = [1, 2].map((item) => coalescer.submit(item));
    await settle();
    writer.batches[0]?.resolve(['only one']);
    expect(await Promise.all(results)).toEqual(['single 1', 'single 2']);
  });
});
