import type { Logger } from '../logger.ts';
import type { Digest, DigestWindow } from '../model/digest.ts';
import type { Clock } from './clock.ts';
import type { AskQuestion, Questions } from './questions.ts';
import {
  countRunsBetween,
  latestRunAtOrBefore,
  nextRunAfter,
  type RunWindow,
  runWindow,
} from './schedule.ts';
import type { Claim, DigestStore } from './store/store.ts';

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
  analyticsCalls: number;
}

export interface TickOptions {
  readonly store: DigestStore;
  readonly owner: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long a claim holds. */
  readonly leaseMs: number;
  /** A missed slot older than this is skipped, not posted. */
  readonly graceMs: number;
  /** Digests claimed per store call. */
  readonly claimBatchSize: number;
  /** Upper bound of digests one tick takes on. */
  readonly maxPerTick: number;
  readonly questions: Questions;
  /** Posts the slot a claimed digest owes and moves the digest on to `next`. */
  readonly deliver: (digest: Digest, slot: Date, next: Date, tick: DueTick) => Promise<void>;
  /** Called after every digest handled, for lease renewal. */
  readonly onDigestDone: () => void;
}

/** Far enough ahead to mean never: a schedule that has no slot after this one. */
const noNextRun = new Date(8.64e15);

/**
 * One tick: claims the digests due at `now`, works out which slot each owes, records the slots
 * too old to post as skipped and hands the owed one to `deliver`. Its digests share one round of
 * analytics questions and the schedule math.
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
    analyticsCalls: 0,
  };
  readonly ask: AskQuestion;
  readonly #options: TickOptions;
  readonly #memo = new TickMemo();

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
    const { store, owner, leaseMs, claimBatchSize, maxPerTick } = this.#options;
    const { report } = this;
    const work: Promise<void>[] = [];
    try {
      while (report.claimed < maxPerTick) {
        const claims = await store.claimDue(this.now, {
          limit: Math.min(claimBatchSize, maxPerTick - report.claimed),
          leaseMs,
          owner,
        });
        report.claimed += claims.length;
        for (const claim of claims) work.push(this.#handleClaim(claim));
        if (claims.length < claimBatchSize) break;
      }
    } finally {
      // Claims already handed out finish (and give their leases back) even when a claim failed.
      await Promise.all(work);
    }
  }

  async #handleClaim(claim: Claim): Promise<void> {
    const { store, owner, logger, graceMs } = this.#options;
    const { digest } = claim;
    const now = this.now;
    try {
      const latest = this.#memo.latestRunAtOrBefore(digest, now);
      const slot = latest && latest.getTime() > claim.slot.getTime() ? latest : claim.slot;
      if (now.getTime() - slot.getTime() > graceMs) {
        await this.#skip(digest, claim.slot, new Date(now.getTime() + 1));
        this.report.skipped++;
        return;
      }
      if (slot.getTime() > claim.slot.getTime()) await this.#skipOlder(digest, claim.slot, slot);
      const next = this.#memo.nextRunAfter(digest, slot) ?? noNextRun;
      await this.#options.deliver(digest, slot, next, this);
    } catch (error) {
      logger.error({ err: error, digestId: digest.id }, 'digest run could not be recorded');
      await store.releaseLease(digest.id, owner).catch(() => undefined);
    } finally {
      this.#options.onDigestDone();
    }
  }

  /** Records `from` .. before `until` as skipped and moves the digest to its first slot after. */
  async #skip(digest: Digest, from: Date, until: Date): Promise<void> {
    const count = countRunsBetween(digest.schedule, from, until);
    const next = nextRunAfter(digest.schedule, new Date(until.getTime() - 1));
    await this.#recordSkipped(digest, from, count, next ?? noNextRun);
    this.#options.logger.warn(
      { digestId: digest.id, firstMissed: from.toISOString(), missed: count },
      'digest slots missed beyond the grace window were skipped',
    );
  }

  /** Older missed slots when a newer one is still inside grace: recorded, the lease kept. */
  async #skipOlder(digest: Digest, from: Date, latest: Date): Promise<void> {
    const count = countRunsBetween(digest.schedule, from, latest);
    await this.#recordSkipped(digest, from, count, latest);
    this.#options.logger.warn(
      { digestId: digest.id, firstMissed: from.toISOString(), missed: count },
      'older missed digest slots were skipped; posting the latest',
    );
  }

  #recordSkipped(digest: Digest, from: Date, count: number, nextRunAt: Date): Promise<void> {
    const { store, owner, clock } = this.#options;
    return store.recordSkipped(digest.id, from, { owner, at: clock.now(), count, nextRunAt });
  }
}

/**
 * The schedule math of one tick, computed once per distinct (schedule, window, instant): digests
 * due together mostly share a handful of schedules ("Mondays at 09:00 Europe/London"), and the
 * cron and calendar work would otherwise run for each of thousands of digests.
 */
class TickMemo {
  readonly #values = new Map<string, unknown>();

  #get<T>(key: string, compute: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = compute();
    this.#values.set(key, value);
    return value;
  }

  latestRunAtOrBefore(digest: Digest, now: Date): Date | undefined {
    const { expression, zone } = digest.schedule;
    return this.#get(`latest\u0000${expression}\u0000${zone}\u0000${now.getTime()}`, () =>
      latestRunAtOrBefore(digest.schedule, now),
    );
  }

  nextRunAfter(digest: Digest, slot: Date): Date | undefined {
    const { expression, zone } = digest.schedule;
    return this.#get(`next\u0000${expression}\u0000${zone}\u0000${slot.getTime()}`, () =>
      nextRunAfter(digest.schedule, slot),
    );
  }

  runWindow(digest: Digest, slot: Date): RunWindow {
    const { expression, zone, cadence } = digest.schedule;
    const key = `window\u0000${expression}\u0000${zone}\u0000${cadence}\u0000${windowKey(digest.window)}\u0000${slot.getTime()}`;
    return this.#get(key, () => runWindow(digest, slot));
  }
}

function windowKey(window: DigestWindow): string {
  return window.kind === 'last' ? `last ${window.amount} ${window.unit}` : window.kind;
}
