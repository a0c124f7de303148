/**
 * Where digests and their deliveries live. One interface, two adapters (SQLite embedded by
 * default, PostgreSQL at scale), both held to the same contract suite.
 *
 * Exactly-once posting rests on two mechanisms:
 * - a lease: `claimDue` hands a due digest to one runner for `leaseMs`; if that runner dies, the
 *   digest is claimable again once the lease has expired;
 * - a delivery record per (digest, slot) with a unique key: `beginDelivery` atomically marks the
 *   slot `posting` immediately before the message is sent and `complete` marks it `posted` after. A
 *   runner that finds the slot `posting` or `posted` never sends it again, even when its own lease
 *   expired while a slow post was still going. A record is terminal once `posted`, `skipped` or
 *   `failed` by one runner: a late completion from another never rewrites it (see `complete`).
 *
 * Leases and due-ness compare instants taken from each runner's own clock (`now`), on both
 * adapters: instances must keep their clocks in sync (NTP). A clock that runs ahead by more than
 * the lease can take a digest another instance still holds (the delivery record still prevents a
 * second post, the slot is then recorded `unconfirmed`); one that runs ahead at all claims digests
 * that early.
 *
 * The batch forms (`beginDeliveries`, `completeMany`) give each item exactly what the single call
 * would, in one transaction (SQLite) or one set-based statement (PostgreSQL), so a tick of
 * thousands of digests costs a handful of round trips per batch instead of several per digest.
 */

import type { DigestRun, DigestRunDetails } from '../digests/runs.ts';
import type { ErrorCode } from '../errors.ts';
import type { CanvasProblem, CanvasWrite } from '../model/canvas.ts';
import type {
  Digest,
  ErrorDetail,
  NewDigest,
  Outage,
  OutageCause,
  PauseReason,
  RankedAccount,
  RunOutcome,
  SkipReason,
  WorkspaceGone,
} from '../model/digest.ts';
import type { ConferenceStore } from './conferences.ts';
import type { Sightings } from './sightings.ts';

export interface ClaimOptions {
  /** At most this many digests per call. */
  readonly limit: number;
  /** How long the claim holds before another runner may take the digest. */
  readonly leaseMs: number;
  /** Who holds the lease: unique per runner instance. */
  readonly owner: string;
  /**
   * Only this workspace's digests, whether or not it has an open outage. Without it, digests of
   * workspaces with an open outage are never claimed.
   */
  readonly teamId?: string;
  /** Only digests whose slot is at or before this instant (older than the grace window). */
  readonly dueBefore?: Date;
}

/** A due digest handed to one runner: `slot` is its `nextRunAt` when it was claimed. */
export interface Claim {
  readonly digest: Digest;
  readonly slot: Date;
  readonly leaseUntil: Date;
}

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
   * For a record left `posting` (unconfirmed): when its digest's creator was told (see
   * `takeUnconfirmed`).
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

/** What an edit sets; the schedule's next slot moves only with `nextRunAt`. */
export type DigestSettings = Pick<
  Digest,
  'schedule' | 'window' | 'top' | 'presentation' | 'postWhen'
> & {
  readonly metric: Digest['metric'];
  /** Absent: the digest keeps everyone, ranked by the metric. */
  readonly stakeholders?: Digest['stakeholders'];
  readonly orderBy?: Digest['orderBy'];
  /** Keep a channel canvas or stop keeping one; absent leaves it as it is. */
  readonly canvas?: boolean;
  /** Set when the schedule changed: the digest's next slot from now on. */
  readonly nextRunAt?: Date;
};

export interface DigestStore extends Sightings {
  readonly dialect: 'sqlite' | 'postgres';
  /** The conferences kept in the same database; absent in stores that keep none (test fakes). */
  readonly conferences?: ConferenceStore;
  /** Applies pending migrations; returns how many ran. Safe with several instances at once. */
  migrate(): Promise<number>;
  /**
   * Resolves once the store answers a trivial statement (for `/healthz`). Like every other
   * method, throws `DigestStoreUnavailableError` when the store does not answer (a connection or
   * statement timed out, the connection was refused or closed).
   */
  ping(): Promise<void>;
  /** Stores a new digest under a fresh id (retried on the rare collision). */
  create(input: NewDigest, now: Date): Promise<Digest>;
  get(id: string): Promise<Digest | undefined>;
  listByChannel(teamId: string, channelId: string): Promise<Digest[]>;
  listByCreator(teamId: string, creatorId: string): Promise<Digest[]>;
  /** Throws DigestNotFoundError. `reason` is absent when a person paused it. */
  pause(id: string, now: Date, reason?: PauseReason): Promise<Digest>;
  /** Throws DigestNotFoundError. Clears the failure count and sets the next slot (after now). */
  resume(id: string, now: Date, nextRunAt: Date): Promise<Digest>;
  /** Returns false when there was no such digest. Its delivery records go with it. */
  remove(id: string): Promise<boolean>;
  /**
   * Changes a digest's settings (an edit); throws DigestNotFoundError. A new metric, or other
   * people kept or ranking by followers, forgets the previous ranking, which no longer compares.
   */
  update(id: string, settings: DigestSettings, now: Date): Promise<Digest>;

  /**
   * Atomically leases up to `limit` active digests whose `nextRunAt <= now` and whose lease is
   * absent or expired, oldest slot first. Concurrent callers never get the same digest. Without
   * `teamId`, the digests of one slot come grouped by what makes their question (databases, top,
   * metric, window, schedule), batch after batch, so a tick that keeps only a few answers still
   * asks each question once; a workspace's own claims (held slots, probes) take slot then id order.
   */
  claimDue(now: Date, options: ClaimOptions): Promise<Claim[]>;
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
  recentRuns(digestId: string, limit: number): Promise<DigestRun[]>;
  /** True once the slot is `posted`. */
  hasDelivered(digestId: string, slot: Date): Promise<boolean>;
  /** Gives a claim back without finishing it (shutdown); only the lease's owner can. */
  releaseLease(digestId: string, owner: string): Promise<void>;
  /**
   * Extends to `now + leaseMs` (never shortens) every lease `owner` still holds, so a tick that
   * outlasts the lease keeps the digests it is still working on; returns how many it extended. A
   * lease another runner took over after it expired is not touched.
   */
  renewLeases(owner: string, now: Date, leaseMs: number): Promise<number>;
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
   * Opens an outage for a workspace unless one is open; true only for the call that opened it, so
   * that one instance logs it and tells the admins. An open one keeps its start and takes `cause`
   * and a `probeAt` later than its own.
   */
  openOutage(teamId: string, cause: OutageCause, now: Date, probeAt: Date): Promise<boolean>;
  /** Every open outage; a handful at most. */
  outages(): Promise<Outage[]>;
  /**
   * Takes the workspace's next probe when it is due at `now`, moving it to `nextProbeAt`; true for
   * one caller only, however many instances try at once.
   */
  claimProbe(teamId: string, now: Date, nextProbeAt: Date): Promise<boolean>;
  /** Closes the workspace's outage; true for the call that closed it. */
  closeOutage(teamId: string): Promise<boolean>;
  /** Who created the workspace's active digests, to tell its admins about an outage. */
  teamCreators(teamId: string): Promise<string[]>;
  /**
   * The workspace's digests with slots recorded as skipped for an outage since `since` (the
   * outage's start), oldest digest first: what its creators are told once the outage is over.
   */
  outageSkips(teamId: string, since: Date): Promise<OutageSkips[]>;
  /**
   * The creators of digests whose slots runner `owner` recorded as skipped since `since` because
   * it came to them too late (the app was not running, or fell behind), not for an outage.
   */
  lateCreators(owner: string, since: Date): Promise<LateCreator[]>;
  /** Those skips of one creator's digests, oldest digest first: what the creator is told. */
  lateSkips(owner: string, since: Date, creator: LateCreator): Promise<OutageSkips[]>;

  /**
   * Pauses the workspace's active digests because the app left it (`kind`); returns how many. A
   * digest paused already keeps its own reason.
   */
  pauseWorkspace(teamId: string, kind: WorkspaceGone, now: Date): Promise<number>;
  /** Workspaces with digests paused because the app left them. */
  workspacesGone(): Promise<string[]>;
  /** The workspace's digests paused because the app left it, oldest first. */
  pausedWhileGone(teamId: string): Promise<Digest[]>;
  /**
   * Resumes a digest paused because the app left its workspace, at `nextRunAt`; undefined when it
   * is no longer paused for that (a person resumed or removed it meanwhile).
   */
  resumeFromGone(id: string, now: Date, nextRunAt: Date): Promise<Digest | undefined>;

  /**
   * Records a canvas write of the digest: the canvas written (which replaces the one recorded) and
   * no problem, or the write's problem (the canvas recorded stays).
   */
  recordCanvas(id: string, write: CanvasWrite, now: Date): Promise<void>;
  /**
   * Takes the creation of the digest's canvas until `until`, so that of runners writing it at
   * once (a scheduled run beside Run now, two instances) only one creates it; true for that one.
   * False once a canvas is recorded, or while another runner holds it. `recordCanvas` releases it.
   */
  claimCanvasCreation(id: string, now: Date, until: Date): Promise<boolean>;
  /**
   * Marks `problem` told to the digest's creator; true for the one caller that marked it, so the
   * creator is told once per problem however many instances meet it.
   */
  markCanvasTold(id: string, problem: CanvasProblem): Promise<boolean>;
  close(): Promise<void>;
}
