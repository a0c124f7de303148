/**
 * A digest's run history: one record per slot, written by the same statement that settles the
 * slot's delivery record, so a runner killed at any point neither loses a run nor records it
 * twice. `digest history <id>`, the Home tab and the channel's standing report read it back
 * through `DigestStore.recentRuns`, newest first.
 */
import type { InfluencersResult } from '../analytics/types.ts';
import { defined } from '../model/defined.ts';
import type { ErrorDetail, SkipReason } from '../model/digest.ts';
import type { ErrorCode } from '../model/error-codes.ts';
import type { Metric } from '../model/metrics.ts';
import type { RankChanges } from '../model/rank-changes.ts';
import type { RunWindow } from './run-window.ts';

/** One person of a run's top N. */
export interface DigestRunEntry {
  readonly rank: number;
  /** The screen name, without `@`. */
  readonly handle: string;
  /** The display name, when the service sent one. */
  readonly name?: string;
  /** The account's id on the network, when the service sent one. */
  readonly userId?: string;
  /** The value of the metric the run ranked by (`metric`), when the service sent it. */
  readonly value?: number;
}

/** What a run found, whether or not it posted: the window it covered and its top N. */
export interface DigestRunDetails {
  /** The window the run's question covered (ISO 8601 with the zone's offset). */
  readonly window: { readonly start: string; readonly end: string };
  /** The metric `value` is of. */
  readonly metric?: Metric;
  readonly entries: readonly DigestRunEntry[];
  /** Handles new in the top N since the previous run; empty on a first run. */
  readonly entered: readonly string[];
  /** Handles of the previous run's top N gone from this one. */
  readonly left: readonly string[];
}

/**
 * One slot of a digest as its history keeps it: posted, or not posted and why (`skipReason` for a
 * run its condition kept quiet or a slot missed, `errorCode` for a failure). A failed run knows
 * its window but has no ranking; a missed slot has neither.
 */
export interface DigestRun {
  readonly digestId: string;
  /** The scheduled instant (or the moment of a manual run). */
  readonly slot: Date;
  /** When the outcome was recorded. */
  readonly at: Date;
  readonly outcome: 'posted' | 'skipped' | 'failed';
  readonly skipReason?: SkipReason;
  readonly errorCode?: ErrorCode | 'unknown';
  readonly errorDetail?: ErrorDetail;
  readonly window?: { readonly start: string; readonly end: string };
  readonly metric?: Metric;
  readonly entries: readonly DigestRunEntry[];
  readonly entered: readonly string[];
  readonly left: readonly string[];
}

/**
 * Runs kept per digest: the 26 the channel's report shows (half a year of weekly runs) and room
 * for a day of hourly ones beyond; older ones are dropped as new ones are written.
 */
export const runsKept = 60;

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
