import { describe, expect, it } from 'vitest';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { failure, lookup, saturday, window } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('and, or, & and + between databases', () => {
    it.each([
      ['#hcsm and #bcsm', ['#hcsm', '#bcsm']],
      ['#hcsm & #bcsm', ['#hcsm', '#bcsm']],
      ['#hcsm + #bcsm', ['#hcsm', '#bcsm']],
      ['#hcsm or #bcsm', ['#hcsm', '#bcsm']],
      ['#hcsm AND #bcsm last week', ['#hcsm', '#bcsm']],
      ['#hcsm, #bcsm and #lcsm', ['#hcsm', '#bcsm', '#lcsm']],
      ['"breast cancer" and group:Oncology', ['breast cancer', 'group:Oncology']],
      ['breast cancer and #bcsm', ['breast cancer', '#bcsm']],
      ['#hcsm and diabetes', ['#hcsm', 'diabetes']],
      ['4711 & 4712', ['4711', '4712']],
      ['#hcsm and last week', ['#hcsm']],
    ])('separates %j into %j', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it.each([
      ['diet and exercise', ['diet and exercise']],
      ['breast or lung cancer', ['breast or lung cancer']],
      ['"rock and roll"', ['rock and roll']],
    ])('keeps %j a phrase: a joiner between plain words is one of its words', (text, databases) => {
      expect(lookup(text).databases).toEqual(databases);
    });

    it('still reads "and" inside a range', () => {
      expect(window('#hcsm and #bcsm between jan 5 and jan 12', 'Asia/Kathmandu')).toEqual([
        '2026-01-05T00:00:00+05:45',
        '2026-01-13T00:00:00+05:45',
      ]);
    });

    it('still refuses an "and" no time or database stands beside', () => {
      expect(failure('#x 9am and 5pm')).toMatchObject({ reason: 'unrecognised', fragment: 'and' });
    });

    it.each([
      ['digest #hcsm and #bcsm every monday at 9am', ['#hcsm', '#bcsm']],
      ['digest #hcsm & #bcsm + "breast cancer" daily', ['#hcsm', '#bcsm', 'breast cancer']],
    ])('separates the databases of %j the same way', (text, databases) => {
      expect(parseDigestCommand(text, { now: saturday, zone: 'UTC' })).toMatchObject({
        kind: 'create',
        spec: { databases },
      });
    });
  });

  describe('closing punctuation', () => {
    it.each([
      ['#hcsm last week?', 'UTC', '2026-11-09T00:00:00+00:00', '2026-11-16T00:00:00+00:00'],
      [
        '#hcsm last week.',
        'America/New_York',
        '2026-11-09T00:00:00-05:00',
        '2026-11-16T00:00:00-05:00',
      ],
      [
        '#hcsm yesterday!',
        'Asia/Kathmandu',
        '2026-11-20T00:00:00+05:45',
        '2026-11-21T00:00:00+05:45',
      ],
      ['#hcsm since Oct 1?!', 'UTC', '2026-10-01T00:00:00+00:00', '2026-11-21T15:30:00+00:00'],
      [
        '"breast cancer"? since Sept. 1',
        'UTC',
        '2026-09-01T00:00:00+00:00',
        '2026-11-21T15:30:00+00:00',
      ],
      [
        '#hcsm, #bcsm. from 9 a.m. to 5 p.m. yesterday?',
        'Europe/London',
        '2026-11-20T09:00:00+00:00',
        '2026-11-20T17:00:00+00:00',
      ],
    ])('ignores the ? . ! that end %j', (text, zone, start, end) => {
      const request = lookup(text, zone);
      expect([request.start, request.end]).toEqual([start, end]);
      expect(request.databases.every((name) => !/[?.!]$/.test(name))).toBe(true);
    });

    it('keeps a word made only of punctuation, to report it', () => {
      expect(failure('#x ???')).toMatchObject({ reason: 'unrecognised', fragment: '???' });
    });
  });
});
