import { describe, expect, it } from 'vitest';
import { compareRankings, rankChanges } from '../../src/model/rank-changes.ts';

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

describe('compareRankings', () => {
  const influencer = (screenName: string, rank: number, mentions: number) => ({
    screenName,
    rank,
    mentions,
  });

  it('pairs each account with its earlier self, keeping what the caller ranks', () => {
    const before = [influencer('a', 1, 50), influencer('B', 2, 40), influencer('c', 3, 30)];
    const now = [influencer('b', 1, 90), influencer('d', 2, 60), influencer('a', 3, 20)];
    expect(compareRankings(before, now)).toEqual({
      entries: [
        { account: now[0], previous: before[1], delta: 1 },
        { account: now[1] },
        { account: now[2], previous: before[0], delta: -2 },
      ],
      droppedOut: [before[2]],
    });
  });

  it('orders entries by current rank and departures by earlier rank', () => {
    const { entries, droppedOut } = compareRankings(ranked('z', 'y', 'x'), [
      { screenName: 'q', rank: 2 },
      { screenName: 'p', rank: 1 },
    ]);
    expect(entries.map((entry) => entry.account.screenName)).toEqual(['p', 'q']);
    expect(droppedOut.map((account) => account.screenName)).toEqual(['z', 'y', 'x']);
  });

  it('matches no one by an empty screen name', () => {
    const { entries, droppedOut } = compareRankings(ranked(''), ranked(''));
    expect(entries).toEqual([{ account: { screenName: '', rank: 1 } }]);
    expect(droppedOut).toEqual([{ screenName: '', rank: 1 }]);
  });
});
