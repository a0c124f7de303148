/**
 * The conference engine: at each tick it claims the conferences due (the digest leases: one
 * updater per conference across instances), asks each distinct question once (the digest
 * questions: conferences of one hashtag with the same options share a call), and brings each
 * leaderboard up to date (run.ts): posts and pins it on the first day, recaps every day that
 * ended in the leaderboard's thread, updates it in place, and ends with the final recap.
 *
 * Every post has a record written right before it is sent (see `ConferenceRepository`), and
 * what was posted is read back from the records when a conference is claimed, so a runner killed
 * at any point neither loses a day's recap nor posts one twice. A post cut off mid-request (it may or
 * may not have reached Slack) is never sent again; for a leaderboard, the next one is posted
 * instead, since a conference cannot go on without one.
 */
import { randomUUID } from 'node:crypto';
import type { AnalyticsApi } from '../../analytics/types.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import type { Conference, ConferenceEnd } from '../../model/conference.ts';
import type { ConferenceRepository } from '../../store/conferences.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type Limiter, limiter } from '../limiter.ts';
import { type AskQuestion, Questions } from '../questions.ts';
import type { ConferenceCanvasKeeper, ConferencePoster, ConferenceWords } from './outlet.ts';
import {
  ConferenceEndedError,
  ConferenceRun,
  type ConferenceTickReport,
  nextRefresh,
  type RunContext,
  SkipToNextRefresh,
} from './run.ts';

export {
  type ConferenceTickReport,
  conferenceQuestion,
  nextRefresh,
  rankedFor,
} from './run.ts';

export interface ConferenceRunnerOptions {
  readonly leaseMs?: number;
  readonly claimBatchSize?: number;
  readonly maxPerTick?: number;
  /** Analytics calls in flight at once. */
  readonly concurrency?: number;
  /** Slack calls in flight at once. */
  readonly postConcurrency?: number;
  readonly attempts?: number;
  readonly backoffMs?: number;
  readonly owner?: string;
}

export interface ConferenceRunnerDeps {
  readonly conferences: ConferenceRepository;
  readonly analytics: AnalyticsApi;
  readonly poster: ConferencePoster;
  readonly words: ConferenceWords;
  /** Keeps the channel canvases of conferences that keep one; none is written without it. */
  readonly canvas?: ConferenceCanvasKeeper;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly options?: ConferenceRunnerOptions;
}

const defaults = {
  leaseMs: 5 * 60_000,
  claimBatchSize: 200,
  maxPerTick: 10_000,
  concurrency: 16,
  postConcurrency: 4,
  attempts: 3,
  backoffMs: 1000,
} as const;

export class ConferenceRunner implements RunContext {
  readonly owner: string;
  readonly #conferences: ConferenceRepository;
  readonly #poster: ConferencePoster;
  readonly #words: ConferenceWords;
  readonly #canvas: ConferenceCanvasKeeper | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #questions: Questions;
  readonly #slack: Limiter;
  readonly #options: Required<Omit<ConferenceRunnerOptions, 'owner'>>;

  constructor(deps: ConferenceRunnerDeps) {
    const options = deps.options ?? {};
    this.owner = options.owner ?? `conferences-${randomUUID()}`;
    this.#conferences = deps.conferences;
    this.#poster = deps.poster;
    this.#words = deps.words;
    this.#canvas = deps.canvas;
    this.#clock = deps.clock ?? systemClock;
    this.#logger = deps.logger ?? silentLogger;
    this.#options = {
      leaseMs: options.leaseMs ?? defaults.leaseMs,
      claimBatchSize: options.claimBatchSize ?? defaults.claimBatchSize,
      maxPerTick: options.maxPerTick ?? defaults.maxPerTick,
      concurrency: options.concurrency ?? defaults.concurrency,
      postConcurrency: options.postConcurrency ?? defaults.postConcurrency,
      attempts: Math.max(1, options.attempts ?? defaults.attempts),
      backoffMs: options.backoffMs ?? defaults.backoffMs,
    };
    this.#questions = new Questions({
      analytics: deps.analytics,
      clock: this.#clock,
      retry: { attempts: this.#options.attempts, backoffMs: this.#options.backoffMs },
      concurrency: this.#options.concurrency,
      answersKept: Math.max(1000, 2 * this.#options.claimBatchSize),
      onAnswer: () => undefined,
    });
    this.#slack = limiter(Math.max(1, this.#options.postConcurrency));
  }

  /** One tick: every conference due at `now` brought up to date. */
  async runDue(now: Date = this.#clock.now()): Promise<ConferenceTickReport> {
    const report: ConferenceTickReport = {
      claimed: 0,
      updated: 0,
      boards: 0,
      recaps: 0,
      finals: 0,
      skipped: 0,
      ended: 0,
      analyticsCalls: 0,
    };
    const ask = this.#questions.round(report);
    const { claimBatchSize, maxPerTick, leaseMs } = this.#options;
    while (report.claimed < maxPerTick) {
      const claims = await this.#conferences.claimDue(now, {
        limit: Math.min(claimBatchSize, maxPerTick - report.claimed),
        leaseMs,
        owner: this.owner,
      });
      report.claimed += claims.length;
      await Promise.all(claims.map((claim) => this.#handle(claim.conference, now, ask, report)));
      if (claims.length < claimBatchSize) break;
    }
    if (report.claimed > 0)
      this.#logger.info({ ...report, owner: this.owner }, 'conference tick done');
    return report;
  }

  async #handle(
    conference: Conference,
    now: Date,
    ask: AskQuestion,
    report: ConferenceTickReport,
  ): Promise<void> {
    const run = new ConferenceRun(this, conference, now, ask, report);
    try {
      const outcome = await run.bringUpToDate();
      await this.#conferences.finish(conference.id, this.owner, outcome, this.#clock.now());
    } catch (error) {
      if (error instanceof SkipToNextRefresh) {
        report.skipped++;
        await this.#conferences
          .finish(
            conference.id,
            this.owner,
            { state: run.state, nextRunAt: nextRefresh(conference, now) },
            this.#clock.now(),
          )
          .catch((cause: unknown) => this.#logger.warn({ err: cause }, 'conference not saved'));
        return;
      }
      if (error instanceof ConferenceEndedError) {
        report.ended++;
        await this.#end(run, error);
        return;
      }
      this.#logger.error({ err: error, conferenceId: conference.id }, 'conference update failed');
      await this.#conferences.releaseLease(conference.id, this.owner).catch(() => undefined);
    }
  }

  async #end(run: ConferenceRun, error: ConferenceEndedError): Promise<void> {
    const { conference } = run;
    const ended: ConferenceEnd = `failed:${error.code}${error.detail === undefined ? '' : `:${error.detail}`}`;
    this.#logger.warn(
      { err: error.cause, conferenceId: conference.id, code: error.code },
      'conference ended by a failure a person must fix',
    );
    await this.#conferences.finish(
      conference.id,
      this.owner,
      { state: run.state, ended },
      this.#clock.now(),
    );
    const detail = error.detail === undefined ? {} : { detail: error.detail };
    await this.#poster
      .notifyCreator(
        conference.creatorId,
        this.#words.ended(conference, { code: error.code, ...detail }),
      )
      .catch((cause: unknown) =>
        this.#logger.warn(
          { err: cause, conferenceId: conference.id },
          'could not tell the creator',
        ),
      );
  }

  // The parts a run uses, kept on the runner so one instance serves every run of a tick.
  get conferences(): ConferenceRepository {
    return this.#conferences;
  }
  get poster(): ConferencePoster {
    return this.#poster;
  }
  get words(): ConferenceWords {
    return this.#words;
  }
  get canvas(): ConferenceCanvasKeeper | undefined {
    return this.#canvas;
  }
  get clock(): Clock {
    return this.#clock;
  }
  get logger(): Logger {
    return this.#logger;
  }
  slack<T>(job: () => Promise<T>): Promise<T> {
    return this.#slack(job);
  }
}
