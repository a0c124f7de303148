import { describe, expect, it } from 'vitest';
import { Poll } from '../../src/async/poll.ts';
import { ManualTimer } from '../helpers/manual-timer.ts';

describe('Poll', () => {
  it('schedules nothing until held', () => {
    const clock = new ManualTimer();
    const poll = new Poll(async () => {}, clock.schedule(1_000));
    expect(clock.pending).toEqual([]);
    expect(poll.active).toBe(false);
  });

  it('runs every interval while held, one round after the other', async () => {
    const clock = new ManualTimer();
    let rounds = 0;
    const poll = new Poll(async () => {
      rounds += 1;
    }, clock.schedule(1_000));
    poll.hold();
    expect(clock.pending).toEqual([1_000]);
    await clock.fire();
    await clock.fire();
    expect(rounds).toBe(2);
    expect(clock.pending).toEqual([1_000]);
    expect(poll.active).toBe(true);
  });

  it('stops once the last holder lets go, and starts again with the next', async () => {
    const clock = new ManualTimer();
    let rounds = 0;
    const poll = new Poll(async () => {
      rounds += 1;
    }, clock.schedule(1_000));
    const first = poll.hold();
    const second = poll.hold();
    expect(clock.pending).toEqual([1_000]);
    first();
    first();
    expect(clock.pending).toEqual([1_000]);
    second();
    expect(clock.pending).toEqual([]);
    expect(poll.active).toBe(false);
    await clock.fire();
    expect(rounds).toBe(0);
    poll.hold();
    await clock.fire();
    expect(rounds).toBe(1);
  });

  it('schedules no round after one that ended with nobody holding it', async () => {
    const clock = new ManualTimer();
    let release = () => {};
    const poll = new Poll(async () => {
      release();
    }, clock.schedule(1_000));
    release = poll.hold();
    await clock.fire();
    expect(clock.pending).toEqual([]);
    expect(poll.active).toBe(false);
  });

  it('goes on after a round that failed', async () => {
    const clock = new ManualTimer();
    let rounds = 0;
    const poll = new Poll(async () => {
      rounds += 1;
      throw new Error('store down');
    }, clock.schedule(1_000));
    poll.hold();
    await clock.fire();
    await clock.fire();
    expect(rounds).toBe(2);
    expect(clock.pending).toEqual([1_000]);
  });
});
