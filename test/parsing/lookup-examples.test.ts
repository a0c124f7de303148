import { describe, expect, it } from 'vitest';
import { lookup } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('the examples of the command grammar', () => {
    it.each([
      [
        '#pharma past 48 hours',
        'UTC',
        ['#pharma'],
        '2026-11-19T15:30:00+00:00',
        '2026-11-21T15:30:00+00:00',
        'UTC',
      ],
      [
        '"rare disease", group:12 since Oct 3',
        'UTC',
        ['rare disease', 'group:12'],
        '2026-10-03T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
        'UTC',
      ],
      [
        '#x from 2026-09-01 to 2026-09-08 tz Asia/Tokyo',
        'UTC',
        ['#x'],
        '2026-09-01T00:00:00+09:00',
        '2026-09-09T00:00:00+09:00',
        'Asia/Tokyo',
      ],
      [
        '#x last quarter',
        'America/Chicago',
        ['#x'],
        '2026-07-01T00:00:00-05:00',
        '2026-10-01T00:00:00-05:00',
        'America/Chicago',
      ],
      [
        '#x tuesday',
        'UTC',
        ['#x'],
        '2026-11-17T00:00:00+00:00',
        '2026-11-18T00:00:00+00:00',
        'UTC',
      ],
    ])('reads %s (%s)', (text, zone, databases, start, end, timezone) => {
      expect(lookup(text, zone)).toEqual({ databases, start, end, timezone, top: 10 });
    });
  });
});
