/**
 * The conference engine: at each tick it claims the conferences due (the digest leases: one
 * updater per conference across instances), asks each distinct question once (the digest
 * questions: conferences of one hashtag with the same options share a call), and brings each
 * leaderboard up to date: posts and pins it on the first day, recaps every day that ended in the
 * leaderboard's thread, updates it in place, and ends with the final recap.
 *
 * Every post has a record written right before it is sent (see `ConferenceStore`), and what was
 * posted is read back from the records when a conference is claimed, so a runner killed at any
 * point neither loses a day's recap nor posts one twice. A post cut off mid-request (it may or
 * may not have reached Slack) is never sent again; for a leaderboard, the next one is posted
 * instead, since a conference cannot go on without one.
 */
import { randomUUID } from 'node:crypto';
import { selectLocally, serviceMaxLimit } from '../../analytics/local-ranking.ts';
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../../analytics/types.ts';
import { type Logger, silentLogger } from '../../logger.ts';
import type {
  Conference,
  ConferenceEnd,
  ConferenceState,
  DayResult,
  WatchedRank,
} from '../../model/conference.ts';
import type { RankedAccount } from '../../model/digest.ts';
import { defaultMetric, metricsRankedBy } from '../../model/metrics.ts';
import { type Clock, systemClock } from '../clock.ts';
import { failureDetail, mayHavePosted, runFailure } from '../failures.ts';
import { type Limiter, limiter } from '../limiter.ts';
import { type AskQuestion, Questions } from '../questions.ts';
import {
  dayEnd,
  dayNumber,
  dayStart,
  dayWindow,
  eventDayAt,
  eventDays,
  eventSpan,
  eventWindow,
} from './days.ts';
import type { ConferencePoster, ConferenceWords, Leaderboard } from './outlet.ts';
import type { ConferenceStore } from './store.ts';

/** What one tick did, for logs, the CLI's output, tests and the bench. */
export interface ConferenceTickReport {
  claimed: number;
  updated: number;
  boards: number;
  recaps: number;
  finals: number;
  /** Updates skipped to the next refresh (rate limit, a service briefly failing). */
  skipped: number;
  ended: number;
  analyticsCalls: number;
}

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
  readonly store: ConferenceStore;
  readonly analytics: AnalyticsApi;
  readonly poster: ConferencePoster;
  readonly words: ConferenceWords;
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

/** A failure that ends the conference: a person must act (channel archived, token revoked). */
class ConferenceEndedError extends Error {
  readonly code: string;
  readonly detail: string | undefined;

  constructor(code: string, detail: string | undefined, cause: unknown) {
    super(`conference ended: ${code}`, { cause });
    this.code = code;
    this.detail = detail;
  }
}

/** A step that failed for now (rate limit, a service briefly down): the next refresh tries again. */
class SkipToNextRefresh extends Error {}

const boardKey = (n: number) => `board:${n}`;
const recapKey = (day: string) => `recap:${day}`;
const finalKey = 'final';
const pinNoteKey = 'pin-note';

export class ConferenceRunner {
  readonly owner: string;
  readonly #store: ConferenceStore;
  readonly #poster: ConferencePoster;
  readonly #words: ConferenceWords;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #questions: Questions;
  readonly #slack: Limiter;
  readonly #options: Required<Omit<ConferenceRunnerOptions, 'owner'>>;

  constructor(deps: ConferenceRunnerDeps) {
    const options = deps.options ?? {};
    this.owner = options.owner ?? `conferences-${randomUUID()}`;
    this.#store = deps.store;
    this.#poster = deps.poster;
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
      const claims = await this.#store.claimDue(now, {
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
      await this.#store.finish(conference.id, this.owner, outcome, this.#clock.now());
    } catch (error) {
      if (error instanceof SkipToNextRefresh) {
        report.skipped++;
        await this.#store
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
      await this.#store.releaseLease(conference.id, this.owner).catch(() => undefined);
    }
  }

  async #end(run: ConferenceRun, error: ConferenceEndedError): Promise<void> {
    const { conference } = run;
    const ended: ConferenceEnd = `failed:${error.code}${error.detail === undefined ? '' : `:${error.detail}`}`;
    this.#logger.warn(
      { err: error.cause, conferenceId: conference.id, code: error.code },
      'conference ended by a failure a person must fix',
    );
    await this.#store.finish(
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
  get store(): ConferenceStore {
    return this.#store;
  }
  get poster(): ConferencePoster {
    return this.#poster;
  }
  get words(): ConferenceWords {
    return this.#words;
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

/** The next update: one refresh on, but never past the end of the day it shows. */
export function nextRefresh(conference: Conference, now: Date): Date {
  const next = now.getTime() + conference.refreshMinutes * 60_000;
  const today = eventDayAt(conference, now);
  if (today === undefined) return new Date(next);
  return new Date(Math.min(next, dayEnd(today, conference.zone).getTime()));
}

/** The question of one window of the event: the service's whole top, filtered here. */
export function conferenceQuestion(
  conference: Conference,
  window: { readonly start: string; readonly end: string },
): InfluencersQuery {
  return {
    databases: conference.databases,
    start: window.start,
    end: window.end,
    timezone: conference.zone,
    limit: serviceMaxLimit,
    metric: metricsRankedBy(defaultMetric),
  };
}

/** The top N after the stakeholder filter, and each watched account's place among all kept. */
export function rankedFor(
  conference: Conference,
  answer: InfluencersResult,
): { readonly result: InfluencersResult; readonly watch: WatchedRank[] } {
  const selection =
    conference.stakeholders === undefined ? {} : { stakeholders: conference.stakeholders };
  const all = selectLocally(answer, selection, serviceMaxLimit);
  const places = new Map<string, number>();
  for (const person of all.influencers) {
    const key = person.screenName.replace(/^@+/u, '').toLowerCase();
    if (!places.has(key)) places.set(key, person.rank);
  }
  const watch = conference.watch.map((screenName) => {
    const rank = places.get(screenName.toLowerCase());
    return rank === undefined ? { screenName } : { screenName, rank };
  });
  return {
    result: { ...all, influencers: all.influencers.slice(0, conference.top) },
    watch,
  };
}

const rankedAccounts = (result: InfluencersResult): RankedAccount[] =>
  result.influencers.map(({ screenName, rank }) => ({ screenName, rank }));

/** One conference brought up to date at one tick. */
class ConferenceRun {
  readonly conference: Conference;
  state: ConferenceState;
  readonly #runner: ConferenceRunner;
  readonly #now: Date;
  readonly #ask: AskQuestion;
  readonly #report: ConferenceTickReport;
  /** Keys of the posts already recorded (sent, or cut off while being sent). */
  #recorded = new Set<string>();

  constructor(
    runner: ConferenceRunner,
    conference: Conference,
    now: Date,
    ask: AskQuestion,
    report: ConferenceTickReport,
  ) {
    this.#runner = runner;
    this.conference = conference;
    this.state = conference.state;
    this.#now = now;
    this.#ask = ask;
    this.#report = report;
  }

  async bringUpToDate(): Promise<{
    state: ConferenceState;
    nextRunAt?: Date;
    ended?: ConferenceEnd;
  }> {
    const { conference } = this;
    const now = this.#now;
    const span = eventSpan(conference);
    const stopping = conference.stopRequestedAt !== undefined;
    const over = stopping || now.getTime() >= span.end.getTime();
    const today = over ? undefined : eventDayAt(conference, now);
    if (!over && today === undefined) return { state: this.state, nextRunAt: span.start };
    await this.#restore();
    const started = eventDays(conference).filter(
      (day) => dayStart(day, conference.zone).getTime() <= now.getTime(),
    );
    const showing = today ?? this.state.shownDay ?? started.at(-1);
    if (showing === undefined) {
      // Stopped before its first day: nothing was ever posted, nothing to recap.
      return { state: this.state, ended: 'stopped' };
    }
    const fresh = this.state.messageTs === undefined;
    if (fresh) await this.#postBoard(await this.#board(showing, false));
    for (const day of started) {
      if (dayEnd(day, conference.zone).getTime() > now.getTime()) continue;
      await this.#recap(day);
    }
    if (over) {
      await this.#final(stopping && now.getTime() < span.end.getTime());
      const board = await this.#board(this.state.shownDay ?? showing, true);
      await this.#update(board);
      return { state: this.state, ended: stopping ? 'stopped' : 'finished' };
    }
    // A leaderboard posted in this run already shows today as it is now.
    if (!fresh || this.state.shownDay !== today) {
      await this.#update(await this.#board(today as string, false));
      this.#report.updated++;
    }
    return { state: this.state, nextRunAt: nextRefresh(conference, now) };
  }

  /** What the records say was posted: the leaderboard to update, the recaps already sent. */
  async #restore(): Promise<void> {
    const posts = await this.#runner.store.posts(this.conference.id);
    this.#recorded = new Set(posts.map((post) => post.key));
    let boards = this.state.boards;
    let messageTs = this.state.messageTs;
    for (const post of posts) {
      const n = /^board:(\d+)$/.exec(post.key)?.[1];
      if (n === undefined) continue;
      boards = Math.max(boards, Number(n));
      if (Number(n) === boards) messageTs = post.messageTs;
    }
    this.state = { ...this.state, boards, ...(messageTs === undefined ? {} : { messageTs }) };
    if (messageTs === undefined) {
      const { messageTs: _lost, ...rest } = this.state;
      this.state = rest;
    }
  }

  async #answer(day: string, until: Date): Promise<ReturnType<typeof rankedFor>> {
    try {
      const answer = await this.#ask(
        conferenceQuestion(this.conference, dayWindow(day, this.conference.zone, until)),
      );
      return rankedFor(this.conference, answer);
    } catch (error) {
      throw asRunError(error);
    }
  }

  async #board(day: string, final: boolean): Promise<Leaderboard> {
    const { conference } = this;
    // Conferences updated in the same minute ask the same question, and share its answer.
    const until = final
      ? dayEnd(day, conference.zone)
      : new Date(Math.floor(this.#now.getTime() / 60_000) * 60_000);
    const { result, watch } = await this.#answer(day, until);
    const previous = this.state.shownDay === day ? this.state.lastRanking : undefined;
    return {
      day,
      dayNumber: dayNumber(conference, day),
      dayCount: eventDays(conference).length,
      result,
      ...(previous === undefined ? {} : { previous }),
      watch,
      updatedAt: this.#now,
      final,
    };
  }

  /** Posts a new leaderboard and pins it; the previous one (if any) is left as it was. */
  async #postBoard(board: Leaderboard): Promise<void> {
    const { conference } = this;
    const runner = this.#runner;
    const n = this.state.boards + 1;
    const ts = await this.#post(boardKey(n), runner.words.leaderboard(conference, board));
    this.#report.boards++;
    this.state = { ...this.state, boards: n, pinned: false, ...this.#shown(board) };
    if (ts === undefined) return;
    this.state = { ...this.state, messageTs: ts };
    await this.#save();
    const pinned = await runner
      .slack(() => runner.poster.pin(conference.channelId, ts))
      .catch((error: unknown) => {
        throw asRunError(error);
      });
    this.state = { ...this.state, pinned: pinned === 'pinned' };
    if (pinned === 'refused') await this.#post(pinNoteKey, runner.words.unpinned(conference), ts);
    await this.#save();
  }

  #shown(board: Leaderboard): Pick<ConferenceState, 'shownDay' | 'lastRanking' | 'updatedAt'> {
    return {
      shownDay: board.day,
      lastRanking: rankedAccounts(board.result),
      updatedAt: board.updatedAt.toISOString(),
    };
  }

  /** Edits the leaderboard in place; one Slack can no longer edit is replaced by a new one. */
  async #update(board: Leaderboard): Promise<void> {
    const { conference } = this;
    const runner = this.#runner;
    const ts = this.state.messageTs;
    if (ts === undefined) {
      await this.#postBoard(board);
      return;
    }
    const message = runner.words.leaderboard(conference, board);
    const outcome = await runner
      .slack(() => runner.poster.update(conference.channelId, ts, message))
      .catch((error: unknown) => {
        throw asRunError(error);
      });
    if (outcome === 'gone') {
      runner.logger.info(
        { conferenceId: conference.id },
        'leaderboard no longer editable; posting a new one',
      );
      const { messageTs: _gone, ...rest } = this.state;
      this.state = rest;
      if (this.state.pinned) {
        await runner
          .slack(() => runner.poster.unpin(conference.channelId, ts))
          .catch((error: unknown) =>
            runner.logger.info({ err: error }, 'old leaderboard not unpinned'),
          );
      }
      await this.#postBoard(board);
      return;
    }
    this.state = { ...this.state, ...this.#shown(board) };
  }

  async #recap(day: string): Promise<void> {
    const { conference } = this;
    if (this.state.days.some((done) => done.day === day)) return;
    const { result, watch } = await this.#answer(day, dayEnd(day, conference.zone));
    const dayResult: DayResult = { day, top: rankedAccounts(result), watch };
    if (!this.#recorded.has(recapKey(day))) {
      const dayBefore = this.state.days.at(-1);
      const message = this.#runner.words.dayRecap(conference, {
        day,
        dayNumber: dayNumber(conference, day),
        dayCount: eventDays(conference).length,
        result,
        ...(dayBefore === undefined ? {} : { dayBefore }),
        watch,
      });
      await this.#post(recapKey(day), message, this.state.messageTs);
      this.#report.recaps++;
    }
    this.state = { ...this.state, days: [...this.state.days, dayResult] };
    await this.#save();
  }

  async #final(stoppedEarly: boolean): Promise<void> {
    const { conference } = this;
    if (this.#recorded.has(finalKey)) return;
    const span = eventSpan(conference);
    const until = new Date(Math.min(this.#now.getTime(), span.end.getTime()));
    let answer: InfluencersResult;
    try {
      answer = await this.#ask(conferenceQuestion(conference, eventWindow(conference, until)));
    } catch (error) {
      throw asRunError(error);
    }
    const { result, watch } = rankedFor(conference, answer);
    const message = this.#runner.words.finalRecap(conference, {
      result,
      days: this.state.days,
      watch,
      stoppedEarly,
    });
    await this.#post(finalKey, message, this.state.messageTs);
    this.#report.finals++;
  }

  /**
   * Sends one post under its record: undefined when the record was there (sent before) or the
   * post may have reached Slack although it failed (never sent twice); its ts otherwise.
   */
  async #post(
    key: string,
    message: Parameters<ConferencePoster['post']>[1],
    threadTs?: string,
  ): Promise<string | undefined> {
    const { conference } = this;
    const runner = this.#runner;
    const { store } = runner;
    if (!(await store.beginPost(conference.id, key, runner.owner, runner.clock.now())))
      return undefined;
    this.#recorded.add(key);
    try {
      const { ts } = await runner.slack(() =>
        runner.poster.post(conference.channelId, message, threadTs),
      );
      await store.completePost(conference.id, key, ts);
      return ts;
    } catch (error) {
      if (mayHavePosted(error)) {
        runner.logger.warn(
          { err: error, conferenceId: conference.id, key },
          'conference post unconfirmed; not sent again',
        );
        return undefined;
      }
      await store.abandonPost(conference.id, key);
      this.#recorded.delete(key);
      throw asRunError(error);
    }
  }

  async #save(): Promise<void> {
    const runner = this.#runner;
    await runner.store.saveState(this.conference.id, runner.owner, this.state, runner.clock.now());
  }
}

/** A failure as the run acts on it: wait for the next refresh, or end the conference. */
function asRunError(error: unknown): Error {
  if (error instanceof SkipToNextRefresh || error instanceof ConferenceEndedError) return error;
  const { failure, cause } = runFailure(error);
  if (failure.kind === 'transient') return new SkipToNextRefresh(failure.code, { cause });
  return new ConferenceEndedError(failure.code, failureDetail(failure), cause);
}
