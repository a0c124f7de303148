import { describe, expect, it } from 'vitest';
import { SeenEvents } from '../../../src/slack/support/seen-events.ts';

describe('SeenEvents', () => {
  it('answers true only the first time an event id is seen', () => {
    const seen = new SeenEvents();
    expect([
      seen.firstTime('Ev1'),
      seen.firstTime('Ev1'),
      seen.firstTime('Ev2'),
      seen.firstTime(undefined),
    ]).toEqual([true, false, true, true]);
  });
});
