/**
 * Posts due digests. One tick (`runDue`) claims due digests, works out which slot each one owes,
 * asks each distinct analytics question once, and posts with per-channel pacing. Safe to run in
 * several instances and beside `digests run-due` at once: the store's lease keeps two runners off
 * the same digest and the (digest, slot) delivery record keeps a slot from being posted twice.
 *
 * Posting is at most once per slot, and a slot is lost only when a post may have reached Slack:
 * - The `posting` record is written inside the paced post step, immediately before
 *   chat.postMessage, never before a wait (channel pacing, the posts-at-once limit, a 429). A crash
 *   before it leaves no record: once the lease expires another runner posts the slot.
 * - A post that certainly did not reach Slack (429, connection refused, an `ok: false` Slack
 *   answer) gives its record back before waiting to try again, or ends the slot `failed`.
 * - A post that may have reached Slack (timeout or connection lost after sending, 5xx,
 *   `internal_error`/`fatal_error`) is never sent again: the slot is recorded `unconfirmed`.
 * - A crash between `posting` and `posted` leaves `posting`: the next runner does not post and
 *   records the slot `unconfirmed`; should the first runner merely have been slow, its later
 *   completion turns that into `posted`.
 * - A runner that finds the slot settled by another (`posted`, `skipped`) leaves that record and
 *   the last run as they are, and only gives its lease back.
 * Leases are renewed while a tick is still working on its digests, so a long tick (thousands of
 * posts paced at one per second per channel) keeps them; a runner that stops renewing (crashed,
 * frozen) loses them after `leaseMs`.
 *
 * Missed slots (process down, dyno asleep) are never burst: the latest slot still inside the grace
 * window is posted once, every older one is recorded as skipped.
 *
 * A tick's cost is the analytics fan-out plus the store writes. Each digest goes on as soon as its
 * own question is answered (not after every question of the tick), and its `posting` and `posted`
 * records are written in batches shared with the digests that reach the same step at the same
 * moment (see Coalescer): the posts starting together share one `posting` write, the posts
 * finishing together one `posted` write.
 *
 * Every instant comes from the runner's clock: instances must keep their clocks in sync (see
 * `DigestStore`).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import type { Logger } from '../logger.ts';
import { silentLogger } from '../logger.ts';
import type { Digest, DigestWindow, RankedAccount } from '../model/digest.ts';
import type { SlackMessage } from '../model/message.ts';
import { type RankChanges, rankChanges } from '../model/rank-changes.ts';
import { failureWords } from '../render/digest-failures.ts';
import { Coalescer } from './coalescer.ts';
import { classifyFailure, type Failure, mayHavePosted } from './failures.ts';
import {
  countRunsBetween,
  latestRunAtOrBefore,
  manualRunWindow,
  nextRunAfter,
  type RunWindow,
  runWindow,
} from './schedule.ts';
import type {
  BeginDeliveryResult,
  Claim,
  Completion,
  Delivery,
  DeliveryStart,
  DigestStore,
  SlotCompletion,
} from './store/store.ts';

/** Where digests go. Errors may be the app's (ChannelUnreachableError...) or Slack's own. */
export interface DigestPoster {
  post(channelId: string, message: SlackMessage): Promise<{ ts: string }>;
  /** A direct message to the digest's creator (pause notices). */
  notifyCreator(userId: string, message: SlackMessage): Promise<void>;
}

/** The runner's only source of time, so tests can drive ticks, backoff and pacing. */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => delay(ms),
};

/** May be async, so a renderer can look things up (the creator's display name) before it renders. */
export type RenderDigest = (
  digest: Digest,
  query: InfluencersQuery,
  result: InfluencersResult,
  changes: RankChanges,
) => SlackMessage | Promise<SlackMessage>;

/** The DM to a digest's creator when repeated failures paused it; `failure` says what to fix. */
export type RenderPauseNotice = (
  digest: Digest,
  failure: Pick<Failure, 'code' | 'channelProblem'>,
) => SlackMessage;

/**
 * The engine's own defaults for what the app's configuration also sets (`configDefaults`), so a
 * runner built without a configuration (the CLI, tests, benchmarks) behaves as the app does.
 */
export const digestRunnerDefaults = {
  tickMs: 30_000,
  graceMs: 60 * 60_000,
  maxConsecutiveFailures: 3,
} as const;

/** Analytics calls in flight at once unless `concurrency` says otherwise (see there why). */
export const defaultAnalyticsConcurrency = 16;

export interface DigestRunnerOptions {
  /** How long a claim holds. Default 5 minutes. */
  readonly leaseMs?: number;
  /**
   * How often a tick renews the leases of the digests it is still working on. Default a third of
   * `leaseMs`, so two renewals may fail before a lease runs out.
   */
  readonly leaseRenewalMs?: number;
  /** A missed slot older than this is skipped, not posted. Default 1 hour. */
  readonly graceMs?: number;
  /** Failed slots in a row before the digest pauses. Default 3. */
  readonly maxConsecutiveFailures?: number;
  /**
   * Analytics calls in flight at once. Default 16: the service is slow per request (hundreds of
   * milliseconds), not per concurrent request, so a tick of 500 distinct questions takes
   * 500 x latency / concurrency; 16 keeps that under 10 s at 200 ms while leaving half of the
   * analytics client's 32 sockets to interactive lookups. Identical questions never count twice:
   * the runner asks each once per tick and the client shares identical calls in flight.
   */
  readonly concurrency?: number;
  /** Channels posted to at once. Default 4. */
  readonly postConcurrency?: number;
  /** Between ticks of `start()`. Default 30 s. */
  readonly tickMs?: number;
  /** Minimum gap between two posts to one channel (Slack: about 1 per second). Default 1100 ms. */
  readonly channelIntervalMs?: number;
  /**
   * Attempts per analytics question, and per post for failures that certainly did not post
   * (429, connection refused, a transient `ok: false`). Default 3. A post that may have reached
   * Slack is never attempted again.
   */
  readonly attempts?: number;
  /** First backoff delay, doubled on each retry. Default 1 s. */
  readonly backoffMs?: number;
  /** Digests claimed per store call. Default 200. */
  readonly claimBatchSize?: number;
  /**
   * Most delivery records written per store call (`beginDeliveries`, `completeMany`). Default 500.
   * Batches form only from digests ready at the same moment, so a quiet tick writes one at a time.
   */
  readonly storeBatchSize?: number;
  /** Upper bound of digests one tick takes on. Default 10,000. */
  readonly maxPerTick?: number;
  /** Identifies this runner's leases; default a random id. */
  readonly owner?: string;
}

export interface DigestRunnerDeps {
  readonly store: DigestStore;
  readonly analytics: AnalyticsApi;
  readonly poster: DigestPoster;
  readonly renderDigest: RenderDigest;
  readonly renderPauseNotice: RenderPauseNotice;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly options?: DigestRunnerOptions;
}

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

export type RunNowResult =
  | { readonly outcome: 'posted'; readonly ts: string }
  | { readonly outcome: 'failed'; readonly failure: Failure }
  /** Slack may or may not have posted it (a timeout after sending); it is not sent again. */
  | { readonly outcome: 'unconfirmed'; readonly failure: Failure }
  | { readonly outcome: 'already' };

function newReport(): TickReport {
  return {
    claimed: 0,
    posted: 0,
    failed: 0,
    skipped: 0,
    unconfirmed: 0,
    paused: 0,
    analyticsCalls: 0,
  };
}

/** Runs at most `limit` of the given jobs at once. */
function limiter(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
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

class RunFailedError extends Error {
  readonly failure: Failure;

  constructor(failure: Failure, cause: unknown) {
    super(`digest run failed: ${failure.code}`, { cause });
    this.failure = failure;
  }
}

/**
 * The part of a question that decides its answer: digests asking the same one share a call. The
 * service merges the databases it is given, so their order does not change the answer.
 */
function questionKey(query: InfluencersQuery): string {
  const databases = [...query.databases].sort();
  return JSON.stringify([databases, query.start, query.end, query.timezone, query.limit]);
}

/** How one paced post step ended. */
type PostOutcome =
  | { readonly kind: 'posted'; readonly ts: string }
  /** The slot's record was there already: nothing was sent. */
  | { readonly kind: 'already'; readonly delivery: Delivery }
  /** The post may have reached Slack: not sent again, recorded `unconfirmed`. */
  | { readonly kind: 'unconfirmed'; readonly error: unknown };

type Attempt =
  | { readonly kind: 'sent'; readonly ts: string }
  | { readonly kind: 'already'; readonly delivery: Delivery }
  | { readonly kind: 'error'; readonly error: unknown };

export class DigestRunner {
  readonly owner: string;
  readonly #store: DigestStore;
  readonly #analytics: AnalyticsApi;
  readonly #poster: DigestPoster;
  readonly #renderDigest: RenderDigest;
  readonly #renderPauseNotice: RenderPauseNotice;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #leaseMs: number;
  readonly #leaseRenewalMs: number;
  readonly #graceMs: number;
  readonly #maxFailures: number;
  readonly #tickMs: number;
  readonly #channelIntervalMs: number;
  readonly #attempts: number;
  readonly #backoffMs: number;
  readonly #claimBatchSize: number;
  readonly #maxPerTick: number;
  readonly #analyticsSlot: <T>(job: () => Promise<T>) => Promise<T>;
  readonly #begins: Coalescer<DeliveryStart, BeginDeliveryResult>;
  readonly #completions: Coalescer<SlotCompletion, void>;
  readonly #postSlot: <T>(job: () => Promise<T>) => Promise<T>;
  /** Per channel: the tail of its post queue and when it was last posted to (clock ms). */
  readonly #channelTails = new Map<string, Promise<unknown>>();
  readonly #lastPostAt = new Map<string, number>();
  /** Per workspace: Slack said 429, wait until then (clock ms). */
  readonly #blockedUntil = new Map<string, number>();
  /** Counts steps done (answers, posts, digests finished): lease renewal needs it to move. */
  #progress = 0;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<unknown> | undefined;
  #stopped = true;

  constructor(deps: DigestRunnerDeps) {
    const options = deps.options ?? {};
    this.#store = deps.store;
    this.#analytics = deps.analytics;
    this.#poster = deps.poster;
    this.#renderDigest = deps.renderDigest;
    this.#renderPauseNotice = deps.renderPauseNotice;
    this.#clock = deps.clock ?? systemClock;
    this.#logger = deps.logger ?? silentLogger;
    this.owner = options.owner ?? `runner-${randomUUID()}`;
    this.#leaseMs = options.leaseMs ?? 5 * 60_000;
    this.#leaseRenewalMs = Math.max(1, options.leaseRenewalMs ?? this.#leaseMs / 3);
    this.#graceMs = options.graceMs ?? digestRunnerDefaults.graceMs;
    this.#maxFailures =
      options.maxConsecutiveFailures ?? digestRunnerDefaults.maxConsecutiveFailures;
    this.#tickMs = options.tickMs ?? digestRunnerDefaults.tickMs;
    this.#channelIntervalMs = options.channelIntervalMs ?? 1100;
    this.#attempts = Math.max(1, options.attempts ?? 3);
    this.#backoffMs = options.backoffMs ?? 1000;
    this.#claimBatchSize = options.claimBatchSize ?? 200;
    this.#maxPerTick = options.maxPerTick ?? 10_000;
    this.#analyticsSlot = limiter(Math.max(1, options.concurrency ?? defaultAnalyticsConcurrency));
    this.#postSlot = limiter(Math.max(1, options.postConcurrency ?? 4));
    const store = this.#store;
    const maxBatch = options.storeBatchSize ?? 500;
    // Two batches in flight: one being written while the next fills, and PostgreSQL's pool can
    // run both on separate connections.
    const maxInFlight = 2;
    this.#begins = new Coalescer({
      run: (starts) => store.beginDeliveries(starts),
      single: (start) => store.beginDelivery(start.digestId, start.slot, start.owner, start.now),
      maxBatch,
      maxInFlight,
    });
    this.#completions = new Coalescer({
      run: async (items) => {
        await store.completeMany(items);
        return items.map(() => undefined);
      },
      single: (item) => store.complete(item.digestId, item.slot, item.completion),
      maxBatch,
      maxInFlight,
    });
  }

  /** One tick: handle every digest due at `now`. Resolves when all of them are finished. */
  async runDue(now: Date = this.#clock.now()): Promise<TickReport> {
    this.#forgetPastPacing();
    const report = newReport();
    const answers = new Map<string, Promise<InfluencersResult>>();
    const memo = new TickMemo();
    const work: Promise<void>[] = [];
    const stopRenewing = this.#renewLeasesWhile();
    try {
      while (report.claimed < this.#maxPerTick) {
        const claims = await this.#store.claimDue(now, {
          limit: Math.min(this.#claimBatchSize, this.#maxPerTick - report.claimed),
          leaseMs: this.#leaseMs,
          owner: this.owner,
        });
        report.claimed += claims.length;
        for (const claim of claims) work.push(this.#handleClaim(claim, now, answers, report, memo));
        if (claims.length < this.#claimBatchSize) break;
      }
    } finally {
      // Claims already handed out finish (and give their leases back) even when a claim failed.
      await Promise.all(work);
      await stopRenewing();
    }
    if (report.claimed > 0) this.#logger.info({ ...report, owner: this.owner }, 'digest tick done');
    return report;
  }

  /**
   * Renews this runner's leases every `leaseRenewalMs` until the returned function is called, as
   * long as the tick made progress (an answer, a post, a digest finished) since the previous
   * beat: a tick stuck on something that never ends lets its leases run out, so that another
   * runner takes its digests over. A renewal that fails is logged and tried again at the next
   * beat: the lease still has two thirds of its time, and the delivery record keeps a retaken
   * slot from being posted twice.
   */
  #renewLeasesWhile(): () => Promise<void> {
    let running: Promise<unknown> = Promise.resolve();
    let seen = this.#progress;
    const timer = setInterval(() => {
      if (this.#progress === seen) {
        this.#logger.warn(
          { owner: this.owner },
          'digest tick made no progress; leases not renewed',
        );
        return;
      }
      seen = this.#progress;
      running = running.then(() =>
        this.#store.renewLeases(this.owner, this.#clock.now(), this.#leaseMs).then(
          (renewed) => this.#logger.debug({ renewed, owner: this.owner }, 'digest leases renewed'),
          (error: unknown) =>
            this.#logger.warn({ err: error, owner: this.owner }, 'digest leases not renewed'),
        ),
      );
    }, this.#leaseRenewalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  }

  /**
   * Posts a digest now, outside its schedule ("Run now"), covering the window that ends now. It
   * neither moves the schedule nor counts toward pausing.
   */
  async runNow(digest: Digest): Promise<RunNowResult> {
    const now = this.#clock.now();
    const slot = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const report = newReport();
    try {
      const query = this.#queryFor(digest, slot, true);
      const result = await this.#ask(query, new Map(), report);
      const { ranking, message } = await this.#compose(digest, query, result);
      const outcome = await this.#post(digest, slot, message, () =>
        this.#store.beginDelivery(digest.id, slot, this.owner, this.#clock.now()),
      );
      if (outcome.kind === 'already') return { outcome: 'already' };
      if (outcome.kind === 'unconfirmed') {
        const failure = classifyFailure(outcome.error);
        this.#logger.warn(
          { err: outcome.error, digestId: digest.id, code: failure.code },
          'manual digest post may or may not have reached Slack; not sending it again',
        );
        await this.#store.complete(digest.id, slot, {
          owner: this.owner,
          outcome: 'unconfirmed',
          at: this.#clock.now(),
          errorCode: failure.code,
        });
        return { outcome: 'unconfirmed', failure };
      }
      await this.#store.complete(digest.id, slot, {
        owner: this.owner,
        outcome: 'posted',
        at: this.#clock.now(),
        messageTs: outcome.ts,
        ranking,
      });
      return { outcome: 'posted', ts: outcome.ts };
    } catch (error) {
      const failure = error instanceof RunFailedError ? error.failure : classifyFailure(error);
      this.#logger.warn(
        {
          err: error instanceof RunFailedError ? error.cause : error,
          digestId: digest.id,
          code: failure.code,
        },
        'manual digest run failed',
      );
      await this.#store.complete(digest.id, slot, {
        owner: this.owner,
        outcome: 'failed',
        at: this.#clock.now(),
        errorCode: failure.code,
      });
      return { outcome: 'failed', failure };
    }
  }

  /** Runs ticks every `tickMs` until `stop()`; the timer does not keep the process alive. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const tick = () => {
      this.#timer = undefined;
      this.#inFlight = this.runDue()
        .catch((error: unknown) => this.#logger.error({ err: error }, 'digest tick failed'))
        .finally(() => {
          this.#inFlight = undefined;
          if (!this.#stopped) {
            this.#timer = setTimeout(tick, this.#tickMs);
            this.#timer.unref();
          }
        });
    };
    this.#timer = setTimeout(tick, 0);
    this.#timer.unref();
  }

  /** Stops the timer and waits for the tick in flight, so its claims finish or expire cleanly. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }

  async #handleClaim(
    claim: Claim,
    now: Date,
    answers: Map<string, Promise<InfluencersResult>>,
    report: TickReport,
    memo: TickMemo,
  ): Promise<void> {
    const { digest } = claim;
    try {
      const latest = memo.latestRunAtOrBefore(digest, now);
      const slot = latest && latest.getTime() > claim.slot.getTime() ? latest : claim.slot;
      if (now.getTime() - slot.getTime() > this.#graceMs) {
        await this.#skip(digest, claim.slot, new Date(now.getTime() + 1));
        report.skipped++;
        return;
      }
      if (slot.getTime() > claim.slot.getTime()) await this.#skipOlder(digest, claim.slot, slot);
      await this.#deliver(digest, slot, answers, report, memo);
    } catch (error) {
      this.#logger.error({ err: error, digestId: digest.id }, 'digest run could not be recorded');
      await this.#store.releaseLease(digest.id, this.owner).catch(() => undefined);
    } finally {
      this.#progress++;
    }
  }

  /** Records `from` .. before `until` as skipped and moves the digest to its first slot after. */
  async #skip(digest: Digest, from: Date, until: Date): Promise<void> {
    const count = countRunsBetween(digest.schedule, from, until);
    const next = nextRunAfter(digest.schedule, new Date(until.getTime() - 1));
    await this.#store.recordSkipped(digest.id, from, {
      owner: this.owner,
      at: this.#clock.now(),
      count,
      nextRunAt: next ?? new Date(8.64e15),
    });
    this.#logger.warn(
      { digestId: digest.id, firstMissed: from.toISOString(), missed: count },
      'digest slots missed beyond the grace window were skipped',
    );
  }

  /** Older missed slots when a newer one is still inside grace: recorded, the lease kept. */
  async #skipOlder(digest: Digest, from: Date, latest: Date): Promise<void> {
    const count = countRunsBetween(digest.schedule, from, latest);
    await this.#store.recordSkipped(digest.id, from, {
      owner: this.owner,
      at: this.#clock.now(),
      count,
      nextRunAt: latest,
    });
    this.#logger.warn(
      { digestId: digest.id, firstMissed: from.toISOString(), missed: count },
      'older missed digest slots were skipped; posting the latest',
    );
  }

  async #deliver(
    digest: Digest,
    slot: Date,
    answers: Map<string, Promise<InfluencersResult>>,
    report: TickReport,
    memo: TickMemo,
  ): Promise<void> {
    const next = memo.nextRunAfter(digest, slot) ?? new Date(8.64e15);
    // No pre-check of the delivery record: the analytics question is usually shared anyway, and
    // beginDelivery, right before the post, is the atomic check that matters.
    let outcome: PostOutcome;
    let ranking: RankedAccount[];
    try {
      const query = this.#queryFor(digest, slot, false, memo);
      const result = await this.#ask(query, answers, report);
      const composed = await this.#compose(digest, query, result);
      ranking = composed.ranking;
      outcome = await this.#post(digest, slot, composed.message, () =>
        this.#beginDelivery({
          digestId: digest.id,
          slot,
          owner: this.owner,
          now: this.#clock.now(),
        }),
      );
    } catch (error) {
      await this.#fail(digest, slot, next, error, report);
      return;
    }
    if (outcome.kind === 'already') {
      await this.#settleAlreadyHandled(digest, slot, outcome.delivery, next, report);
      return;
    }
    if (outcome.kind === 'unconfirmed') {
      const failure = classifyFailure(outcome.error);
      report.unconfirmed++;
      this.#logger.warn(
        { err: outcome.error, digestId: digest.id, slot: slot.toISOString(), code: failure.code },
        'digest post may or may not have reached Slack; not sending it again',
      );
      await this.#complete(digest.id, slot, {
        owner: this.owner,
        outcome: 'unconfirmed',
        at: this.#clock.now(),
        errorCode: failure.code,
        nextRunAt: next,
      });
      return;
    }
    // Posted: a failure to record it is not a failed run. It reaches #handleClaim, which gives
    // the lease back; the slot stays `posting`, so the next runner records it unconfirmed rather
    // than posting it again.
    await this.#complete(digest.id, slot, {
      owner: this.owner,
      outcome: 'posted',
      at: this.#clock.now(),
      messageTs: outcome.ts,
      ranking,
      nextRunAt: next,
      consecutiveFailures: 0,
    });
    report.posted++;
  }

  /**
   * The slot already had a record when this runner came to post it. Only a `posting` record
   * (another runner started and never confirmed) becomes an `unconfirmed` last run; a slot
   * another runner settled keeps its record and last run, and this runner only moves the digest
   * on (a no-op when that runner already did) and gives its lease back.
   */
  async #settleAlreadyHandled(
    digest: Digest,
    slot: Date,
    delivery: Delivery,
    next: Date,
    report: TickReport,
  ): Promise<void> {
    const at = this.#clock.now();
    switch (delivery.status) {
      case 'posting':
        report.unconfirmed++;
        this.#logger.warn(
          { digestId: digest.id, slot: slot.toISOString(), by: delivery.owner },
          'another runner started posting this slot and never confirmed; not posting it again',
        );
        await this.#complete(digest.id, slot, {
          owner: this.owner,
          outcome: 'unconfirmed',
          at,
          nextRunAt: next,
        });
        return;
      case 'posted':
        await this.#complete(digest.id, slot, {
          owner: this.owner,
          outcome: 'posted',
          at,
          ...(delivery.messageTs ? { messageTs: delivery.messageTs } : {}),
          nextRunAt: next,
        });
        return;
      case 'skipped':
        await this.#store.recordSkipped(digest.id, slot, {
          owner: this.owner,
          at,
          count: delivery.skippedCount ?? 1,
          nextRunAt: next,
        });
        return;
      case 'failed':
        // beginDelivery retakes a failed record, so this only happens if a store does not.
        await this.#complete(digest.id, slot, {
          owner: this.owner,
          outcome: 'failed',
          at,
          errorCode: delivery.errorCode ?? 'unknown',
          nextRunAt: next,
        });
        return;
    }
  }

  async #fail(digest: Digest, slot: Date, next: Date, error: unknown, report: TickReport) {
    const failure = error instanceof RunFailedError ? error.failure : classifyFailure(error);
    const failures = digest.consecutiveFailures + 1;
    const pause = failures >= this.#maxFailures;
    const reason = `${failureWords(failure.code, failure.channelProblem)} (${failures} failed runs in a row)`;
    this.#logger.warn(
      {
        err: error instanceof RunFailedError ? error.cause : error,
        digestId: digest.id,
        code: failure.code,
        failures,
      },
      'digest run failed',
    );
    await this.#complete(digest.id, slot, {
      owner: this.owner,
      outcome: 'failed',
      at: this.#clock.now(),
      errorCode: failure.code,
      nextRunAt: next,
      consecutiveFailures: failures,
      ...(pause ? { pauseReason: reason } : {}),
    });
    report.failed++;
    if (!pause) return;
    report.paused++;
    try {
      await this.#poster.notifyCreator(digest.creatorId, this.#renderPauseNotice(digest, failure));
    } catch (notifyError) {
      this.#logger.warn(
        { err: notifyError, digestId: digest.id },
        'could not tell the creator about the pause',
      );
    }
  }

  /** Through the batch writer; the record commits before this resolves. */
  #beginDelivery(start: DeliveryStart): Promise<BeginDeliveryResult> {
    return this.#begins.submit(start);
  }

  #complete(digestId: string, slot: Date, completion: Completion): Promise<void> {
    return this.#completions.submit({ digestId, slot, completion });
  }

  #queryFor(digest: Digest, slot: Date, manual = false, memo?: TickMemo): InfluencersQuery {
    const window = manual
      ? manualRunWindow(digest, slot)
      : (memo?.runWindow(digest, slot) ?? runWindow(digest, slot));
    return {
      databases: digest.databases,
      start: window.start,
      end: window.end,
      timezone: window.timezone,
      limit: digest.top,
    };
  }

  async #compose(
    digest: Digest,
    query: InfluencersQuery,
    result: InfluencersResult,
  ): Promise<{ ranking: RankedAccount[]; message: SlackMessage }> {
    const ranking = result.influencers
      .slice(0, digest.top)
      .map((influencer) => ({ screenName: influencer.screenName, rank: influencer.rank }));
    const changes = rankChanges(digest.lastRanking, ranking);
    return { ranking, message: await this.#renderDigest(digest, query, result, changes) };
  }

  /** One analytics call per distinct question per tick, at most `concurrency` at once. */
  #ask(
    query: InfluencersQuery,
    answers: Map<string, Promise<InfluencersResult>>,
    report: TickReport,
  ): Promise<InfluencersResult> {
    const key = questionKey(query);
    let answer = answers.get(key);
    if (!answer) {
      answer = this.#analyticsSlot(() =>
        this.#retrying(() => {
          report.analyticsCalls++;
          return this.#analytics.getInfluencers(query).finally(() => {
            this.#progress++;
          });
        }),
      );
      answers.set(key, answer);
      // Every digest awaiting it handles a failure; this only keeps an unawaited rejection quiet.
      answer.catch(() => undefined);
    }
    return answer;
  }

  /** Analytics questions are read-only: any transient failure is safe to ask again. */
  async #retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tried = 1; ; tried++) {
      try {
        return await attempt();
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.kind === 'permanent' || tried >= this.#attempts)
          throw new RunFailedError(failure, error);
        const backoff = this.#backoffMs * 2 ** (tried - 1);
        await this.#clock.sleep(Math.max(failure.retryAfterMs ?? 0, backoff));
      }
    }
  }

  /**
   * chat.postMessage through the channel's queue (about one post per second per channel, a few
   * posts at once, 429 waits), with `begin` writing the slot's `posting` record inside that step,
   * immediately before the message is sent. Resends only what certainly did not reach Slack,
   * after giving the record back so that a crash during the wait loses nothing; throws a
   * RunFailedError when it gives up.
   */
  async #post(
    digest: Digest,
    slot: Date,
    message: SlackMessage,
    begin: () => Promise<BeginDeliveryResult>,
  ): Promise<PostOutcome> {
    for (let tried = 1; ; tried++) {
      const attempt = await this.#paced<Attempt>(digest, async (sending) => {
        const begun = await begin();
        if (begun.kind === 'already') return { kind: 'already', delivery: begun.delivery };
        sending();
        try {
          return { kind: 'sent', ts: (await this.#poster.post(digest.channelId, message)).ts };
        } catch (error) {
          return { kind: 'error', error };
        }
      });
      if (attempt.kind === 'sent') return { kind: 'posted', ts: attempt.ts };
      if (attempt.kind === 'already') return attempt;
      const { error } = attempt;
      if (mayHavePosted(error)) return { kind: 'unconfirmed', error };
      const failure = classifyFailure(error);
      // The `failed` completion replaces this runner's own `posting` record.
      if (failure.kind === 'permanent' || tried >= this.#attempts) {
        throw new RunFailedError(failure, error);
      }
      try {
        await this.#store.abandonDelivery(digest.id, slot, this.owner);
      } catch (abandonError) {
        throw new RunFailedError(failure, abandonError);
      }
      const backoff = this.#backoffMs * 2 ** (tried - 1);
      if (failure.retryAfterMs !== undefined) {
        // The channel's queue waits it out, for every digest of the workspace.
        const until = this.#clock.now().getTime() + failure.retryAfterMs;
        this.#blockedUntil.set(
          digest.teamId,
          Math.max(until, this.#blockedUntil.get(digest.teamId) ?? 0),
        );
      } else {
        await this.#clock.sleep(backoff);
      }
    }
  }

  /** Pacing entries that can no longer delay anything, so a long-lived runner stays small. */
  #forgetPastPacing(): void {
    const now = this.#clock.now().getTime();
    for (const [channelId, at] of this.#lastPostAt) {
      if (at + this.#channelIntervalMs <= now) this.#lastPostAt.delete(channelId);
    }
    for (const [teamId, until] of this.#blockedUntil) {
      if (until <= now) this.#blockedUntil.delete(teamId);
    }
  }

  /**
   * Runs `step` in the channel's turn, once its pacing and the workspace's 429 wait are over and
   * one of the posts-at-once slots is free. `step` calls `sending()` when it sends, so that a step
   * that found the slot already handled does not hold the channel's next post back.
   */
  #paced<T>(digest: Digest, step: (sending: () => void) => Promise<T>): Promise<T> {
    const { channelId, teamId } = digest;
    const previous = this.#channelTails.get(channelId) ?? Promise.resolve();
    const run = previous.then(async () => {
      const readyAt = Math.max(
        (this.#lastPostAt.get(channelId) ?? Number.NEGATIVE_INFINITY) + this.#channelIntervalMs,
        this.#blockedUntil.get(teamId) ?? Number.NEGATIVE_INFINITY,
      );
      const wait = readyAt - this.#clock.now().getTime();
      if (wait > 0) await this.#clock.sleep(wait);
      let sent = false;
      try {
        return await this.#postSlot(() =>
          step(() => {
            sent = true;
          }),
        );
      } finally {
        if (sent) this.#lastPostAt.set(channelId, this.#clock.now().getTime());
        this.#progress++;
      }
    });
    const tail = run.catch(() => undefined);
    this.#channelTails.set(channelId, tail);
    void tail.then(() => {
      if (this.#channelTails.get(channelId) === tail) this.#channelTails.delete(channelId);
    });
    return run;
  }
}
