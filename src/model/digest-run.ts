/**
 * A digest's run history as plain data: one record per slot, posted or not and why, with the
 * window it covered and its top N. Written by the store with the slot's delivery record, read by
 * `digest history`, the Home tab and the channel canvas.
 */
import type { ErrorDetail, SkipReason } from './digest.ts';
import type { ErrorCode } from './error-codes.ts';
import type { Metric } from './metrics.ts';

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
