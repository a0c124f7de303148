/**
 * How a ranking moved since an earlier one: a lookup compared with its previous period, a digest
 * run with the run before it. One comparison serves both, so a compared answer and a digest say
 * "▲3", "new" and "dropped out" of the same people. Pure; screen names compare case-insensitively,
 * as Twitter/X treats them, and an account without a screen name matches no one.
 */
import type { RankedAccount } from './digest.ts';

/** One account of the current ranking beside its place in the earlier one. */
export interface RankedEntry<T extends RankedAccount> {
  readonly account: T;
  /** The same account in the earlier ranking; absent when it is new there. */
  readonly previous?: T;
  /** Places gained (positive) or lost (negative); absent when new. */
  readonly delta?: number;
}

export interface RankComparison<T extends RankedAccount> {
  /** Every account of the current ranking, by current rank. */
  readonly entries: readonly RankedEntry<T>[];
  /** In the earlier ranking, absent from the current one; by earlier rank. */
  readonly droppedOut: readonly T[];
}

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

const keyOf = (account: RankedAccount): string => account.screenName.toLowerCase();

/**
 * Each account of `current` with its earlier place in `previous`, and who left. Accounts carry
 * whatever the caller ranks (an influencer with its metrics, a stored ranked account), so the
 * caller reads both periods' figures from the entries.
 */
export function compareRankings<T extends RankedAccount>(
  previous: readonly T[],
  current: readonly T[],
): RankComparison<T> {
  const before = new Map<string, T>();
  for (const account of previous) {
    const key = keyOf(account);
    if (key.length > 0 && !before.has(key)) before.set(key, account);
  }
  const now = new Set(current.map(keyOf));
  const entries = [...current].sort(byRank).map((account): RankedEntry<T> => {
    const old = before.get(keyOf(account));
    return old === undefined
      ? { account }
      : { account, previous: old, delta: old.rank - account.rank };
  });
  const droppedOut = previous
    .filter((account) => keyOf(account).length === 0 || !now.has(keyOf(account)))
    .sort(byRank);
  return { entries, droppedOut };
}

/** A digest run's moves in summary, for the engine's `postWhen` and the post's lines. */
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
  const { entries, droppedOut } = compareRankings(previous, current);
  const newEntrants: RankedAccount[] = [];
  const movedUp: RankMove[] = [];
  const movedDown: RankMove[] = [];
  let unchanged = 0;
  for (const { account, previous: old, delta } of entries) {
    if (old === undefined || delta === undefined) {
      newEntrants.push(account);
      continue;
    }
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
  return { firstRun: false, newEntrants, movedUp, movedDown, droppedOut, unchanged };
}

/**
 * Whether `account` entered the top N (`entered`, with its place now) or left it (`left`, with its
 * place then) between two runs; undefined when it did neither. Screen names compare as X does,
 * whatever their case.
 */
export function accountMove(
  account: string,
  changes: RankChanges,
): { readonly kind: 'entered' | 'left'; readonly rank: number } | undefined {
  const key = account.replace(/^@+/u, '').toLowerCase();
  const same = (entry: { readonly screenName: string }) =>
    entry.screenName.replace(/^@+/u, '').toLowerCase() === key;
  const entered = changes.newEntrants.find(same);
  if (entered !== undefined) return { kind: 'entered', rank: entered.rank };
  const left = changes.droppedOut.find(same);
  return left === undefined ? undefined : { kind: 'left', rank: left.rank };
}
