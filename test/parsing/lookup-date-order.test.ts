import { describe, expect, it } from 'vitest';
import { ChoicesError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { failure, saturday, window } from './lookup-helpers.ts';

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
    ['#hcsm 10/2/2026 to 10/13/2026', '2026-10-02T00:00:00+00:00', '2026-10-14T00:00:00+00:00'],
    ['#hcsm 3/4/26', '2026-03-04T00:00:00+00:00', '2026-03-05T00:00:00+00:00'],
    ['#hcsm 11/1/2026 to 11/7/2026', '2026-11-01T00:00:00+00:00', '2026-11-08T00:00:00+00:00'],
  ])('reads %j month first where no end decides', (text, start, end) => {
    expect(window(text)).toEqual([start, end]);
  });

  it('reads ends that only the day-first reading keeps in one month in the locale', () => {
    const context = { now: saturday, zone: 'UTC' };
    const read = (locale: string): unknown =>
      parseLookup('#hcsm 1/11/2026 to 5/11/2026', { ...context, locale });
    expect(read('en-US')).toMatchObject({
      start: '2026-01-11T00:00:00+00:00',
      end: '2026-05-12T00:00:00+00:00',
    });
    expect(read('en-GB')).toMatchObject({
      start: '2026-11-01T00:00:00+00:00',
      end: '2026-11-06T00:00:00+00:00',
    });
  });

  it('asks which order was meant when no locale decides, each reading a command that reads', () => {
    const asked = parseLookup('#hcsm 3/11/2026 to 10/11/2026 doctors', {
      now: saturday,
      zone: 'UTC',
    });
    expect(asked).toBeInstanceOf(ChoicesError);
    const readings = (asked as ChoicesError).readings;
    expect(readings).toEqual([
      { meaning: 'Nov 3, 2026 to Nov 10, 2026', command: '#hcsm 2026-11-03 to 2026-11-10 doctors' },
      {
        meaning: 'Mar 11, 2026 to Oct 11, 2026',
        command: '#hcsm 2026-03-11 to 2026-10-11 doctors',
      },
    ]);
    for (const { command } of readings) {
      expect(parseLookup(command, { now: saturday, zone: 'UTC' })).toMatchObject({
        stakeholders: { include: ['Doctor'] },
      });
    }
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
