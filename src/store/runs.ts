/**
 * What happens to each slot of a digest: its delivery record, its place in the run history, and
 * the follow-up of slots that were skipped or never confirmed.
 *
 * The delivery record is the second mechanism exactly-once posting rests on (the lease is the
 * first, see `digests.ts`): a record per (digest, slot) with a unique key. `beginDelivery`
 * atomically marks the slot `posting` immediately before the message is sent and `complete` marks
 * it `posted` after. A runner that finds the slot `posting` or `posted` never sends it again, even
 * when its own lease expired while a slow post was still going. A record is terminal once
 * `posted`, `skipped` or `failed` by one runner: a late completion from another never rewrites it
 * (see `complete`).
 *
 * The batch forms (`beginDeliveries`, `completeMany`) give each item exactly what the single call
 * would, in one transaction (SQLite) or one set-based statement (PostgreSQL), so a tick of
 * thousands of digests costs a handful of round trips per batch instead of several per digest.
 */

import type {
  Digest,
  ErrorDetail,
  PauseReason,
  RankedAccount,
  RunOutcome,
  SkipReason,
} from '../model/digest.ts';
import type { DigestRun, DigestRunDetails } from '../model/digest-run.ts';
import type { ErrorCode } from '../model/error-codes.ts';

/**
 * Runs kept per digest: the 26 the channel's report shows (half a year of weekly runs) and room
 * for a day of hourly ones beyond; older ones are dropped as new ones are written.
 */
export const runsKept = 60;

export type DeliveryStatus = 'posting' | 'posted' | 'failed' | 'skipped';

/** The idempotency record of one (digest, slot). */
export interface Delivery {
  readonly digestId: string;
  readonly slot: Date;
  readonly status: DeliveryStatus;
  readonly owner: string;
  readonly startedAt: Date;
  readonly finishedAt?: Date;
  readonly messageTs?: string;
  readonly errorCode?: ErrorCode | 'unknown';
  readonly errorDetail?: ErrorDetail;
  /** For a `skipped` record: how many consecutive missed slots it stands for, this one included. */
  readonly skippedCount?: number;
  /** For a `skipped` record: why. */
  readonly skipReason?: SkipReason;
  /**
   * For a record left `posting` (unconfirmed), or `skipped` because a runner came to it too late:
   * when its digest's creator was told (see `takeUnconfirmed`, `takeLateSkips`).
   */
  readonly noticedAt?: Date;
  /** Who chose to post an unconfirmed slot again (see `retakeUnconfirmed`). */
  readonly repostBy?: string;
}

/** A digest's slots recorded as skipped for an outage, as the records keep them. */
export interface OutageSkips {
  readonly digest: Digest;
  /** Each record: `count` consecutive slots from `from`, in slot order. */
  readonly runs: readonly { readonly from: Date; readonly count: number }[];
}

/** One skipped record: the first of the slots it stands for. */
export interface SkippedSlot {
  readonly digestId: string;
  readonly slot: Date;
}

/** A creator of digests in one workspace. */
export interface LateCreator {
  readonly teamId: string;
  readonly creatorId: string;
}

/** A slot whose post may or may not have reached its channel: its runner never confirmed it. */
export interface UnconfirmedPost {
  readonly digest: Digest;
  readonly slot: Date;
  /** When its runner wrote the slot's `posting` record. */
  readonly startedAt: Date;
}

/**
 * `started`: this runner now owns the slot and may post. Otherwise the slot is already `posting`
 * (someone is sending it, or crashed while sending) or done, and must not be posted again.
 */
export type BeginDeliveryResult =
  | { readonly kind: 'started' }
  | { readonly kind: 'already'; readonly delivery: Delivery };

/** How a slot ended, written by `complete` in one transaction with the digest's bookkeeping. */
export interface Completion {
  readonly owner: string;
  /** `skipped`: answered, but not posted for the digest's condition (`skipReason`). */
  readonly outcome: RunOutcome;
  readonly skipReason?: SkipReason;
  readonly at: Date;
  readonly messageTs?: string;
  readonly errorCode?: ErrorCode | 'unknown';
  readonly errorDetail?: ErrorDetail;
  /** Replaces `lastRanking` (a posted run). */
  readonly ranking?: readonly RankedAccount[];
  /**
   * The digest's next slot. Applied only while `nextRunAt` is still at or before this slot, so a
   * late completion never moves a digest back. Absent for manual runs, which leave it alone.
   */
  readonly nextRunAt?: Date;
  /** Consecutive failures: 0 after a post, the previous count plus one after a failure. */
  readonly consecutiveFailures?: number;
  /** Pause the digest with this reason (too many consecutive failures). */
  readonly pauseReason?: PauseReason;
  /**
   * The run's window and top N for its history, written with the delivery record when the
   * completion may write that record (a posted, skipped or failed slot).
   */
  readonly run?: DigestRunDetails;
}

/** One item of `beginDeliveries`: the arguments of `beginDelivery`. */
export interface DeliveryStart {
  readonly digestId: string;
  readonly slot: Date;
  readonly owner: string;
  readonly now: Date;
}

/** One item of `completeMany`: the arguments of `complete`. */
export interface SlotCompletion {
  readonly digestId: string;
  readonly slot: Date;
  readonly completion: Completion;
}

export interface SkipRecord {
  readonly owner: string;
  readonly at: Date;
  readonly reason: SkipReason;
  /** How many slots were missed, `slot` being the first. */
  readonly count: number;
  /** The slot the runner moves on to (the latest in grace, or the next one in the future). */
  readonly nextRunAt: Date;
}

export interface RunRepository {
  /** Creates the (digest, slot) record as `posting`, or retakes a `failed` one; atomic. */
  beginDelivery(
    digestId: string,
    slot: Date,
    owner: string,
    now: Date,
  ): Promise<BeginDeliveryResult>;
  /**
   * `beginDelivery` for many slots at once, all or nothing; results are in the order of `starts`.
   * An item repeated in one call behaves as if the calls were made one after the other.
   */
  beginDeliveries(starts: readonly DeliveryStart[]): Promise<BeginDeliveryResult[]>;
  /**
   * Finishes a slot: delivery record, last run, failures, ranking, next slot, lease released.
   * The record and the last run change only when the completion may write the record: `posted`
   * over this owner's own `posting` record (or none), `failed` over this owner's `posting`, a
   * `failed` or no record, `skipped` over a `failed` or no record, `unconfirmed` while the record
   * is `posting` or absent. Otherwise (the
   * slot was `skipped`, `posted` or is being posted by another runner) only the next slot moves
   * forward and the completion's owner gives its lease back.
   */
  complete(digestId: string, slot: Date, completion: Completion): Promise<void>;
  /**
   * `complete` for many slots at once, all or nothing, applied in order (a digest listed twice
   * gets both completions, the later one last).
   */
  completeMany(completions: readonly SlotCompletion[]): Promise<void>;
  /**
   * Records missed slots as skipped and moves the digest on; the lease is released. A slot that
   * already has a record (another runner is posting it or settled it) keeps it and its last run.
   */
  recordSkipped(digestId: string, slot: Date, skip: SkipRecord): Promise<void>;
  getDelivery(digestId: string, slot: Date): Promise<Delivery | undefined>;
  /**
   * The digest's latest `limit` runs, newest first: one per slot, as `complete` and
   * `recordSkipped` wrote them (at least the latest `runsKept` are kept).
   */
  recent(digestId: string, limit: number): Promise<DigestRun[]>;
  /** True once the slot is `posted`. */
  hasDelivered(digestId: string, slot: Date): Promise<boolean>;
  /**
   * Removes the slot's `posting` record when `owner` holds it, for a post that certainly did not
   * reach Slack (rate limited, connection refused) and will be tried again after a wait: a crash
   * during that wait then leaves the slot to the next runner instead of `unconfirmed`. Returns
   * false when there was no such record.
   */
  abandonDelivery(digestId: string, slot: Date, owner: string): Promise<boolean>;

  /**
   * The slots left `posting` whose creator has not been told: written before `startedBefore`, by
   * a runner that no longer holds the digest's lease at `now` (it died, or ended the post
   * unconfirmed). Marks them told at `now` and returns them, each to one caller only however
   * many instances ask at once. Those of removed digests are gone with them.
   */
  takeUnconfirmed(now: Date, startedBefore: Date): Promise<UnconfirmedPost[]>;
  /** Gives back what `takeUnconfirmed` took, for a creator who could not be told yet. */
  untakeUnconfirmed(digestId: string, slot: Date): Promise<void>;
  /**
   * Takes an unconfirmed slot for a person who chose to post it again (`by`), as `owner`: once
   * its creator was told, from nobody else's earlier choice (or after such a post certainly
   * failed), atomically. Otherwise the record as it stands, which must not be posted again.
   */
  retakeUnconfirmed(
    digestId: string,
    slot: Date,
    owner: string,
    by: string,
    now: Date,
  ): Promise<BeginDeliveryResult>;

  /**
   * The workspace's digests with slots recorded as skipped for an outage since `since` (the
   * outage's start), oldest digest first: what its creators are told once the outage is over.
   */
  outageSkips(teamId: string, since: Date): Promise<OutageSkips[]>;
  /**
   * The creators of digests with slots recorded as skipped because a runner came to them too late
   * (the app was not running, or fell behind), not for an outage, and not yet told of, by any
   * runner: what a runner tells after a tick that skipped some, and on its first tick, so a runner
   * that stopped before telling leaves them to the next.
   */
  lateCreators(): Promise<LateCreator[]>;
  /**
   * Those skips of one creator's digests, oldest digest first, marked told at `now`: each record
   * goes to one caller only, however many instances ask at once.
   */
  takeLateSkips(creator: LateCreator, now: Date): Promise<OutageSkips[]>;
  /** Gives back what `takeLateSkips` took, for a creator who could not be told yet. */
  untakeLateSkips(records: readonly SkippedSlot[]): Promise<void>;
}
