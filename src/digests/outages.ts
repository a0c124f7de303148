import type { Logger } from '../logger.ts';
import type { Outage, OutageCause } from '../model/digest.ts';
import type { SlackMessage } from '../model/message.ts';
import type { DigestRepository } from '../store/digests.ts';
import type { OutageRepository } from '../store/outages.ts';
import type { RunRepository } from '../store/runs.ts';
import type { Clock } from './clock.ts';
import type { NotifyCreator } from './per-team.ts';
import {
  type RenderResumeNotice,
  type SkippedSlots,
  skippedSlots,
  tellCreatorsResumed,
} from './resumed.ts';

/** The DM to a workspace's admins when its digests go on hold; `cause` says why. */
export type RenderOutageNotice = (teamId: string, cause: OutageCause) => SlackMessage;

/** Tells a workspace's admins among `userIds` (those Slack says are admins or owners). */
export type NotifyAdmins = (
  teamId: string,
  userIds: readonly string[],
  message: SlackMessage,
) => Promise<void>;

export interface OutagesOptions {
  /** The workspaces' outage records. */
  readonly outages: OutageRepository;
  /** Whose admins are told: those who created the workspace's digests. */
  readonly digests: Pick<DigestRepository, 'teamCreators'>;
  /** What an outage skipped, told once it is over. */
  readonly runs: Pick<RunRepository, 'outageSkips'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly notifyAdmins: NotifyAdmins;
  /** Tells a digest's creator (`DigestPoster.notifyCreator`). */
  readonly notifyCreator: NotifyCreator;
  /** Without it the admins are not told; the outage is still logged. */
  readonly renderOutageNotice: RenderOutageNotice | undefined;
  /**
   * Once an outage is over, the DM to each creator whose digests skipped slots meanwhile; without
   * it the creators are not told (the skipped slots are still recorded and listed).
   */
  readonly renderResumeNotice: RenderResumeNotice | undefined;
  /** The wait before the first probe; each probe that meets the outage again doubles it. */
  readonly probeFirstMs: number;
  /** The longest wait between two probes. */
  readonly probeMaxMs: number;
}

/**
 * A circuit per workspace. A failure that concerns the whole app or workspace (`outageCause`)
 * opens it: the runner stops attempting that workspace's digests (the store no longer hands them
 * out), the instance that opened it logs it once and tells the admins who created digests there
 * once, and from then on one due digest is run now and then as a probe, at most one per workspace
 * per tick and never sooner than the backoff allows. The first probe that meets no outage closes
 * it and the digests go on by themselves; slots that grew too old meanwhile are recorded as skipped
 * for the outage, and the instance that closed it tells each creator whose digests skipped slots,
 * in one DM, which ones, with a way to run each now. Open circuits live in the store, so every
 * instance holds the same workspaces.
 */
export class Outages {
  readonly #options: OutagesOptions;
  /** Open outages as this instance last read or met them. */
  #open = new Map<string, OutageCause>();
  /** This tick's handling of each workspace's outage, so concurrent failures share one. */
  #meeting = new Map<string, Promise<void>>();
  /** The instant of the tick under way: outages open and probes are timed on the tick's clock. */
  #now: Date | undefined;

  constructor(options: OutagesOptions) {
    this.#options = options;
  }

  /** At the start of a tick at `now`: the open outages, as the store has them. */
  async load(now: Date): Promise<Outage[]> {
    this.#now = now;
    const outages = await this.#options.outages.list();
    this.#open = new Map(outages.map((outage) => [outage.teamId, outage.cause]));
    this.#meeting = new Map();
    return outages;
  }

  isOpen(teamId: string): boolean {
    return this.#open.has(teamId);
  }

  causeOf(teamId: string): OutageCause | undefined {
    return this.#open.get(teamId);
  }

  /** The wait after the `probes`-th probe: doubling from the first, up to the longest. */
  probeDelayMs(probes: number): number {
    const { probeFirstMs, probeMaxMs } = this.#options;
    return Math.min(probeMaxMs, probeFirstMs * 2 ** Math.max(0, probes));
  }

  /** Takes the workspace's probe when it is due, for this instance alone. */
  claimProbe(outage: Outage, now: Date): Promise<boolean> {
    const next = new Date(now.getTime() + this.probeDelayMs(outage.probes + 1));
    return this.#options.outages.claimProbe(outage.teamId, now, next);
  }

  /**
   * A run met an outage: the circuit opens (or stays open with this cause). Concurrent failures of
   * one workspace in a tick share one store write; only the instance that opened it logs it at
   * warning level and tells the admins.
   */
  met(teamId: string, cause: OutageCause, retryAfterMs?: number): Promise<void> {
    this.#open.set(teamId, cause);
    let meeting = this.#meeting.get(teamId);
    if (meeting === undefined) {
      meeting = this.#record(teamId, cause, retryAfterMs);
      this.#meeting.set(teamId, meeting);
    }
    return meeting;
  }

  /**
   * A probe met no outage: the workspace's digests go on, and the creators of those that skipped
   * slots meanwhile are told (by the one instance that closed it).
   */
  async cleared(outage: Outage): Promise<void> {
    const { teamId } = outage;
    this.#open.delete(teamId);
    if (!(await this.#options.outages.close(teamId))) return;
    this.#options.logger.info({ teamId }, 'digests of this workspace resume: the outage cleared');
    await this.#tellCreators(outage);
  }

  async #tellCreators(outage: Outage): Promise<void> {
    const { clock, logger, notifyCreator, renderResumeNotice } = this.#options;
    if (renderResumeNotice === undefined) return;
    try {
      const skips = await this.#options.runs.outageSkips(outage.teamId, outage.since);
      if (skips.length === 0) return;
      const skipped = new Map<string, SkippedSlots>(
        skips.map(({ digest, runs }) => [digest.id, skippedSlots(digest.schedule, runs)]),
      );
      logger.info(
        { teamId: outage.teamId, digests: skips.length },
        'telling creators which digest slots the outage skipped',
      );
      await tellCreatorsResumed(
        { notifyCreator, logger, renderResumeNotice },
        skips.map((skip) => skip.digest),
        this.#now ?? clock.now(),
        { cause: outage.cause, skipped },
      );
    } catch (error) {
      logger.warn(
        { err: error, teamId: outage.teamId },
        'could not tell the creators what the outage skipped',
      );
    }
  }

  async #record(
    teamId: string,
    cause: OutageCause,
    retryAfterMs: number | undefined,
  ): Promise<void> {
    const { outages, clock, logger } = this.#options;
    const now = this.#now ?? clock.now();
    const wait = Math.max(this.#options.probeFirstMs, retryAfterMs ?? 0);
    const opened = await outages.open(teamId, cause, now, new Date(now.getTime() + wait));
    if (!opened) {
      logger.debug({ teamId, cause }, 'digests of this workspace are still on hold');
      return;
    }
    logger.warn(
      { teamId, cause },
      'digests of this workspace are on hold until the outage clears; probing now and then',
    );
    await this.#tellAdmins(teamId, cause);
  }

  async #tellAdmins(teamId: string, cause: OutageCause): Promise<void> {
    const { digests, logger, notifyAdmins, renderOutageNotice } = this.#options;
    if (renderOutageNotice === undefined) return;
    try {
      const creators = await digests.teamCreators(teamId);
      if (creators.length > 0)
        await notifyAdmins(teamId, creators, renderOutageNotice(teamId, cause));
    } catch (error) {
      logger.warn({ err: error, teamId, cause }, 'could not tell the admins about the outage');
    }
  }
}
