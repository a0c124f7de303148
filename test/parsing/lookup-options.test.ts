import { describe, expect, it } from 'vitest';
import { lookup, window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('options', () => {
    it.each([
      ['#x in europe/paris', 'Europe/Paris'],
      ['#x tz Asia/Kolkata', 'Asia/Kolkata'],
      ['#x tz:america/new_york', 'America/New_York'],
      ['#x TIMEZONE Australia/Sydney', 'Australia/Sydney'],
      ['#x in UTC', 'UTC'],
      ['#x tz asia/calcutta', 'Asia/Kolkata'],
      ['#x tz US/Eastern', 'America/New_York'],
    ])('reads the zone in %s as %s', (text, zone) => {
      expect(lookup(text, 'Europe/London').timezone).toBe(zone);
    });

    it('uses the caller zone without an option, and UTC when the caller has none', () => {
      expect(lookup('#x', 'asia/kolkata').timezone).toBe('Asia/Kolkata');
      expect(lookup('#x', '').timezone).toBe('UTC');
    });

    it('evaluates the window in a zone named after it', () => {
      expect(window('#x yesterday in America/New_York')).toEqual([
        '2026-11-20T00:00:00-05:00',
        '2026-11-21T00:00:00-05:00',
      ]);
    });

    it.each([
      ['#x top 1', 1],
      ['#x top 50', 50],
      ['#x LIMIT 20', 20],
      ['#x top:7', 7],
      ['#x', 10],
    ])('reads %s as top %i', (text, top) => {
      expect(lookup(text).top).toBe(top);
    });
  });
});
