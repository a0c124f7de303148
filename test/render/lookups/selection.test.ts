import { describe, expect, it } from 'vitest';
import { filterWords, rankingWords, selectionLine } from '../../../src/render/lookups/selection.ts';

describe('filterWords', () => {
  it.each([
    [{ include: ['Doctor'], exclude: [] }, 'Doctors'],
    [{ include: ['Doctor', 'HCP'], exclude: [] }, 'Doctors and HCPs'],
    [
      { include: ['Patient Advocate', 'Caregiver', 'HCP'], exclude: [] },
      'Patient advocates, Caregivers and HCPs',
    ],
    [{ include: [], exclude: ['Org. Pharma'] }, 'Everyone but Pharma orgs'],
    [{ include: ['Doctor'], exclude: ['Org. Pharma'] }, 'Doctors, excluding Pharma orgs'],
  ] as const)('words %j as %j', (filter, words) => {
    expect(filterWords(filter)).toBe(words);
  });
});

describe('selectionLine', () => {
  const result = { influencers: [], selection: { pool: 500, matched: 37 } };

  it('says how many of the service top people the filter kept, and how many are shown', () => {
    const shown = {
      ...result,
      influencers: Array.from({ length: 10 }, (_, i) => ({
        rank: i + 1,
        screenName: `p${i}`,
        stakeholderCategories: [],
        metrics: {},
      })),
    };
    expect(
      selectionLine({ stakeholders: { include: ['Doctor'], exclude: [] } }, 'mentions', shown),
    ).toBe('Doctors among the top 500 by mentions: 37 · showing 10');
  });

  it('counts as shown no more than the answer shows: an export asks for all of them', () => {
    const many = {
      ...result,
      influencers: Array.from({ length: 37 }, (_, i) => ({
        rank: i + 1,
        screenName: `p${i}`,
        stakeholderCategories: [],
        metrics: {},
      })),
    };
    const doctors = { stakeholders: { include: ['Doctor'], exclude: [] } };
    expect(selectionLine({ ...doctors, top: 10 }, 'mentions', many)).toBe(
      'Doctors among the top 500 by mentions: 37 · showing 10',
    );
    expect(selectionLine({ ...doctors, top: 500 }, 'mentions', many)).toBe(
      'Doctors among the top 500 by mentions: 37 · showing 37',
    );
  });

  it('is absent without a filter', () => {
    expect(selectionLine({ orderBy: 'followers' }, 'mentions', result)).toBeUndefined();
  });
});

describe('rankingWords', () => {
  it('says a follower ranking is among the service top people by its metric', () => {
    expect(rankingWords({ orderBy: 'followers' }, 'impressions', result())).toBe(
      'ranked by followers, among the top 500 by impressions',
    );
    expect(rankingWords({}, 'impressions', result())).toBe('ranked by impressions');
  });

  function result() {
    return { influencers: [], selection: { pool: 500, matched: 500 } };
  }
});
