import { randomUUID } from 'node:crypto';
import { selectLocally } from '../analytics/local-ranking.ts';
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import { Turns } from '../async/turns.ts';
import type { Logger } from '../logger.ts';
import { silentLogger } from '../logger.ts';
import type { Digest, PostWhen } from '../model/digest.ts';
import type { SlackMessage } from '../model/message.ts';
import { defaultMetric } from '../model/metrics.ts';
import { type RankChanges, rankChanges } from '../model/rank-changes.ts';
import type { Database } from '../store/database.ts';
import { type Clock, systemClock } from './clock.ts';
import {
  type ComposedDigest,
  Deliveries,
  type DeliveryOutcome,
  type DigestPoster,
  type RenderPauseNotice,
  type RepostResult,
  type RunNowResult,
} from './delivery.ts';
import { JobTimer } from './job-timer.ts';
import { LeaseRenewal } from './leases.ts';
import { Outages, type RenderOutageNotice } from './outages.ts';
import { Pacer } from './pacing.ts';
import type { NotifyCreator, PerTeam } from './per-team.ts';
import { quietReason } from './post-when.ts';
import { type AskQuestion, localSelection, Questions, questionFor } from './questions.ts';
import { tellCreatorsLate } from './resumed.ts';
import { manualRunWindow, runWindow } from './run-window.ts';
import { runDetails } from './runs.ts';
import { DueTick, type TickOptions, type TickReport } from './tick.ts';
import { type RenderUnconfirmedNotice, UnconfirmedPosts } from './unconfirmed.ts';
import { type RenderResumeNotice, Workspaces } from './workspaces.ts';

export { type Clock, systemClock } from './clock.ts';
export type { DigestPoster, RenderPauseNotice, RepostResult, RunNowResult } from './delivery.ts';
export type { RenderOutageNotice } from './outages.ts';
export type { TickReport } from './tick.ts';
export type { RenderUnconfirmedNotice } from './unconfirmed.ts';
export type { RenderResumeNotice } from './workspaces.ts';

/** A run just posted: what it asked, what it got, and how the ranking moved. */
export interface PostedRun {
  readonly digest: Digest;
  readonly slot: Date;
  readonly query: InfluencersQuery;
  readonly result: InfluencersResult;
  readonly changes: RankChanges;
}

/** May be async, so a renderer can look things up (the creator's display name) before it renders. */
export type RenderDigest = (
  digest: Digest,
  query: InfluencersQuery,
  result: InfluencersResult,
  changes: RankChanges,
) => SlackMessage | Promise<SlackMessage>;

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

/** Posts sent at once unless `postConcurrency` says otherwise. */
export const defaultPostConcurrency = 4;

/** The defaults of the options below that the app's configuration leaves to the engine. */
const policyDefaults = {
  leaseMs: 5 * 60_000,
  attempts: 3,
  backoffMs: 1000,
  postConcurrency: defaultPostConcurrency,
  channelIntervalMs: 1100,
  claimBatchSize: 200,
  maxClaimed: 1000,
  answersKept: 500,
  storeBatchSize: 500,
  maxPerTick: 10_000,
  probeFirstMs: 60_000,
  probeMaxMs: 15 * 60_000,
  workspaceCheckMs: 5 * 60_000,
} as const;

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
   * Most digests a tick holds claimed and unfinished at once; it claims the next batch as earlier
   * ones finish, so its memory follows this and not how many digests are due. Default 1,000
   * (never below `claimBatchSize`): enough distinct questions to keep `concurrency` calls going
   * while the answered ones post.
   */
  readonly maxClaimed?: number;
  /**
   * Analytics answers a tick keeps for digests it has yet to claim, the least recently asked
   * dropped first; never fewer than twice `claimBatchSize`. Default 500. Claims come grouped by
   * question (see `DigestRepository.claimDue`), so between two asks of one question come at most the
   * other questions of two batches, and each question is asked once per tick; were they not
   * grouped, a question asked again after its answer was dropped would cost a second call.
   */
  readonly answersKept?: number;
  /**
   * Most delivery records written per store call (`beginDeliveries`, `completeMany`). Default 500.
   * Batches form only from digests ready at the same moment, so a quiet tick writes one at a time.
   */
  readonly storeBatchSize?: number;
  /** Upper bound of digests one tick takes on. Default 10,000. */
  readonly maxPerTick?: number;
  /** Identifies this runner's leases; default a random id. */
  readonly owner?: string;
  /**
   * The wait before a workspace on hold for an outage is first probed. Default 1 minute; each
   * probe that meets the outage again doubles it, up to `probeMaxMs`.
   */
  readonly probeFirstMs?: number;
  /** The longest wait between two probes of a workspace on hold. Default 15 minutes. */
  readonly probeMaxMs?: number;
  /**
   * How often a tick may ask Slack (`auth.test`) whether the app works again in a workspace it
   * left, while digests wait for that. Default 5 minutes.
   */
  readonly workspaceCheckMs?: number;
}

export interface DigestRunnerDeps {
  /** The digests, their runs and the workspaces' outages. */
  readonly db: Pick<Database, 'digests' | 'runs' | 'outages'>;
  readonly analytics: AnalyticsApi;
  /** Where each workspace's digests post and whom they tell. */
  readonly posters: PerTeam<DigestPoster>;
  readonly renderDigest: RenderDigest;
  readonly renderPauseNotice: RenderPauseNotice;
  /**
   * The DM to a workspace's admins when its digests go on hold for an outage; without it (tests,
   * benchmarks) the outage is only logged.
   */
  readonly renderOutageNotice?: RenderOutageNotice;
  /**
   * The DM to a creator whose digests resumed once the app worked again in their workspace, or
   * whose digests skipped slots during an outage that is now over; without it (tests, benchmarks)
   * the resumption is only logged.
   */
  readonly renderResumeNotice?: RenderResumeNotice;
  /**
   * The DM to a creator whose digest's post may not have reached the channel (its runner died
   * mid-post), with a way to post it now; without it (benchmarks) such slots are only logged.
   */
  readonly renderUnconfirmedNotice?: RenderUnconfirmedNotice;
  /**
   * Work to do once a run has posted and its record is written (the digest's canvas): it starts
   * only then, never holds up a post, and its failures are logged, never the run's. A tick
   * waits for it before it ends, and so does `stop()`.
   */
  readonly afterPost?: (run: PostedRun) => Promise<void>;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly options?: DigestRunnerOptions;
}

/**
 * Posts due digests: `start()` runs a tick (`runDue`) every `tickMs`, `runNow` posts one digest
 * outside its schedule. Safe to run in several instances and beside `digests run-due` at once.
 *
 * Each (digest, slot) is posted at most once, and is lost only when a post may have reached
 * Slack: a store lease keeps two runners off one digest, renewed while a tick still moves; the
 * slot's delivery record is written as `posting` immediately before chat.postMessage (never
 * before a wait), and a `posting` record is never sent again but ends `unconfirmed`: once the
 * runner's lease is over, the digest's creator is told by DM and may choose to post it
 * (`postUnconfirmed`), once. A post that
 * certainly did not reach Slack gives its record back before it waits to try again; one that may
 * have reached it is never resent. Missed slots are not burst: the latest one inside the grace
 * window is posted, older ones are recorded as skipped.
 *
 * A tick's cost is the analytics fan-out (each distinct question once) plus the store writes,
 * batched among digests that reach the same step together. Its memory is that of `maxClaimed`
 * digests and `answersKept` answers, however many are due: it claims as it finishes, so a tick
 * goes no faster than it posts (at most `postConcurrency` posts, each after its record is
 * written). Every instant comes from the clock: instances must keep theirs in sync (see
 * `DigestRepository`). The work is split by job: tick.ts, questions.ts, delivery.ts, pacing.ts
 * and leases.ts.
 */
export class DigestRunner {
  readonly owner: string;
  /** Workspaces the app left, and the digests waiting for it to come back. */
  readonly workspaces: Workspaces;
  readonly #renderDigest: RenderDigest;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #leases: LeaseRenewal;
  readonly #pacer: Pacer;
  readonly #questions: Questions;
  readonly #deliveries: Deliveries;
  readonly #tickOptions: TickOptions;
  readonly #unconfirmed: UnconfirmedPosts;
  /** Who is told of slots a tick came to too late (see `tellCreatorsLate`). */
  readonly #late: Parameters<typeof tellCreatorsLate>[0];
  /**
   * False until the first tick looked for late skips nobody told of: those of a runner that
   * stopped (the app went down) between recording them and telling.
   */
  #lookedForUntold = false;
  /** Turns for the renders of digests woken together (see `#compose`). */
  readonly #turns = new Turns();
  readonly #afterPost: ((run: PostedRun) => Promise<void>) | undefined;
  /** `afterPost` work still going. */
  readonly #afterPosts = new Set<Promise<void>>();
  readonly #timer: JobTimer;

  constructor(deps: DigestRunnerDeps) {
    const options = deps.options ?? {};
    const clock = deps.clock ?? systemClock;
    const logger = deps.logger ?? silentLogger;
    const owner = options.owner ?? `runner-${randomUUID()}`;
    const { digests, runs } = deps.db;
    const leaseMs = options.leaseMs ?? policyDefaults.leaseMs;
    const claimBatchSize = options.claimBatchSize ?? policyDefaults.claimBatchSize;
    const retry = {
      attempts: Math.max(1, options.attempts ?? policyDefaults.attempts),
      backoffMs: options.backoffMs ?? policyDefaults.backoffMs,
    };
    this.owner = owner;
    this.#renderDigest = deps.renderDigest;
    this.#afterPost = deps.afterPost;
    this.#clock = clock;
    this.#logger = logger;
    this.#timer = new JobTimer({
      job: { name: 'digest', runDue: () => this.runDue() },
      tickMs: options.tickMs ?? digestRunnerDefaults.tickMs,
      logger,
    });
    this.#leases = new LeaseRenewal({
      digests,
      owner,
      clock,
      logger,
      leaseMs,
      leaseRenewalMs: Math.max(1, options.leaseRenewalMs ?? leaseMs / 3),
    });
    const progressed = this.#leases.progressed;
    this.#pacer = new Pacer({
      clock,
      channelIntervalMs: options.channelIntervalMs ?? policyDefaults.channelIntervalMs,
      postConcurrency: options.postConcurrency ?? policyDefaults.postConcurrency,
      onStep: progressed,
    });
    const notifyCreator: NotifyCreator = (teamId, userId, message) =>
      deps.posters.forTeam(teamId).notifyCreator(userId, message);
    this.workspaces = new Workspaces({
      digests,
      clock,
      logger,
      posters: deps.posters,
      renderResumeNotice: deps.renderResumeNotice,
      checkEveryMs: options.workspaceCheckMs ?? policyDefaults.workspaceCheckMs,
    });
    const outages = new Outages({
      outages: deps.db.outages,
      digests,
      runs,
      clock,
      logger,
      notifyAdmins: (teamId, userIds, message) =>
        deps.posters.forTeam(teamId).notifyAdmins(userIds, message),
      notifyCreator,
      renderOutageNotice: deps.renderOutageNotice,
      renderResumeNotice: deps.renderResumeNotice,
      probeFirstMs: options.probeFirstMs ?? policyDefaults.probeFirstMs,
      probeMaxMs: options.probeMaxMs ?? policyDefaults.probeMaxMs,
    });
    this.#questions = new Questions({
      analytics: deps.analytics,
      clock,
      retry,
      concurrency: options.concurrency ?? defaultAnalyticsConcurrency,
      answersKept: Math.max(options.answersKept ?? policyDefaults.answersKept, 2 * claimBatchSize),
      onAnswer: progressed,
    });
    this.#deliveries = new Deliveries({
      runs,
      digests,
      owner,
      clock,
      logger,
      posters: deps.posters,
      pacer: this.#pacer,
      retry,
      maxConsecutiveFailures:
        options.maxConsecutiveFailures ?? digestRunnerDefaults.maxConsecutiveFailures,
      renderPauseNotice: deps.renderPauseNotice,
      outages,
      storeBatchSize: options.storeBatchSize ?? policyDefaults.storeBatchSize,
    });
    this.#unconfirmed = new UnconfirmedPosts({
      runs,
      logger,
      notifyCreator,
      renderNotice: deps.renderUnconfirmedNotice,
      leaseMs,
    });
    this.#late = {
      runs,
      logger,
      notifyCreator,
      renderResumeNotice: deps.renderResumeNotice,
    };
    this.#tickOptions = {
      digests,
      runs,
      owner,
      clock,
      logger,
      leaseMs,
      graceMs: options.graceMs ?? digestRunnerDefaults.graceMs,
      claimBatchSize,
      maxClaimed: options.maxClaimed ?? policyDefaults.maxClaimed,
      maxPerTick: options.maxPerTick ?? policyDefaults.maxPerTick,
      questions: this.#questions,
      outages,
      deliver: (digest, slot, next, tick, probe) =>
        this.#deliverDue(digest, slot, next, tick, probe),
      onDigestDone: progressed,
    };
  }

  /** One tick: handle every digest due at `now`. Resolves when all of them are finished. */
  async runDue(now: Date = this.#clock.now()): Promise<TickReport> {
    this.#pacer.forgetPast();
    await this.workspaces
      .checkBack()
      .catch((error: unknown) =>
        this.#logger.warn({ err: error }, 'could not check whether the app works again'),
      );
    await this.#unconfirmed
      .tellCreators(now)
      .catch((error: unknown) =>
        this.#logger.warn({ err: error }, 'could not look for unconfirmed digest posts'),
      );
    const tick = new DueTick(this.#tickOptions, now);
    const stopRenewing = this.#leases.renewWhileRunning();
    try {
      await tick.run();
    } finally {
      await stopRenewing();
      await this.#afterPostsDone();
    }
    if (tick.late || !this.#lookedForUntold) {
      // Looked for again at the next tick until the store could answer once.
      await tellCreatorsLate(this.#late, now).then(
        () => {
          this.#lookedForUntold = true;
        },
        (error: unknown) =>
          this.#logger.warn(
            { err: error },
            'could not tell creators which digest runs came too late',
          ),
      );
    }
    const { report } = tick;
    if (report.claimed > 0) this.#logger.info({ ...report, owner: this.owner }, 'digest tick done');
    return report;
  }

  /**
   * Posts a digest now, outside its schedule ("Run now"), covering the window that ends now. It
   * neither moves the schedule nor counts toward pausing.
   */
  async runNow(digest: Digest): Promise<RunNowResult> {
    const now = this.#clock.now();
    const slot = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const ask = this.#questions.round({ analyticsCalls: 0 });
    let seen: PostedRun | undefined;
    const result = await this.#deliveries.deliverNow(digest, slot, () =>
      this.#compose(
        digest,
        questionFor(digest, manualRunWindow(digest, slot)),
        ask,
        'always',
        (run) => {
          seen = { ...run, slot };
        },
      ),
    );
    if (result.outcome === 'posted' && seen !== undefined) this.#startAfterPost(seen);
    return result;
  }

  /**
   * Posts a slot whose post was never confirmed, because `person` chose to after being told: the
   * window the slot covers, once however often it is asked (see `Deliveries.deliverUnconfirmed`).
   */
  postUnconfirmed(digest: Digest, slot: Date, person: string): Promise<RepostResult> {
    const ask = this.#questions.round({ analyticsCalls: 0 });
    return this.#deliveries.deliverUnconfirmed(digest, slot, person, () =>
      this.#compose(digest, questionFor(digest, runWindow(digest, slot)), ask, 'always'),
    );
  }

  /** Runs ticks every `tickMs` until `stop()`; the timer does not keep the process alive. */
  start(): void {
    this.#timer.start();
  }

  /** Stops the timer and waits for the tick in flight, so its claims finish or expire cleanly. */
  async stop(): Promise<void> {
    await this.#timer.stop();
    await this.#afterPostsDone();
  }

  /** Starts `afterPost` for a posted run, beside whatever comes next. */
  #startAfterPost(run: PostedRun): void {
    const afterPost = this.#afterPost;
    if (afterPost === undefined) return;
    const work: Promise<void> = afterPost(run)
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, digestId: run.digest.id }, 'work after a post failed'),
      )
      .finally(() => this.#afterPosts.delete(work));
    this.#afterPosts.add(work);
  }

  async #afterPostsDone(): Promise<void> {
    while (this.#afterPosts.size > 0) await Promise.all([...this.#afterPosts]);
  }

  /** A slot a tick owes: asked in the tick's round of questions, counted in its report. */
  #deliverDue(
    digest: Digest,
    slot: Date,
    next: Date,
    tick: DueTick,
    probe: boolean,
  ): Promise<DeliveryOutcome> {
    const window = tick.windowOf(digest, slot);
    let seen: PostedRun | undefined;
    const compose = () =>
      this.#compose(digest, questionFor(digest, window), tick.ask, digest.postWhen, (run) => {
        seen = { ...run, slot };
      });
    return this.#deliveries
      .deliver(digest, slot, next, compose, tick.report, probe, window)
      .then((outcome) => {
        if (outcome === 'posted' && seen !== undefined) this.#startAfterPost(seen);
        return outcome;
      });
  }

  /**
   * The slot's answer and message, with the ranking the next run compares against; no message
   * when `postWhen` keeps the run quiet (a manual run always posts).
   */
  async #compose(
    digest: Digest,
    query: InfluencersQuery,
    ask: AskQuestion,
    postWhen: PostWhen,
    rendered?: (run: Omit<PostedRun, 'slot'>) => void,
  ): Promise<ComposedDigest> {
    const result = selectLocally(await ask(query), localSelection(digest), digest.top);
    // One answer wakes every digest that asked its question: rendering them a few per turn lets
    // the other answers in between, so the analytics calls keep going out at their pace.
    await this.#turns.next();
    const ranking = result.influencers
      .slice(0, digest.top)
      .map((influencer) => ({ screenName: influencer.screenName, rank: influencer.rank }));
    const changes = rankChanges(digest.lastRanking, ranking);
    const run = runDetails(query, result, digest.top, digest.metric ?? defaultMetric, changes);
    const quiet = quietReason(postWhen, changes, digest.account);
    if (quiet !== undefined) return { ranking, quiet, run };
    const message = await this.#renderDigest(digest, query, result, changes);
    rendered?.({ digest, query, result, changes });
    return { ranking, run, message };
  }
}
