import { describe, expect, it } from 'vitest';
import { rankChanges } from '../../src/model/rank-changes.ts';

const ranked = (...names: string[]) =>
  names.map((screenName, index) => ({ screenName, rank: index + 1 }));

describe('rankChanges', () => {
  it('reports a first run when there is nothing to compare with', () => {
    expect(rankChanges(undefined, ranked('a', 'b'))).toEqual({
      firstRun: true,
      newEntrants: [],
      movedUp: [],
      movedDown: [],
      droppedOut: [],
      unchanged: 0,
    });
  });

  it('finds entrants, moves with deltas and departures, ignoring the case of names', () => {
    expect(rankChanges(ranked('a', 'B', 'c', 'd'), ranked('d', 'b', 'e', 'a'))).toEqual({
      firstRun: false,
      newEntrants: [{ screenName: 'e', rank: 3 }],
      movedUp: [{ screenName: 'd', rank: 1, previousRank: 4, delta: 3 }],
      movedDown: [{ screenName: 'a', rank: 4, previousRank: 1, delta: -3 }],
      droppedOut: [{ screenName: 'c', rank: 3 }],
      unchanged: 1,
    });
  });

  it('reports no change for the same ranking', () => {
    expect(rankChanges(ranked('a', 'b'), ranked('a', 'b'))).toMatchObject({
      unchanged: 2,
      newEntrants: [],
      droppedOut: [],
    });
  });
});
