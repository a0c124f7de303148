import { describe, expect, it } from 'vitest';
import { timedOut, within } from '../../src/time/within.ts';

describe('within', () => {
  it('gives the value of work that settles in time', async () => {
    expect(await within(Promise.resolve('done'), 1_000)).toBe('done');
  });

  it('gives timedOut when the time runs out first', async () => {
    expect(await within(new Promise(() => {}), 5)).toBe(timedOut);
  });

  it('throws the failure of work that fails in time', async () => {
    await expect(within(Promise.reject(new Error('boom')), 1_000)).rejects.toThrow('boom');
  });
});
