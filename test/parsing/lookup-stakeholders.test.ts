import { describe, expect, it } from 'vitest';
import { ChoicesError, ParseError } from '../../src/errors.ts';
import { organisationCategories } from '../../src/model/stakeholders.ts';
import { parseLookup } from '../../src/parsing/index.ts';

const context = { now: new Date('2026-11-26T10:28:00Z'), zone: 'UTC' };
const read = (text: string) => {
  const request = parseLookup(text, context);
  if (request instanceof Error) throw request;
  return request;
};
const orgs = [...organisationCategories];

describe('parseLookup: who people are (issue 20)', () => {
  it.each<[string, string[], string[]]>([
    ['#hcsm last week doctors', ['Doctor'], []],
    ['#hcsm last week physicians', ['Doctor'], []],
    ['#hcsm last week only doctors and nurses', ['Doctor', 'HCP'], []],
    ['#hcsm last week HCPs', ['HCP'], []],
    ['#hcsm last week clinicians', ['HCP'], []],
    ['#hcsm last week patients', ['Patient Advocate'], []],
    ['#hcsm last week caregivers', ['Caregiver'], []],
    ['#hcsm last week researchers', ['Researcher/Academic'], []],
    ['#hcsm last week academics', ['Researcher/Academic'], []],
    ['#hcsm last week journalists', ['Journalist/Media'], []],
    ['#hcsm last week media', ['Journalist/Media'], []],
    ['#hcsm last week no media', [], ['Journalist/Media']],
    ['#hcsm last week industry', ['Org. Pharma'], []],
    ['#hcsm last week excluding industry', [], ['Org. Pharma']],
    ['#hcsm last week patient advocates', ['Patient Advocate'], []],
    [
      '#hcsm last week only patient advocates and caregivers',
      ['Patient Advocate', 'Caregiver'],
      [],
    ],
    ['#hcsm last week doctors and media', ['Doctor', 'Journalist/Media'], []],
    ['#hcsm last week pharma', ['Org. Pharma'], []],
    ['#hcsm last week providers', ['Org. Provider'], []],
    ['#hcsm last week organizations', orgs, []],
    ['#hcsm last week excluding orgs', [], orgs],
    ['#hcsm last week no pharma', [], ['Org. Pharma']],
    ['#hcsm last week without organizations', [], orgs],
    ['#hcsm tweets from doctors last week', ['Doctor'], []],
    [
      '#hcsm last week patients, caregivers without pharma',
      ['Patient Advocate', 'Caregiver'],
      ['Org. Pharma'],
    ],
  ])('reads %j', (text, include, exclude) => {
    expect(read(text).stakeholders).toEqual({ include, exclude });
  });

  it.each([
    ['#hcsm last week in Paris doctors', 'Europe/Paris'],
    ['#hcsm last week in Europe/Paris doctors', 'Europe/Paris'],
    ['#hcsm last week Paris time doctors', 'Europe/Paris'],
    ['#hcsm last week in Boston nurses', 'America/New_York'],
  ])('reads who people are after a zone or a place: %j', (text, zone) => {
    const request = read(text);
    expect(request.timezone).toBe(zone);
    expect(request.databases).toEqual(['#hcsm']);
    expect(request.stakeholders?.include).toHaveLength(1);
  });

  it('keeps a hashtag a database: #pharma is no filter', () => {
    const request = read('#pharma last week');
    expect(request.databases).toEqual(['#pharma']);
    expect(request.stakeholders).toBeUndefined();
  });

  it.each([
    ['#hcsm social media last week', ['#hcsm', 'social media']],
    ['health industry last week', ['health industry']],
    ['#hcsm patient safety last week', ['#hcsm', 'patient safety']],
  ])('leaves media and industry beside a word to the phrase: %j', (text, databases) => {
    expect(read(text)).toMatchObject({ databases });
    expect(read(text).stakeholders).toBeUndefined();
  });

  it('leaves a category word inside a quoted phrase to the phrase', () => {
    expect(read('"shift nurses" last week').stakeholders).toBeUndefined();
  });

  it.each([
    ['doctors in #hcsm last week', ['#hcsm'], 'UTC'],
    ['pharma on "breast cancer" last week', ['breast cancer'], 'UTC'],
    ['patients and caregivers for group:Oncology last week', ['group:Oncology'], 'UTC'],
    ['doctors in Paris #hcsm last week', ['#hcsm'], 'Europe/Paris'],
  ])('reads %j: an in before a marked database belongs to the filter', (text, databases, zone) => {
    expect(read(text)).toMatchObject({ databases, timezone: zone });
    expect(read(text).stakeholders?.include.length).toBeGreaterThan(0);
  });

  it('reads a DM asking for the top doctors in #hcsm', () => {
    const asked = parseLookup('who were the top doctors in #hcsm last month?', {
      ...context,
      conversation: true,
    });
    expect(asked).toEqual(read('#hcsm last month doctors'));
  });

  it('reads by followers beside a filter', () => {
    expect(read('#hcsm last week doctors by followers')).toMatchObject({
      orderBy: 'followers',
      stakeholders: { include: ['Doctor'], exclude: [] },
    });
  });
});

describe('a filter whose clauses cancel each other', () => {
  const now = new Date('2026-11-21T15:30:00Z');
  const read = (text: string) =>
    parseLookup(text, { now, zone: 'Europe/Paris', conversation: true });

  it('reads who people are before a non- word (doctors non-pharma)', () => {
    expect(read('#hcsm doctors non-pharma')).toMatchObject({
      stakeholders: { include: ['Doctor'], exclude: ['Org. Pharma'] },
    });
  });

  it.each([
    ['#hcsm top 10 pharma non-pharma', ['#hcsm top 10 pharma', '#hcsm top 10 non-pharma']],
    ['#hcsm doctors no doctors', ['#hcsm doctors', '#hcsm no doctors']],
    [
      '#hcsm last week pharma, excluding pharma top 5',
      ['#hcsm last week pharma top 5', '#hcsm last week excluding pharma top 5'],
    ],
    ['#hcsm doctors and nurses, no doctors', ['#hcsm doctors and nurses', '#hcsm no doctors']],
  ])('asks about %j: keep them, or leave them out', (text, commands) => {
    const error = read(text);
    expect(error).toBeInstanceOf(ChoicesError);
    const readings = (error as ChoicesError).readings;
    expect(readings.map((reading) => reading.command)).toEqual(commands);
    for (const { command } of readings) expect(read(command)).not.toBeInstanceOf(ParseError);
  });
});
