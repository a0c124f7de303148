import { describe, expect, it } from 'vitest';
import { failure, window } from './lookup-helpers.ts';

describe('one date convention per range', () => {
  it.each([
    ['#hcsm 1/11/2026 to 15/11/2026', '2026-11-01T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
    ['#hcsm from 15/11/2026 to 1/11/2026', 'inverted', ''],
    ['#hcsm 13/10/2026 - 2/11/2026', '2026-10-13T00:00:00+00:00', '2026-11-03T00:00:00+00:00'],
    [
      '#hcsm between 1/11/2026 9am and 15/11/2026 5pm',
      '2026-11-01T09:00:00+00:00',
      '2026-11-15T17:00:00+00:00',
    ],
    ['#hcsm 1/11 to 15/11', '2026-11-01T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
  ])('reads both ends of %j day first when one end proves it', (text, start, end) => {
    if (start === 'inverted') {
      expect(failure(text).reason).toBe('inverted_window');
      return;
    }
    expect(window(text)).toEqual([start, end]);
  });

  it.each([
    ['#hcsm 1/11/2026 to 5/11/2026', '2026-01-11T00:00:00+00:00', '2026-05-12T00:00:00+00:00'],
    ['#hcsm 10/2/2026 to 10/13/2026', '2026-10-02T00:00:00+00:00', '2026-10-14T00:00:00+00:00'],
    ['#hcsm 3/4/26', '2026-03-04T00:00:00+00:00', '2026-03-05T00:00:00+00:00'],
  ])('reads %j month first where no end decides', (text, start, end) => {
    expect(window(text)).toEqual([start, end]);
  });

  it('refuses a range that writes one end day first and the other month first', () => {
    const error = failure('#hcsm from 15/11/2026 to 11/20/2026');
    expect(error).toMatchObject({
      reason: 'bad_time',
      fragment: 'from 15/11/2026 to 11/20/2026',
    });
    expect(error.message).toContain('writes one date day first and the other month first');
  });
});
