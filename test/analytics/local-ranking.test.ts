import { describe, expect, it } from 'vitest';
import {
  ranksLocally,
  selectLocally,
  serviceLimit,
  serviceMaxLimit,
} from '../../src/analytics/local-ranking.ts';
import type { Influencer } from '../../src/analytics/types.ts';

function person(rank: number, categories: string[], followersCount?: number): Influencer {
  return {
    rank,
    screenName: `p${rank}`,
    stakeholderCategories: categories.map((name) => ({ name })),
    metrics: { mentions: 1000 - rank },
    ...(followersCount === undefined ? {} : { followersCount }),
  };
}

const pool = [
  person(1, ['Org. Pharma'], 90_000),
  person(2, ['Doctor'], 500),
  person(3, ['Doctor', 'Researcher/Academic'], 12_000),
  person(4, [], 70),
  person(5, ['Patient Advocate'], 12_000),
  person(6, ['Doctor', 'Org. Pharma']),
];

describe('selectLocally', () => {
  it('leaves the service answer alone when nothing is chosen here', () => {
    const result = { influencers: pool };
    expect(ranksLocally({})).toBe(false);
    expect(serviceLimit({}, 10)).toBe(10);
    expect(selectLocally(result, {}, 3)).toBe(result);
  });

  it('keeps the people in an included category, ranked anew, and counts them', () => {
    const selected = selectLocally(
      { influencers: pool },
      { stakeholders: { include: ['Doctor'], exclude: [] } },
      2,
    );
    expect(selected.influencers.map((p) => [p.rank, p.screenName])).toEqual([
      [1, 'p2'],
      [2, 'p3'],
    ]);
    expect(selected.selection).toEqual({ pool: 6, matched: 3 });
  });

  it('drops anyone in an excluded category, even when also in an included one', () => {
    const selected = selectLocally(
      { influencers: pool },
      { stakeholders: { include: ['Doctor'], exclude: ['Org. Pharma'] } },
      10,
    );
    expect(selected.influencers.map((p) => p.screenName)).toEqual(['p2', 'p3']);
    expect(selected.selection).toEqual({ pool: 6, matched: 2 });
  });

  it('keeps everyone but the excluded, people without a category included', () => {
    const selected = selectLocally(
      { influencers: pool },
      { stakeholders: { include: [], exclude: ['Org. Pharma'] } },
      10,
    );
    expect(selected.influencers.map((p) => p.screenName)).toEqual(['p2', 'p3', 'p4', 'p5']);
  });

  it('ranks by followers, ties in the service order and unknown counts last', () => {
    const selected = selectLocally({ influencers: pool }, { orderBy: 'followers' }, 6);
    expect(selected.influencers.map((p) => [p.rank, p.screenName])).toEqual([
      [1, 'p1'],
      [2, 'p3'],
      [3, 'p5'],
      [4, 'p2'],
      [5, 'p4'],
      [6, 'p6'],
    ]);
    expect(serviceLimit({ orderBy: 'followers' }, 10)).toBe(serviceMaxLimit);
  });
});
