import { describe, expect, it } from 'vitest';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { lookup, saturday } from './lookup-helpers.ts';

describe('counts in words and the natural orders', () => {
  it.each([
    ['#hcsm top ten last week', 10],
    ['#hcsm top three', 3],
    ['#hcsm top twenty last week', 20],
    ['#hcsm top twenty five', 25],
    ['#hcsm top twenty-five', 25],
    ['#hcsm top fifty', 50],
    ['#hcsm top a dozen', 12],
    ['#hcsm top a hundred', 100],
    ['#hcsm top one hundred', 100],
    ['#hcsm limit ten', 10],
    ['#hcsm top five hundred export', 500],
    ['#hcsm 10 influencers last week', 10],
    ['#hcsm 5 most retweeted', 5],
  ])('reads %j as top %i', (text, top) => {
    expect(lookup(text).top).toBe(top);
  });

  it.each([
    ['top 5 for #pharma this month', '#pharma this month top 5'],
    ['#hcsm top influencers last week', '#hcsm last week'],
    ['#hcsm top 10 influencers last week', '#hcsm last week top 10'],
    ['top ten for #pharma this month', '#pharma this month top 10'],
  ])('reads %j as %j', (text, canonical) => {
    expect(lookup(text)).toEqual(lookup(canonical));
  });

  it.each([
    ['the 10 most influential people in #hcsm last week', '#hcsm last week top 10'],
    ['ten top voices in #hcsm last week', '#hcsm last week top 10'],
    ['who were the 20 biggest voices in #bcsm this month', '#bcsm this month top 20'],
  ])('reads the question %j in a conversation as %j', (text, canonical) => {
    expect(parseLookup(text, { now: saturday, zone: 'UTC', conversation: true })).toEqual(
      lookup(canonical),
    );
  });

  it('reads a count in words in a digest', () => {
    expect(
      parseDigestCommand('digest #hcsm every monday at 9am top twenty', {
        now: saturday,
        zone: 'UTC',
      }),
    ).toMatchObject({ kind: 'create', spec: { top: 20 } });
  });
});
