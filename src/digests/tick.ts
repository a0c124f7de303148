import { LRUCache } from 'lru-cache';
import { Turns } from '../async/turns.ts';
import type { Logger } from '../logger.ts';
import type { Digest, Outage, SkipReason } from '../model/digest.ts';
import type { Claim, DigestRepository } from '../store/digests.ts';
import type { RunRepository } from '../store/runs.ts';
import { countRunsBetween, latestRunAtOrBefore, nextRunAfter, slotsKey } from '../time/schedule.ts';
import type { Clock } from './clock.ts';
import type { DeliveryOutcome } from './delivery.ts';
import type { Outages } from './outages.ts';
import type { AskQuestion, Questions } from './questions.ts';
import { type RunWindow, runWindow } from './run-window.ts';

/** What one tick did, for logs, the CLI's output and tests. */
export interface TickReport {
  claimed: number;
  posted: number;
  failed: number;
  /** Digests whose owed slots were all outside the grace window. */
  skipped: number;
  /**
   * Slots that may or may not have been posted: another runner started posting them and never
   * confirmed, or this runner's post ended in a way that may have reached Slack.
   */
  unconfirmed: number;
  paused: number;
  /**
   * Digests not attempted, or given back after a failure, because their workspace's digests are
   * on hold for an outage: their slots are still owed.
   */
  held: number;
  /** Digests run as probes of an outage. */
  probes: number;
  /**
   * Slots answered but not posted, for their digest's condition (only when changed, only new):
   * recorded as skipped with why.
   */
  quiet: number;
  analyticsCalls: number;
}

export interface TickOptions {
  readonly digests: Pick<DigestRepository, 'claimDue' | 'releaseLease'>;
  readonly runs: Pick<RunRepository, 'recordSkipped'>;
  readonly owner: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long a claim holds. */
  readonly leaseMs: number;
  /** A missed slot older than this is skipped, not posted. */
  readonly graceMs: number;
  /** Digests claimed per store call. */
  readonly claimBatchSize: number;
  /**
   * Most digests claimed and not yet finished at once (never below `claimBatchSize`): the tick
   * claims the next batch only once this leaves room for it.
   */
  readonly maxClaimed: number;
  /** Upper bound of digests one tick takes on. */
  readonly maxPerTick: number;
  readonly questions: Questions;
  readonly outages: Outages;
  /**
   * Posts the slot a claimed digest owes and moves the digest on to `next`; a probe is attempted
   * although its workspace is on hold.
   */
  readonly deliver: (
    digest: Digest,
    slot: Date,
    next: Date,
    tick: DueTick,
    probe: boolean,
  ) => Promise<DeliveryOutcome>;
  /** Called after every digest handled, for lease renewal. */
  readonly onDigestDone: () => void;
}

/** Far enough ahead to mean never: a schedule that has no slot after this one. */
const noNextRun = new Date(8.64e15);

/** How a claimed digest is handled: as usual, as its workspace's probe, or held for an outage. */
type ClaimMode = 'due' | 'probe' | 'held';

/**
 * One tick: claims the digests due at `now`, works out which slot each owes, records the slots
 * too old to post as skipped and hands the owed one to `deliver`. Its digests share one round of
 * analytics questions and the schedule math. It streams: at most `maxClaimed` digests are claimed
 * and unfinished at once, and the next batch is claimed as earlier ones finish, so what a tick
 * holds follows that bound and not how many digests are due. Workspaces on hold for an outage
 * (see `Outages`) first have their slots older than the grace window recorded as skipped for it,
 * then one due digest each run as a probe when the backoff allows; a probe that clears the outage
 * lets the workspace's digests be claimed in the same tick.
 */
export class DueTick {
  readonly now: Date;
  readonly report: TickReport = {
    claimed: 0,
    posted: 0,
    failed: 0,
    skipped: 0,
    unconfirmed: 0,
    paused: 0,
    held: 0,
    probes: 0,
    quiet: 0,
    analyticsCalls: 0,
  };
  readonly ask: AskQuestion;
  /**
   * True once the tick recorded slots it came to too late (`missed`), which their creators are
   * told of after the tick.
   */
  late = false;
  readonly #options: TickOptions;
  readonly #memo = new TickMemo();
  /**
   * Taken between two claim batches, so the first batches' questions go out (and their answers
   * come in) while the rest is claimed: a store that answers synchronously (SQLite) would
   * otherwise hold the event loop until every batch was claimed.
   */
  readonly #claimTurns = new Turns();
  /** Digests claimed and not yet finished. */
  #working = 0;
  /** Who waits for room or for the tick to drain, woken whenever a digest finishes. */
  #waiting: (() => void)[] = [];
  /** The first unexpected error of a digest's handling, thrown once the tick has drained. */
  #failure: { readonly error: unknown } | undefined;

  constructor(options: TickOptions, now: Date) {
    this.#options = options;
    this.now = now;
    this.ask = options.questions.round(this.report);
  }

  /** The window a slot covers. */
  windowOf(digest: Digest, slot: Date): RunWindow {
    return this.#memo.runWindow(digest, slot);
  }

  /** Resolves when every digest it claimed is finished. */
  async run(): Promise<void> {
    const { outages, graceMs } = this.#options;
    try {
      const onHold = await outages.load(this.now);
      const tooOld = new Date(this.now.getTime() - graceMs);
      for (const outage of onHold) {
        await this.#claimAll('held', { teamId: outage.teamId, dueBefore: tooOld });
      }
      // Settled before any probe, so a probe finds each workspace's slots as they now stand.
      await this.#until(0);
      const probes = Promise.all(
        onHold
          .filter((outage) => outage.probeAt.getTime() <= this.now.getTime())
          .map((outage) => this.#probe(outage)),
      );
      await this.#claimAll('due');
      if ((await probes).some((cleared) => cleared)) await this.#claimAll('due');
    } finally {
      // Claims already handed out finish (and give their leases back) even when a claim failed.
      await this.#until(0);
    }
    if (this.#failure) throw this.#failure.error;
  }

  /** Claims in batches, each once there is room for it, until none are left or the tick is full. */
  async #claimAll(
    mode: ClaimMode,
    only: { readonly teamId?: string; readonly dueBefore?: Date } = {},
  ): Promise<void> {
    const { digests, owner, leaseMs, claimBatchSize, maxClaimed, maxPerTick } = this.#options;
    const { report } = this;
    while (report.claimed < maxPerTick) {
      await this.#until(Math.max(maxClaimed, claimBatchSize) - claimBatchSize);
      const claims = await digests.claimDue(this.now, {
        limit: Math.min(claimBatchSize, maxPerTick - report.claimed),
        leaseMs,
        owner,
        ...only,
      });
      report.claimed += claims.length;
      for (const claim of claims) this.#work(this.#handleClaim(claim, mode));
      if (claims.length < claimBatchSize) break;
      await this.#claimTurns.next();
    }
  }

  /** Counts a claimed digest as worked on until `handled` settles. */
  #work(handled: Promise<unknown>): void {
    this.#working++;
    const finish = () => {
      this.#working--;
      for (const wake of this.#waiting.splice(0)) wake();
    };
    handled.then(finish, (error: unknown) => {
      this.#failure ??= { error };
      finish();
    });
  }

  /** Resolves once at most `most` claimed digests are unfinished. */
  async #until(most: number): Promise<void> {
    while (this.#working > most) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  /**
   * Runs one due digest of a workspace on hold, when no other instance probes it now; true when
   * it met no outage, which closes the workspace's outage.
   */
  async #probe(outage: Outage): Promise<boolean> {
    const { digests, owner, leaseMs, outages } = this.#options;
    const [claim] = await digests.claimDue(this.now, {
      limit: 1,
      leaseMs,
      owner,
      teamId: outage.teamId,
    });
    if (claim === undefined) return false;
    if (!(await outages.claimProbe(outage, this.now))) {
      await digests.releaseLease(claim.digest.id, owner);
      return false;
    }
    this.report.claimed++;
    this.report.probes++;
    const probed = this.#handleClaim(claim, 'probe');
    this.#work(probed);
    const outcome = await probed;
    // Only a run that reached its end says the outage cleared: posted, quiet, or failed for a
    // reason of the digest's own. Another runner's slot, or a post Slack never confirmed, says
    // nothing either way.
    if (outcome !== 'posted' && outcome !== 'quiet' && outcome !== 'failed') return false;
    await outages.cleared(outage);
    return true;
  }

  async #handleClaim(claim: Claim, mode: ClaimMode): Promise<DeliveryOutcome | undefined> {
    const { digests, owner, logger, graceMs, outages } = this.#options;
    const { digest } = claim;
    const now = this.now;
    const cause = mode === 'probe' ? undefined : outages.causeOf(digest.teamId);
    const reason: SkipReason = cause === undefined ? { kind: 'missed' } : { kind: 'outage', cause };
    try {
      const latest = this.#memo.latestRunAtOrBefore(digest, now);
      const slot = latest && latest.getTime() > claim.slot.getTime() ? latest : claim.slot;
      if (now.getTime() - slot.getTime() > graceMs) {
        await this.#skip(digest, claim.slot, new Date(now.getTime() + 1), reason);
        this.report.skipped++;
        return undefined;
      }
      if (slot.getTime() > claim.slot.getTime()) {
        await this.#skipOlder(digest, claim.slot, slot, reason);
      }
      if (mode === 'held') {
        await digests.releaseLease(digest.id, owner);
        this.report.held++;
        return 'held';
      }
      const next = this.#memo.nextRunAfter(digest, slot) ?? noNextRun;
      return await this.#options.deliver(digest, slot, next, this, mode === 'probe');
    } catch (error) {
      logger.error({ err: error, digestId: digest.id }, 'digest run could not be recorded');
      await digests.releaseLease(digest.id, owner).catch(() => undefined);
      return undefined;
    } finally {
      this.#options.onDigestDone();
    }
  }

  /** Records `from` .. before `until` as skipped and moves the digest to its first slot after. */
  async #skip(digest: Digest, from: Date, until: Date, reason: SkipReason): Promise<void> {
    const count = countRunsBetween(digest.schedule, from, until);
    const next = nextRunAfter(digest.schedule, new Date(until.getTime() - 1));
    await this.#recordSkipped(digest, from, count, next ?? noNextRun, reason);
    this.#options.logger.warn(
      { digestId: digest.id, firstMissed: from.toISOString(), missed: count, reason },
      'digest slots missed beyond the grace window were skipped',
    );
  }

  /** Older missed slots when a newer one is still inside grace: recorded, the lease kept. */
  async #skipOlder(digest: Digest, from: Date, latest: Date, reason: SkipReason): Promise<void> {
    const count = countRunsBetween(digest.schedule, from, latest);
    await this.#recordSkipped(digest, from, count, latest, reason);
    this.#options.logger.warn(
      { digestId: digest.id, firstMissed: from.toISOString(), missed: count, reason },
      'older missed digest slots were skipped; the latest is still owed',
    );
  }

  #recordSkipped(
    digest: Digest,
    from: Date,
    count: number,
    nextRunAt: Date,
    reason: SkipReason,
  ): Promise<void> {
    const { runs, owner, clock } = this.#options;
    if (reason.kind === 'missed') this.late = true;
    return runs.recordSkipped(digest.id, from, {
      owner,
      at: clock.now(),
      reason,
      count,
      nextRunAt,
    });
  }
}

/** Results of the schedule math a tick keeps, the least recently used dropped first. */
const memoKept = 1000;

/**
 * The schedule math of one tick, computed once per distinct (schedule, window, instant) while it
 * is kept: digests due together mostly share a handful of schedules ("Mondays at 09:00
 * Europe/London"), and the cron and calendar work would otherwise run for each of thousands of
 * digests.
 */
class TickMemo {
  readonly #values = new LRUCache<string, { readonly value: unknown }>({ max: memoKept });

  #get<T>(key: string, compute: () => T): T {
    const kept = this.#values.get(key);
    if (kept !== undefined) return kept.value as T;
    const value = compute();
    this.#values.set(key, { value });
    return value;
  }

  latestRunAtOrBefore(digest: Digest, now: Date): Date | undefined {
    return this.#get(`latest\u0000${slotsKey(digest.schedule)}\u0000${now.getTime()}`, () =>
      latestRunAtOrBefore(digest.schedule, now),
    );
  }

  nextRunAfter(digest: Digest, slot: Date): Date | undefined {
    return this.#get(`next\u0000${slotsKey(digest.schedule)}\u0000${slot.getTime()}`, () =>
      nextRunAfter(digest.schedule, slot),
    );
  }

  runWindow(digest: Digest, slot: Date): RunWindow {
    const { cadence } = digest.schedule;
    const key = `window\u0000${slotsKey(digest.schedule)}\u0000${cadence}\u0000${JSON.stringify(digest.window)}\u0000${slot.getTime()}`;
    return this.#get(key, () => runWindow(digest, slot));
  }
}
