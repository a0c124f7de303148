/**
 * What a run records in its digest's history once it has its answer (see `DigestRun`): written
 * by the same statement that settles the slot's delivery record, so a runner killed at any point
 * neither loses a run nor records it twice.
 */
import type { InfluencersResult } from '../analytics/types.ts';
import { defined } from '../model/defined.ts';
import type { DigestRunDetails } from '../model/digest-run.ts';
import type { Metric } from '../model/metrics.ts';
import type { RankChanges } from '../model/rank-changes.ts';
import type { RunWindow } from './run-window.ts';

/** The record of a run that got its answer: its window, its top N, who came and went. */
export function runDetails(
  window: RunWindow | { readonly start: string; readonly end: string },
  result: InfluencersResult,
  top: number,
  metric: Metric,
  changes: RankChanges,
): DigestRunDetails {
  return {
    window: { start: window.start, end: window.end },
    metric,
    entries: result.influencers.slice(0, top).map((person) => ({
      rank: person.rank,
      handle: person.screenName,
      ...defined({ name: person.displayName, value: person.metrics[metric] }),
    })),
    entered: changes.newEntrants.map((account) => account.screenName),
    left: changes.droppedOut.map((account) => account.screenName),
  };
}
