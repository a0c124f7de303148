import { describe, expect, it } from 'vitest';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { readZoneName } from '../../src/parsing/index.ts';
import { failure, lookup, saturday } from './lookup-helpers.ts';

describe('zones as people name them', () => {
  it.each([
    ['#hcsm last week ET', 'America/New_York', 'ET'],
    ['#hcsm last week EST', 'America/New_York', 'EST'],
    ['#hcsm last week in EDT', 'America/New_York', 'EDT'],
    ['#hcsm last week in Eastern', 'America/New_York', 'Eastern'],
    ['#hcsm last week Eastern time', 'America/New_York', 'Eastern time'],
    ['#hcsm last week in US Eastern', 'America/New_York', 'US Eastern'],
    ['#hcsm last week PT', 'America/Los_Angeles', 'PT'],
    ['#hcsm last week in Pacific time', 'America/Los_Angeles', 'Pacific time'],
    ['#hcsm last week CT', 'America/Chicago', 'CT'],
    ['#hcsm last week Central time', 'America/Chicago', 'Central time'],
    ['#hcsm last week in MT', 'America/Denver', 'MT'],
    ['#hcsm last week in NYC', 'America/New_York', 'NYC'],
    ['#hcsm last week in LA', 'America/Los_Angeles', 'LA'],
    ['#hcsm last week in SF', 'America/Los_Angeles', 'SF'],
    ['#hcsm last week in DC', 'America/New_York', 'DC'],
    ['#hcsm last week tz Eastern time', 'America/New_York', 'Eastern time'],
  ])('reads %j in %s, saying how', (text, timezone, alias) => {
    expect(lookup(text)).toMatchObject({ timezone, zoneAlias: alias });
  });

  it.each([
    ['#hcsm last week in UTC+2', 'Etc/GMT-2', '+02:00', 'UTC+2'],
    ['#hcsm last week GMT+2', 'Etc/GMT-2', '+02:00', 'GMT+2'],
    ['#hcsm last week in UTC+5:30', 'Asia/Kolkata', '+05:30', 'UTC+5:30'],
    ['#hcsm last week GMT-3', 'Etc/GMT+3', '-03:00', 'GMT-3'],
  ])('reads %j at a fixed offset, stated as such', (text, timezone, offset, typed) => {
    const request = lookup(text);
    expect(request).toMatchObject({
      timezone,
      zoneAlias: `${typed} (a fixed offset, without summer time)`,
    });
    expect(request.start.endsWith(offset)).toBe(true);
  });

  it.each([
    ['#hcsm last week in Springfield', 'America/New_York, America/Chicago, America/Los_Angeles'],
    ['#hcsm last week in Washington', 'America/New_York, America/Los_Angeles'],
  ])('refuses %j, listing its zones, never guessing', (text, zones) => {
    const error = failure(text);
    expect(error.reason).toBe('unknown_zone');
    expect(error.message).toContain(`has several time zones (${zones})`);
  });

  it('refuses an offset no zone keeps all year', () => {
    expect(failure('#hcsm last week in UTC+3:30')).toMatchObject({
      reason: 'unknown_zone',
      message: expect.stringContaining('is an offset (+03:30) no time zone keeps all year'),
    });
  });

  it.each([
    ['CT scan last week', ['CT scan']],
    ['eastern medicine last week', ['eastern medicine']],
  ])('keeps %j a phrase: a zone word among its words is no zone', (text, databases) => {
    expect(lookup(text).databases).toEqual(databases);
  });

  it('reads the zone of a digest the same way', () => {
    expect(
      parseDigestCommand('digest #hcsm every monday at 9am Eastern time', {
        now: saturday,
        zone: 'UTC',
      }),
    ).toMatchObject({ kind: 'create', spec: { zone: 'America/New_York' } });
  });

  it.each([
    ['EST', 'America/New_York'],
    ['Tokyo', 'Asia/Tokyo'],
    ['Eastern time', 'America/New_York'],
    ['UTC+2', 'Etc/GMT-2'],
    ['Europe/Paris', 'Europe/Paris'],
    ['utc', 'UTC'],
  ])('reads the console zone %j as a lookup would: %s', (text, zone) => {
    expect(readZoneName(text)).toBe(zone);
  });

  it.each(['Mars', 'Springfield', ''])('refuses the console zone %j', (text) => {
    expect(readZoneName(text)).toBeInstanceOf(Error);
  });
});
