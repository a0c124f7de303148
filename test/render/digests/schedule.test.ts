import { describe, expect, it } from 'vitest';
import { scheduleNeverRunsText } from '../../../src/render/digests/schedule.ts';

describe('scheduleNeverRunsText', () => {
  it('names the schedule that has no future run', () => {
    expect(scheduleNeverRunsText('0 9 30 2 *')).toBe('The schedule "0 9 30 2 *" never runs again.');
  });
});
