/** Claims the conferences due at each tick and has each brought up to date, one updater each. */
import { randomUUID } from 'node:crypto';
import type { AnalyticsApi } from '../../analytics/types.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import type { Conference, ConferenceEnd } from '../../model/conference.ts';
import type { ConferenceRepository } from '../../store/conferences.ts';
import { type Clock, systemClock } from '../clock.ts';
import { limiter } from '../limiter.ts';
import type { PerTeam } from '../per-team.ts';
import { type AskQuestion, Questions } from '../questions.ts';
import {
  ConferenceEndedError,
  type ConferenceTickReport,
  SkipToNextRefreshError,
} from './outcomes.ts';
import type { ConferenceCanvasKeeper, ConferencePoster, ConferenceWords } from './outlet.ts';
import { ConferenceRefresh, nextRefresh, type RefreshParts } from './refresh.ts';

export type { ConferenceTickReport } from './outcomes.ts';

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
  /** Where each workspace's conferences post, edit and pin. */
  readonly posters: PerTeam<ConferencePoster>;
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

/**
 * The conference engine: at each tick it claims the conferences due (the digest leases: one
 * updater per conference across instances), asks each distinct question once (the digest
 * questions: conferences of one hashtag with the same options share a call), and brings each
 * leaderboard up to date (`ConferenceRefresh`): posts and pins it on the first day, recaps every
 * day that ended in the leaderboard's thread, updates it in place, and ends with the final recap.
 * A failure a person must fix ends the conference and tells its creator.
 */
export class ConferenceRunner {
  readonly owner: string;
  readonly #conferences: ConferenceRepository;
  readonly #posters: PerTeam<ConferencePoster>;
  readonly #words: ConferenceWords;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #questions: Questions;
  /** What every refresh of this runner posts with. */
  readonly #parts: RefreshParts;
  readonly #options: Required<Omit<ConferenceRunnerOptions, 'owner'>>;

  constructor(deps: ConferenceRunnerDeps) {
    const options = deps.options ?? {};
    this.owner = options.owner ?? `conferences-${randomUUID()}`;
    this.#conferences = deps.conferences;
    this.#posters = deps.posters;
    this.#words = deps.words;
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
    this.#parts = {
      owner: this.owner,
      store: this.#conferences,
      posters: this.#posters,
      words: this.#words,
      canvas: deps.canvas,
      clock: this.#clock,
      logger: this.#logger,
      slack: limiter(Math.max(1, this.#options.postConcurrency)),
    };
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
    const refresh = new ConferenceRefresh(this.#parts, conference, now, ask, report);
    try {
      const outcome = await refresh.bringUpToDate();
      await this.#conferences.finish(conference.id, this.owner, outcome, this.#clock.now());
    } catch (error) {
      if (error instanceof SkipToNextRefreshError) {
        report.skipped++;
        await this.#conferences
          .finish(
            conference.id,
            this.owner,
            { state: refresh.state, nextRunAt: nextRefresh(conference, now) },
            this.#clock.now(),
          )
          .catch((cause: unknown) => this.#logger.warn({ err: cause }, 'conference not saved'));
        return;
      }
      if (error instanceof ConferenceEndedError) {
        report.ended++;
        await this.#end(refresh, error);
        return;
      }
      this.#logger.error({ err: error, conferenceId: conference.id }, 'conference update failed');
      await this.#conferences.releaseLease(conference.id, this.owner).catch(() => undefined);
    }
  }

  async #end(refresh: ConferenceRefresh, error: ConferenceEndedError): Promise<void> {
    const { conference } = refresh;
    const ended: ConferenceEnd = `failed:${error.code}${error.detail === undefined ? '' : `:${error.detail}`}`;
    this.#logger.warn(
      { err: error.cause, conferenceId: conference.id, code: error.code },
      'conference ended by a failure a person must fix',
    );
    await this.#conferences.finish(
      conference.id,
      this.owner,
      { state: refresh.state, ended },
      this.#clock.now(),
    );
    const detail = error.detail === undefined ? {} : { detail: error.detail };
    await this.#posters
      .forTeam(conference.teamId)
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
}
