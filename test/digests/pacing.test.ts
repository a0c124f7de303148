import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/digests/pacing.ts';
import type { Digest } from '../../src/model/digest.ts';
import { FakeClock } from './helpers.ts';

function inChannel(channelId: string): Digest {
  return { channelId, teamId: 'T1' } as Digest;
}

/** About one post per second per channel, four posts at once. */
function pacerOn(clock: FakeClock): Pacer {
  return new Pacer({ clock, channelIntervalMs: 1100, postConcurrency: 4, onStep: () => undefined });
}

describe('Pacer', () => {
  it('remembers only the channels that may still delay a post, however many it posts to', async () => {
    const clock = new FakeClock('2026-06-08T08:00:00Z');
    const pacer = pacerOn(clock);
    let most = 0;
    for (let i = 0; i < 5000; i++) {
      await pacer.paced(inChannel(`C${i}`), async (sending) => {
        sending();
      });
      clock.advance(10);
      most = Math.max(most, pacer.channelsRemembered);
    }
    // 110 channels were posted to in the last 1,100 ms; the others are dropped once 1,000 are kept.
    expect(most).toBeLessThanOrEqual(1001);
    expect(pacer.channelsRemembered).toBeGreaterThanOrEqual(110);
  });

  it('still paces a channel posted to again within its interval', async () => {
    const clock = new FakeClock('2026-06-08T08:00:00Z');
    const pacer = pacerOn(clock);
    const postedAt: number[] = [];
    for (let i = 0; i < 1500; i++) {
      await pacer.paced(inChannel(`C${i}`), async (sending) => {
        sending();
      });
    }
    await pacer.paced(inChannel('C1499'), async (sending) => {
      sending();
      postedAt.push(clock.now().getTime());
    });
    expect(clock.sleeps).toEqual([1100]);
    expect(postedAt).toEqual([new Date('2026-06-08T08:00:01.100Z').getTime()]);
  });
});
