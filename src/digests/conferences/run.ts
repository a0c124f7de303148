/**
 * One conference brought up to date at one tick (see `ConferenceRunner`): what was posted is read
 * back from the post records, the leaderboard is posted or edited, each ended day recapped, and
 * the end recapped once. Failures are sorted as a digest's: wait for the next refresh, or end.
 */
import { selectLocally, serviceMaxLimit } from '../../analytics/local-ranking.ts';
import type { InfluencersQuery, InfluencersResult } from '../../analytics/types.ts';
import type { Logger } from '../../logger.ts';
import type {
  Conference,
  ConferenceEnd,
  ConferenceState,
  DayResult,
  WatchedRank,
} from '../../model/conference.ts';
import type { RankedAccount } from '../../model/digest.ts';
import { defaultMetric, metricsRankedBy } from '../../model/metrics.ts';
import type { ConferenceRepository } from '../../store/conferences.ts';
import type { Clock } from '../clock.ts';
import { failureDetail, mayHavePosted, outageCause, runFailure } from '../failures.ts';
import type { AskQuestion } from '../questions.ts';
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
import type {
  ConferenceCanvasKeeper,
  ConferencePoster,
  ConferenceWords,
  Leaderboard,
} from './outlet.ts';

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

/** What a run uses of the runner that runs it. */
export interface RunContext {
  readonly owner: string;
  readonly conferences: ConferenceRepository;
  readonly poster: ConferencePoster;
  readonly words: ConferenceWords;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Keeps the canvases of conferences that keep one; none without it. */
  readonly canvas: ConferenceCanvasKeeper | undefined;
  /** Slack calls go through it, a bounded number at once. */
  slack<T>(job: () => Promise<T>): Promise<T>;
}

/** A failure that ends the conference: a person must act (channel archived, token revoked). */
export class ConferenceEndedError extends Error {
  readonly code: string;
  readonly detail: string | undefined;

  constructor(code: string, detail: string | undefined, cause: unknown) {
    super(`conference ended: ${code}`, { cause });
    this.code = code;
    this.detail = detail;
  }
}

/** A step that failed for now (rate limit, a service briefly down): the next refresh tries again. */
export class SkipToNextRefresh extends Error {}

const boardKey = (n: number) => `board:${n}`;
const recapKey = (day: string) => `recap:${day}`;
const finalKey = 'final';
const pinNoteKey = 'pin-note';

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
export class ConferenceRun {
  readonly conference: Conference;
  state: ConferenceState;
  readonly #runner: RunContext;
  readonly #now: Date;
  readonly #ask: AskQuestion;
  readonly #report: ConferenceTickReport;
  /** Keys of the posts already recorded (sent, or cut off while being sent). */
  #recorded = new Set<string>();

  constructor(
    runner: RunContext,
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
    const started = eventDays(conference).filter(
      (day) => dayStart(day, conference.zone).getTime() <= now.getTime(),
    );
    const ended = started.filter((day) => dayEnd(day, conference.zone).getTime() <= now.getTime());
    // A plain refresh edits the leaderboard it knows and posts nothing, so it need not read the
    // records: were the state behind them (a runner killed between a post and its save), the edit
    // would meet a leaderboard Slack no longer edits, and the records would be read then.
    const plainRefresh =
      !over &&
      this.state.messageTs !== undefined &&
      ended.every((day) => this.state.days.some((done) => done.day === day));
    if (!plainRefresh) await this.#restore();
    const showing = today ?? this.state.shownDay ?? started.at(-1);
    if (showing === undefined) {
      // Stopped before its first day: nothing was ever posted, nothing to recap.
      return { state: this.state, ended: 'stopped' };
    }
    const fresh = this.state.messageTs === undefined;
    if (fresh) await this.#postBoard(await this.#board(showing, false));
    for (const day of ended) await this.#recap(day);
    if (over) {
      const stoppedEarly = stopping && now.getTime() < span.end.getTime();
      await this.#final(stoppedEarly);
      const board = await this.#board(this.state.shownDay ?? showing, true);
      await this.#update(board);
      await this.#keepCanvas(true, stoppedEarly);
      return { state: this.state, ended: stopping ? 'stopped' : 'finished' };
    }
    // A leaderboard posted in this run already shows today as it is now.
    if (!fresh || this.state.shownDay !== today) {
      await this.#update(await this.#board(today as string, false));
      this.#report.updated++;
    }
    await this.#keepCanvas(false, false);
    return { state: this.state, nextRunAt: nextRefresh(conference, now) };
  }

  /**
   * Rewrites the canvas once the posts of this run are made, when a recap (or the final one) came
   * after its last write. Its question is the final recap's, or the congress up to the end of the
   * last recapped day (the same for every conference of those days, so they share it). A question
   * that fails is asked again at the next refresh; a write Slack refuses is the keeper's to record,
   * and the next recap writes again. The canvas never holds up the leaderboard.
   */
  async #keepCanvas(final: boolean, stoppedEarly: boolean): Promise<void> {
    const { conference } = this;
    const keeper = this.#runner.canvas;
    if (keeper === undefined || conference.canvas?.enabled !== true) return;
    const lastDay = this.state.days.at(-1)?.day;
    const through = final ? 'final' : lastDay;
    if (through === undefined || through === this.state.canvasThrough) return;
    const span = eventSpan(conference);
    const until = final
      ? new Date(Math.min(this.#now.getTime(), span.end.getTime()))
      : dayEnd(lastDay as string, conference.zone);
    const window = final
      ? eventWindow(conference, until)
      : {
          start: dayWindow(conference.firstDay, conference.zone, until).start,
          end: dayWindow(lastDay as string, conference.zone, until).end,
        };
    try {
      const { result, watch } = rankedFor(
        conference,
        await this.#ask(conferenceQuestion(conference, window)),
      );
      await keeper.write(
        conference,
        { result, watch, days: this.state.days, through: until, final, stoppedEarly },
        this.#now,
      );
    } catch (error) {
      this.#runner.logger.warn(
        { err: error, conferenceId: conference.id },
        'conference canvas not written; the next refresh tries again',
      );
      return;
    }
    this.state = { ...this.state, canvasThrough: through };
  }

  /** What the records say was posted: the leaderboard to update, the recaps already sent. */
  async #restore(): Promise<void> {
    const posts = await this.#runner.conferences.posts(this.conference.id);
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
    // Conferences updated in the same minute ask the same question, and share its answer. The
    // final edit shows the whole day when it is over, and up to now when stopped early.
    const minute = new Date(Math.floor(this.#now.getTime() / 60_000) * 60_000);
    const until = final
      ? new Date(Math.min(dayEnd(day, conference.zone).getTime(), this.#now.getTime()))
      : minute;
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
    const { conferences } = runner;
    if (!(await conferences.beginPost(conference.id, key, runner.owner, runner.clock.now())))
      return undefined;
    this.#recorded.add(key);
    try {
      const { ts } = await runner.slack(() =>
        runner.poster.post(conference.channelId, message, threadTs),
      );
      await conferences.completePost(conference.id, key, ts);
      return ts;
    } catch (error) {
      if (mayHavePosted(error)) {
        runner.logger.warn(
          { err: error, conferenceId: conference.id, key },
          'conference post unconfirmed; not sent again',
        );
        // Not sent again, so its creator is told: they can look, and post it by hand if missing.
        await runner.poster
          .notifyCreator(conference.creatorId, runner.words.unconfirmed(conference, message))
          .catch((cause: unknown) =>
            runner.logger.warn({ err: cause, conferenceId: conference.id }, 'creator not told'),
          );
        return undefined;
      }
      await conferences.abandonPost(conference.id, key);
      this.#recorded.delete(key);
      throw asRunError(error);
    }
  }

  async #save(): Promise<void> {
    const runner = this.#runner;
    await runner.conferences.saveState(
      this.conference.id,
      runner.owner,
      this.state,
      runner.clock.now(),
    );
  }
}

/** A failure as the run acts on it: wait for the next refresh, or end the conference. */
export function asRunError(error: unknown): Error {
  if (error instanceof SkipToNextRefresh || error instanceof ConferenceEndedError) return error;
  const { failure, cause } = runFailure(error);
  // A failure of the whole app (the analytics service refusing its credentials, Slack out of
  // reach) is no reason to end every conference: it waits, as digests hold for an outage. A
  // revoked Slack token ends it: the app was removed.
  const outage = outageCause(cause);
  const appWide = outage !== undefined && outage !== 'slack_token_rejected';
  if (failure.kind === 'transient' || appWide) {
    return new SkipToNextRefresh(failure.code, { cause });
  }
  return new ConferenceEndedError(failure.code, failureDetail(failure), cause);
}
