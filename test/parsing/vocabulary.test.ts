import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/errors.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import {
  fillerWords,
  followerWords,
  looseFormatWords,
  meaningOfTyped,
  metricWords,
  otherMetrics,
  phraseFillers,
  stakeholderWords,
  trendWords,
  vagueTimeWords,
} from '../../src/parsing/vocabulary.ts';
import { failure, lookup, saturday } from './lookup-helpers.ts';

/** The request a canonical command reads as, to compare a phrasing with. */
const same = (text: string) => lookup(text);

describe('the vocabulary: a word the app knows is never part of a database', () => {
  describe('reads each word for what it is', () => {
    it.each([
      ['#hcsm last week please', '#hcsm last week'],
      ['#hcsm top people last week please', '#hcsm last week'],
      ['#hcsm top influencers last week', '#hcsm last week'],
      ['please #hcsm last week, thanks', '#hcsm last week'],
      ['breast cancer please last week', '"breast cancer" last week'],
      ['breast cancer influencers last week', '"breast cancer" last week'],
      ['top 5 for #pharma this month', '#pharma this month top 5'],
      ['#hcsm last week excel', '#hcsm last week export'],
      ['#hcsm last week download', '#hcsm last week export'],
      ['#hcsm last week as csv', '#hcsm last week export'],
      ['#hcsm last week export to excel', '#hcsm last week export'],
      ['#hcsm last week download as a csv file', '#hcsm last week export'],
      ['#hcsm last week xlsx', '#hcsm last week export'],
      ['#hcsm last week as a table', '#hcsm last week table'],
      ['#hcsm last week in a table', '#hcsm last week table'],
      ['#hcsm last week bar chart', '#hcsm last week chart'],
      ['#hcsm last week bar graph', '#hcsm last week chart'],
      ['#hcsm last week pie chart', '#hcsm last week chart categories'],
      ['#hcsm last week by category', '#hcsm last week chart categories'],
      ['#hcsm last week most retweeted', '#hcsm last week by retweets'],
      ['#hcsm last week most mentioned', '#hcsm last week by mentions'],
      ['#hcsm last week most influential', '#hcsm last week by hsg score'],
      ['#hcsm last week retweets', '#hcsm last week by retweets'],
      ['#hcsm W47', '#hcsm 2026-W47'],
      ['#hcsm w47 2025', '#hcsm 2025-W47'],
      ['#hcsm 2026W47', '#hcsm 2026-W47'],
      ['#hcsm week47', '#hcsm 2026-W47'],
      ['#hcsm wk47', '#hcsm 2026-W47'],
      ['people with diabetes #hcsm', '"people with diabetes", #hcsm'],
      ['the lancet last week', '"the lancet" last week'],
      ['#hcsm WHO last week', '#hcsm, "WHO" last week'],
      ['"top 10 tips" last week', '"top 10 tips" last week'],
    ])('%j is %j', (text, canonical) => {
      expect(lookup(text)).toEqual(same(canonical));
    });
  });

  describe('refuses a word for what it would mean', () => {
    it.each([
      ['#hcsm recently', 'recently', 'has no agreed length', '/influencers #hcsm last 7 days'],
      [
        '#hcsm last week by likes',
        'by likes',
        'There is no ranking by likes: rank by mentions, retweets (reposts)',
        '/influencers #hcsm last week by retweets',
      ],
      [
        '#hcsm last week by impresions',
        'by impresions',
        'did you mean “by impressions”?',
        '/influencers #hcsm last week by impressions',
      ],
      [
        '#hcsm last week vs previous perod',
        'previous perod',
        'did you mean “previous period”?',
        '/influencers #hcsm last week vs previous period',
      ],
      [
        '#hcsm timeline',
        'timeline',
        'name the period instead (weekly, by day, by month)',
        '/influencers #hcsm weekly',
      ],
      [
        'breast cancer excel last week',
        'breast cancer excel',
        'Put the database in quotes ("breast cancer" excel)',
        '/influencers "breast cancer" excel last week',
      ],
      [
        'excel training last week',
        'excel training',
        'If “excel training” is a database, put it in quotes',
        '/influencers "excel training" last week',
      ],
      [
        'breast please cancer',
        'breast please cancer',
        'put it in quotes',
        '/influencers "breast please cancer"',
      ],
      [
        '#hcsm by popularity',
        'by popularity',
        'rank by mentions, retweets (reposts), tweets (posts), impressions (reach), replies or HSG score',
        '/influencers #hcsm by mentions',
      ],
    ])('%j, quoting %j: %s', (text, fragment, words, command) => {
      const error = failure(text);
      expect(error.fragment).toBe(fragment);
      expect(error.message).toContain(words);
      expect(error.message).toMatch(new RegExp(`Try: ${literal(command)}$`));
    });
  });

  it('reads a question alike in a conversation and after the slash command', () => {
    const text = 'top people #hcsm last week please';
    for (const conversation of [true, false]) {
      expect(parseLookup(text, { now: saturday, zone: 'UTC', conversation })).toEqual(
        same('#hcsm last week'),
      );
    }
  });

  it('leaves politeness out of a digest, and refuses a file it cannot post', () => {
    expect(
      parseDigestCommand('digest #hcsm every monday at 9am please', { now: saturday, zone: 'UTC' }),
    ).toMatchObject({ kind: 'create', spec: { databases: ['#hcsm'] } });
    const refused = parseDigestCommand('digest #hcsm every monday at 9am excel', {
      now: saturday,
      zone: 'UTC',
    });
    expect(refused).toMatchObject({ reason: 'unrecognised', fragment: 'excel' });
    expect((refused as ParseError).message).toContain('a digest posts its ranking in the channel');
  });

  it('gives every word of the vocabulary a meaning the grammar acts on', () => {
    const words = [
      ...metricWords.keys(),
      ...otherMetrics.keys(),
      ...followerWords,
      ...stakeholderWords.keys(),
      ...trendWords,
      ...vagueTimeWords,
      ...looseFormatWords.keys(),
      ...fillerWords,
    ];
    for (const word of words) expect([word, meaningOfTyped(word)]).not.toEqual([word, undefined]);
  });

  it('never makes a database of a phrase holding a known word, whatever surrounds it', () => {
    const known = [
      'please',
      'excel',
      'download',
      'doctors',
      'followers',
      'likes',
      'weekly',
      'recently',
      'retweets',
      'top',
      'influencers',
      'bar',
      'pie',
      'most',
      'show',
    ];
    const words = ['breast', 'cancer', 'patient', 'safety', '#hcsm', 'last', 'week', ','];
    const text = fc
      .array(fc.constantFrom(...known, ...words), { minLength: 1, maxLength: 7 })
      .map((tokens) => tokens.join(' '));
    fc.assert(
      fc.property(text, (input) => {
        const result = parseLookup(input, { now: saturday, zone: 'UTC' });
        if (result instanceof ParseError) return;
        for (const database of result.databases) {
          const inside = database.split(' ').filter((word) => {
            const meaning = meaningOfTyped(word);
            return meaning !== undefined && !phraseFillers.has(word.toLowerCase());
          });
          expect([input, database, inside]).toEqual([input, database, []]);
        }
      }),
      { numRuns: 3_000 },
    );
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\"]/g, '\\$&');
}
