import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { followUpRest, type LookupRequest, parseFollowUp } from '../../src/parsing/index.ts';
import { lookup, saturday } from './lookup-helpers.ts';

const zone = 'America/New_York';

/** `text` read as a follow-up to `previous` in New York at the reference instant. */
function followUp(text: string, previous: LookupRequest, now = saturday) {
  return parseFollowUp(text, previous, { now, zone });
}

function followed(text: string, previous: LookupRequest, now = saturday): LookupRequest {
  const result = followUp(text, previous, now);
  if (result === undefined || result instanceof ParseError) {
    throw new Error(`expected a follow-up for "${text}", got ${String(result)}`);
  }
  return result;
}

describe('followUpRest', () => {
  it.each([
    ['and for #lcsm?', '#lcsm?'],
    ['And #lcsm', '#lcsm'],
    ['what about #bcsm yesterday', '#bcsm yesterday'],
    ['and how about #bcsm', '#bcsm'],
    ['same for "breast cancer"', '"breast cancer"'],
    ['also for #lcsm', '#lcsm'],
    ['and by retweets?', 'by retweets?'],
    ['and doctors only?', 'doctors?'],
    ['and only nurses', 'nurses'],
    ['how about #only?', '#only?'],
  ])('reads %j as a follow-up asking %j', (text, rest) => {
    expect(followUpRest(text)).toBe(rest);
  });

  it.each([
    '#lcsm last week',
    'who drove #hcsm?',
    'andrology last week',
    'and',
    'what about',
    'help',
  ])('does not read %j as a follow-up', (text) => {
    expect(followUpRest(text)).toBeUndefined();
  });
});

describe('parseFollowUp', () => {
  const previous = lookup('#hcsm last month by impressions top 20 doctors', zone);

  it('keeps the window and every option the follow-up does not name', () => {
    expect(followed('and for #lcsm?', previous)).toEqual({ ...previous, databases: ['#lcsm'] });
  });

  it('narrows who is kept with `only`, keeping the window and the other options', () => {
    const before = lookup('#bcsm last month by followers top 5', zone);
    expect(followed('and doctors only?', before)).toEqual({
      ...before,
      stakeholders: { include: ['Doctor'], exclude: [] },
    });
  });

  it('changes only what the follow-up names', () => {
    const asked = followed('what about #bcsm and #lcsm yesterday?', previous);
    expect(asked.databases).toEqual(['#bcsm', '#lcsm']);
    expect([asked.start, asked.end]).toEqual([
      '2026-11-20T00:00:00-05:00',
      '2026-11-21T00:00:00-05:00',
    ]);
    expect(asked).toMatchObject({ metric: 'impressions', top: 20, presentation: 'table' });
    expect(asked.stakeholders).toEqual(previous.stakeholders);
    expect(followed('and by retweets?', previous)).toEqual({ ...previous, metric: 'retweets' });
    expect(followed('and for #lcsm top 5', previous)).toMatchObject({
      top: 5,
      metric: 'impressions',
    });
  });

  it('asks about the previous databases when the follow-up names none, phrases quoted', () => {
    const phrase = lookup('"breast cancer", #bcsm last week', zone);
    expect(followed('and by retweets', phrase)).toEqual({ ...phrase, metric: 'retweets' });
  });

  it('keeps a comparison and a trend with the window', () => {
    const compared = lookup('#hcsm last week vs previous period', zone);
    expect(followed('and for #lcsm', compared).compare).toEqual(compared.compare);
    const trend = lookup('#hcsm weekly', zone);
    expect(followed('and for #lcsm', trend)).toEqual({ ...trend, databases: ['#lcsm'] });
  });

  it('reads the window afresh when the follow-up names a zone', () => {
    const asked = followed('same for #lcsm in London', previous);
    expect(asked.timezone).toBe('Europe/London');
    expect(asked.start).not.toBe(previous.start);
  });

  it('never repeats an export or carries a person over', () => {
    const exported = lookup('#hcsm last week export', zone);
    expect(followed('and for #lcsm', exported).export).toBeUndefined();
    const person = lookup('@DrFerreiraI in #hcsm last month', zone);
    const asked = followed('and for #lcsm', person);
    expect(asked.person).toBeUndefined();
    expect(asked.databases).toEqual(['#lcsm']);
  });

  it('keeps a window across the US fall-back to the second (DST: 25-hour Nov 1)', () => {
    const autumn = lookup('#hcsm from Oct 31 to Nov 1', zone);
    expect([autumn.start, autumn.end]).toEqual([
      '2026-10-31T00:00:00-04:00',
      '2026-11-02T00:00:00-05:00',
    ]);
    const asked = followed('and for #lcsm?', autumn);
    expect([asked.start, asked.end, asked.timezone]).toEqual([autumn.start, autumn.end, zone]);
  });

  it('answers a follow-up the grammar refuses with the parser’s own words', () => {
    const refused = followUp('and for #lcsm from Nov 15 to Nov 1', previous);
    expect(refused).toBeInstanceOf(ParseError);
    expect((refused as ParseError).message).toMatch(/Nov 15/);
  });

  it('leaves text that is not a follow-up to be read on its own', () => {
    expect(followUp('#lcsm yesterday', previous)).toBeUndefined();
  });
});
