/**
 * The digests themselves: their rows, the leases that hand a due digest to one runner, and the
 * pauses of a workspace the app left. What happens to each slot (its delivery record and its
 * history) is the runs repository's (`runs.ts`).
 *
 * A lease is the first of the two mechanisms exactly-once posting rests on: `claimDue` hands a due
 * digest to one runner for `leaseMs`; if that runner dies, the digest is claimable again once the
 * lease has expired. Leases and due-ness compare instants taken from each runner's own clock
 * (`now`), on both dialects: instances must keep their clocks in sync (NTP). A clock that runs
 * ahead by more than the lease can take a digest another instance still holds (the delivery
 * record still prevents a second post, the slot is then recorded `unconfirmed`); one that runs
 * ahead at all claims digests that early.
 */
import type { Digest, NewDigest, PauseReason, WorkspaceGone } from '../model/digest.ts';

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

export interface DigestRepository {
  /** Stores a new digest under a fresh id (retried on the rare collision). */
  create(input: NewDigest, now: Date): Promise<Digest>;
  get(id: string): Promise<Digest | undefined>;
  listByChannel(teamId: string, channelId: string): Promise<Digest[]>;
  listByCreator(teamId: string, creatorId: string): Promise<Digest[]>;
  /** Throws DigestNotFoundError. `reason` is absent when a person paused it. */
  pause(id: string, now: Date, reason?: PauseReason): Promise<Digest>;
  /** Throws DigestNotFoundError. Clears the failure count and sets the next slot (after now). */
  resume(id: string, now: Date, nextRunAt: Date): Promise<Digest>;
  /** Returns false when there was no such digest. Its delivery records and runs go with it. */
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
  /** Gives a claim back without finishing it (shutdown); only the lease's owner can. */
  releaseLease(digestId: string, owner: string): Promise<void>;
  /**
   * Extends to `now + leaseMs` (never shortens) every lease `owner` still holds, so a tick that
   * outlasts the lease keeps the digests it is still working on; returns how many it extended. A
   * lease another runner took over after it expired is not touched.
   */
  renewLeases(owner: string, now: Date, leaseMs: number): Promise<number>;

  /** Who created the workspace's active digests, to tell its admins about an outage. */
  teamCreators(teamId: string): Promise<string[]>;
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
}
