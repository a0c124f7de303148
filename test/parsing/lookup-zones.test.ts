import { describe, expect, it } from 'vitest';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { failure, lookup, saturday } from './lookup-helpers.ts';

describe('parseLookup', () => {
  describe('zones as people name them', () => {
    it.each([
      ['#x in EST', 'America/New_York', 'EST'],
      ['#x since 9am EST', 'America/New_York', 'EST'],
      ['#x last week in ET', 'America/New_York', 'ET'],
      ['#x tz PT', 'America/Los_Angeles', 'PT'],
      ['#x in PDT', 'America/Los_Angeles', 'PDT'],
      ['#x CST yesterday', 'America/Chicago', 'CST'],
      ['#x in MT', 'America/Denver', 'MT'],
      ['#x in BST', 'Europe/London', 'BST'],
      ['#x CET', 'Europe/Paris', 'CET'],
      ['#x in CEST', 'Europe/Paris', 'CEST'],
      ['#x IST', 'Asia/Kolkata', 'IST'],
      ['#x tz JST', 'Asia/Tokyo', 'JST'],
      ['#x in AEDT', 'Australia/Sydney', 'AEDT'],
      ['#x in Boston', 'America/New_York', 'Boston'],
      ['#x in India', 'Asia/Kolkata', 'India'],
      ['#x in California', 'America/Los_Angeles', 'California'],
      ['#x in Nepal', 'Asia/Kathmandu', 'Nepal'],
      ['#x in the UK', 'Europe/London', 'the UK'],
      ['#x tz Boston', 'America/New_York', 'Boston'],
      ['#x in Tokyo', 'Asia/Tokyo', undefined],
      ['#x in London', 'Europe/London', undefined],
      ['#x in Europe/Paris', 'Europe/Paris', undefined],
      ['#x in GMT', 'UTC', undefined],
    ])('reads the zone of %j as %s, noting %j', (text, zone, alias) => {
      const request = lookup(text, 'Asia/Tokyo');
      expect(request.timezone).toBe(zone);
      expect(request.zoneAlias).toBe(alias);
    });

    it.each([
      // The representative zone decides summer time: EST in July is New York's daylight time.
      ['#x yesterday in EST', new Date('2026-07-15T12:00:00Z'), '2026-07-14T00:00:00-04:00'],
      ['#x yesterday in EST', saturday, '2026-11-20T00:00:00-05:00'],
      ['#x yesterday in Nepal', saturday, '2026-11-20T00:00:00+05:45'],
      [
        '#x yesterday in EST (the US fall-back day: 25 hours)',
        new Date('2026-11-02T15:00:00Z'),
        '2026-11-01T00:00:00-04:00',
      ],
    ])('evaluates %j at %s in the zone read', (text, now, start) => {
      expect(lookup(text.split(' (')[0] as string, 'UTC', now).start).toBe(start);
    });

    it.each([
      ['#x in the US', 'the US', 'America/New_York, America/Chicago, America/Los_Angeles'],
      ['#x in Australia', 'Australia', 'Australia/Sydney, Australia/Melbourne, Australia/Brisbane'],
      ['#x in Texas', 'Texas', 'America/Chicago, America/Denver'],
    ])('refuses %j, listing its zones', (text, fragment, zones) => {
      const error = failure(text);
      expect(error).toMatchObject({ reason: 'unknown_zone', fragment });
      expect(error.message).toContain(`has several time zones (${zones}`);
    });

    it.each([
      ['#x tz Europe/Londn', 'Europe/London'],
      ['#x tz Londn', 'Europe/London'],
      ['#x in Asia/Kathmandoo', 'Asia/Kathmandu'],
      ['#x tz America/New_Yrok', 'America/New_York'],
    ])('suggests the zone nearest to %j', (text, near) => {
      const error = failure(text);
      expect(error.reason).toBe('unknown_zone');
      expect(error.correction).toBe(near);
      expect(error.message).toContain(`did you mean ${near}?`);
    });

    it('reads the same names in a digest command', () => {
      expect(
        parseDigestCommand('digest #hcsm every monday at 9am EST', { now: saturday, zone: 'UTC' }),
      ).toMatchObject({ kind: 'create', spec: { zone: 'America/New_York' } });
      expect(
        parseDigestCommand('digest #hcsm daily in Nepal', { now: saturday, zone: 'UTC' }),
      ).toMatchObject({ kind: 'create', spec: { zone: 'Asia/Kathmandu' } });
    });

    it('keeps words that are also abbreviations apart from zones', () => {
      expect(lookup('#x CT scan').databases).toEqual(['#x', 'CT scan']);
      expect(lookup('#x in September').start).toBe('2026-09-01T00:00:00+00:00');
      expect(lookup('#x in the last week').start).toBe('2026-11-14T15:30:00+00:00');
    });
  });
});
