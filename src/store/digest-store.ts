/**
 * The former single-object store, delegating to the repositories of a {@link Database}: a bridge
 * for callers not yet moved to the repositories.
 */
import type { CanvasProblem, CanvasWrite } from '../model/canvas.ts';
import type {
  Digest,
  NewDigest,
  Outage,
  OutageCause,
  PauseReason,
  WorkspaceGone,
} from '../model/digest.ts';
import type { DigestRun } from '../model/digest-run.ts';
import type { ConferenceRepository } from './conferences.ts';
import type { Database } from './database.ts';
import type { Claim, ClaimOptions, DigestSettings } from './digests.ts';
import { type OpenDatabaseOptions, openDatabase } from './open.ts';
import type {
  BeginDeliveryResult,
  Completion,
  Delivery,
  DeliveryStart,
  LateCreator,
  OutageSkips,
  SkipRecord,
  SlotCompletion,
  UnconfirmedPost,
} from './runs.ts';
import type { SightingRepository } from './sightings.ts';

export type * from './digests.ts';
export type * from './runs.ts';

/** @deprecated Conferences and their canvases; see `ConferenceRepository` and `CanvasRepository`. */
export interface ConferenceStore extends ConferenceRepository {
  recordCanvas(id: string, write: CanvasWrite, now: Date): Promise<void>;
  claimCanvasCreation(id: string, now: Date, until: Date): Promise<boolean>;
  markCanvasTold(id: string, problem: CanvasProblem): Promise<boolean>;
}

/** @deprecated See `SightingRepository`. */
export type Sightings = SightingRepository;

/**
 * @deprecated The database as one object, kept only while callers move to {@link Database} and
 * its repositories; every method delegates to one of them.
 */
export interface DigestStore extends SightingRepository {
  readonly dialect: 'sqlite' | 'postgres';
  /** The conferences kept in the same database; absent in stores that keep none (test fakes). */
  readonly conferences?: ConferenceStore;
  /** The repositories this store delegates to. */
  readonly database: Database;
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

/** The conferences of `db` with their canvases, as one object. */
function conferenceStoreOf(db: Database): ConferenceStore {
  const { conferences, canvases } = db;
  return {
    create: (input, now) => conferences.create(input, now),
    get: (id) => conferences.get(id),
    listByChannel: (teamId, channelId) => conferences.listByChannel(teamId, channelId),
    listActive: (teamId) => conferences.listActive(teamId),
    claimDue: (now, options) => conferences.claimDue(now, options),
    saveState: (id, owner, state, now) => conferences.saveState(id, owner, state, now),
    finish: (id, owner, outcome, now) => conferences.finish(id, owner, outcome, now),
    releaseLease: (id, owner) => conferences.releaseLease(id, owner),
    beginPost: (id, key, owner, now) => conferences.beginPost(id, key, owner, now),
    completePost: (id, key, messageTs) => conferences.completePost(id, key, messageTs),
    abandonPost: (id, key) => conferences.abandonPost(id, key),
    posts: (id) => conferences.posts(id),
    requestStop: (id, now) => conferences.requestStop(id, now),
    dueNow: (teamId, channelId, now) => conferences.dueNow(teamId, channelId, now),
    update: (id, settings, now) => conferences.update(id, settings, now),
    recordCanvas: (id, write, now) => canvases.conferences.record(id, write, now),
    claimCanvasCreation: (id, now, until) => canvases.conferences.claimCreation(id, now, until),
    markCanvasTold: (id, problem) => canvases.conferences.markTold(id, problem),
  };
}

/** @deprecated `db` as one object; see {@link DigestStore}. */
export function digestStoreOf(db: Database): DigestStore {
  const { digests, runs, outages, canvases, sightings } = db;
  return {
    database: db,
    dialect: db.dialect,
    conferences: conferenceStoreOf(db),
    migrate: () => db.migrate(),
    ping: () => db.ping(),
    close: () => db.close(),
    firstSighting: (key, now, ttlMs) => sightings.firstSighting(key, now, ttlMs),
    create: (input: NewDigest, now: Date): Promise<Digest> => digests.create(input, now),
    get: (id) => digests.get(id),
    listByChannel: (teamId, channelId) => digests.listByChannel(teamId, channelId),
    listByCreator: (teamId, creatorId) => digests.listByCreator(teamId, creatorId),
    pause: (id, now, reason?: PauseReason) => digests.pause(id, now, reason),
    resume: (id, now, nextRunAt) => digests.resume(id, now, nextRunAt),
    remove: (id) => digests.remove(id),
    update: (id, settings: DigestSettings, now) => digests.update(id, settings, now),
    claimDue: (now, options: ClaimOptions): Promise<Claim[]> => digests.claimDue(now, options),
    beginDelivery: (digestId, slot, owner, now): Promise<BeginDeliveryResult> =>
      runs.beginDelivery(digestId, slot, owner, now),
    beginDeliveries: (starts: readonly DeliveryStart[]) => runs.beginDeliveries(starts),
    complete: (digestId, slot, completion: Completion) => runs.complete(digestId, slot, completion),
    completeMany: (completions: readonly SlotCompletion[]) => runs.completeMany(completions),
    recordSkipped: (digestId, slot, skip: SkipRecord) => runs.recordSkipped(digestId, slot, skip),
    getDelivery: (digestId, slot): Promise<Delivery | undefined> =>
      runs.getDelivery(digestId, slot),
    recentRuns: (digestId, limit): Promise<DigestRun[]> => runs.recent(digestId, limit),
    hasDelivered: (digestId, slot) => runs.hasDelivered(digestId, slot),
    releaseLease: (digestId, owner) => digests.releaseLease(digestId, owner),
    renewLeases: (owner, now, leaseMs) => digests.renewLeases(owner, now, leaseMs),
    abandonDelivery: (digestId, slot, owner) => runs.abandonDelivery(digestId, slot, owner),
    takeUnconfirmed: (now, startedBefore): Promise<UnconfirmedPost[]> =>
      runs.takeUnconfirmed(now, startedBefore),
    untakeUnconfirmed: (digestId, slot) => runs.untakeUnconfirmed(digestId, slot),
    retakeUnconfirmed: (digestId, slot, owner, by, now) =>
      runs.retakeUnconfirmed(digestId, slot, owner, by, now),
    openOutage: (teamId, cause: OutageCause, now, probeAt) =>
      outages.open(teamId, cause, now, probeAt),
    outages: (): Promise<Outage[]> => outages.list(),
    claimProbe: (teamId, now, nextProbeAt) => outages.claimProbe(teamId, now, nextProbeAt),
    closeOutage: (teamId) => outages.close(teamId),
    teamCreators: (teamId) => digests.teamCreators(teamId),
    outageSkips: (teamId, since): Promise<OutageSkips[]> => runs.outageSkips(teamId, since),
    lateCreators: (owner, since): Promise<LateCreator[]> => runs.lateCreators(owner, since),
    lateSkips: (owner, since, creator) => runs.lateSkips(owner, since, creator),
    pauseWorkspace: (teamId, kind: WorkspaceGone, now) => digests.pauseWorkspace(teamId, kind, now),
    workspacesGone: () => digests.workspacesGone(),
    pausedWhileGone: (teamId) => digests.pausedWhileGone(teamId),
    resumeFromGone: (id, now, nextRunAt) => digests.resumeFromGone(id, now, nextRunAt),
    recordCanvas: (id, write, now) => canvases.digests.record(id, write, now),
    claimCanvasCreation: (id, now, until) => canvases.digests.claimCreation(id, now, until),
    markCanvasTold: (id, problem) => canvases.digests.markTold(id, problem),
  };
}

/** @deprecated See {@link openDatabase}. */
export async function openDigestStore(options: OpenDatabaseOptions = {}): Promise<DigestStore> {
  return digestStoreOf(await openDatabase(options));
}
