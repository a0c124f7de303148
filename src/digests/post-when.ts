import type { PostWhen, SkipReason } from '../model/digest.ts';
import { accountMove, type RankChanges } from '../model/rank-changes.ts';

/**
 * Why a scheduled run whose ranking moved by `changes` does not post under the digest's
 * `postWhen`; undefined when it posts. `changed` posts a first run (there is nothing to compare
 * with) and any run whose top N differs in who or in order; `new` records a first run without
 * posting it, then posts only when someone entered the top N, or, watching one `account`, only
 * when that account entered or left it.
 */
export function quietReason(
  postWhen: PostWhen,
  changes: RankChanges,
  account?: string,
): SkipReason | undefined {
  if (account !== undefined && postWhen === 'new') {
    if (changes.firstRun) return { kind: 'first_ranking' };
    return accountMove(account, changes) === undefined ? { kind: 'account_steady' } : undefined;
  }
  switch (postWhen) {
    case 'always':
      return undefined;
    case 'changed': {
      const moved =
        changes.newEntrants.length > 0 ||
        changes.movedUp.length > 0 ||
        changes.movedDown.length > 0 ||
        changes.droppedOut.length > 0;
      return changes.firstRun || moved ? undefined : { kind: 'unchanged' };
    }
    case 'new':
      if (changes.firstRun) return { kind: 'first_ranking' };
      return changes.newEntrants.length > 0 ? undefined : { kind: 'no_newcomer' };
  }
}
