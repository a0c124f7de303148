/**
 * How a digest's ranking moved since its previous posted run: the part of a digest none of the
 * usual dashboards shows. Pure; screen names compare case-insensitively, as Twitter/X treats them.
 */
import type { RankedAccount } from './digest.ts';

export interface RankMove {
  readonly screenName: string;
  readonly rank: number;
  readonly previousRank: number;
  /** Places gained (positive) or lost (negative). */
  readonly delta: number;
}

export interface RankChanges {
  /** True when there is no previous run to compare with: every list below is empty. */
  readonly firstRun: boolean;
  /** In this run, absent from the previous one; by current rank. */
  readonly newEntrants: readonly RankedAccount[];
  /** By current rank. */
  readonly movedUp: readonly RankMove[];
  readonly movedDown: readonly RankMove[];
  /** In the previous run, absent from this one; by previous rank. */
  readonly droppedOut: readonly RankedAccount[];
  readonly unchanged: number;
}

function byRank(a: { rank: number }, b: { rank: number }): number {
  return a.rank - b.rank;
}

export function rankChanges(
  previous: readonly RankedAccount[] | undefined,
  current: readonly RankedAccount[],
): RankChanges {
  if (previous === undefined) {
    return {
      firstRun: true,
      newEntrants: [],
      movedUp: [],
      movedDown: [],
      droppedOut: [],
      unchanged: 0,
    };
  }
  const key = (account: RankedAccount) => account.screenName.toLowerCase();
  const before = new Map(previous.map((account) => [key(account), account]));
  const now = new Set(current.map(key));
  const newEntrants: RankedAccount[] = [];
  const movedUp: RankMove[] = [];
  const movedDown: RankMove[] = [];
  let unchanged = 0;
  for (const account of [...current].sort(byRank)) {
    const old = before.get(key(account));
    if (!old) {
      newEntrants.push(account);
      continue;
    }
    const delta = old.rank - account.rank;
    const move = {
      screenName: account.screenName,
      rank: account.rank,
      previousRank: old.rank,
      delta,
    };
    if (delta > 0) movedUp.push(move);
    else if (delta < 0) movedDown.push(move);
    else unchanged++;
  }
  const droppedOut = previous.filter((account) => !now.has(key(account))).sort(byRank);
  return { firstRun: false, newEntrants, movedUp, movedDown, droppedOut, unchanged };
}
