/** Brings one conference up to date at one tick: which day to show, what to ask, what to post. */
import type { InfluencersResult } from '../../analytics/types.ts';
import type { Conference, ConferenceEnd, ConferenceState } from '../../model/conference.ts';
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
import { asRunError, type ConferenceTickReport } from './outcomes.ts';
import type { ConferenceCanvasKeeper, Leaderboard } from './outlet.ts';
import { ConferencePosts, type PostParts } from './posts.ts';
import { conferenceQuestion, type Ranked, rankedFor } from './ranking.ts';

/** What a refresh uses: posting's parts, and the canvas keeper. */
export interface RefreshParts extends PostParts {
  /** Keeps the canvases of conferences that keep one; none without it. */
  readonly canvas: ConferenceCanvasKeeper | undefined;
}

/** The next update: one refresh on, but never past the end of the day it shows. */
export function nextRefresh(conference: Conference, now: Date): Date {
  const next = now.getTime() + conference.refreshMinutes * 60_000;
  const today = eventDayAt(conference, now);
  if (today === undefined) return new Date(next);
  return new Date(Math.min(next, dayEnd(today, conference.zone).getTime()));
}

/**
 * One conference brought up to date at one tick (see `ConferenceRunner`): what was posted is read
 * back from the post records, the leaderboard is posted or edited, each ended day recapped, and
 * the end recapped once. Failures are sorted as a digest's: wait for the next refresh, or end.
 */
export class ConferenceRefresh {
  readonly conference: Conference;
  readonly #parts: RefreshParts;
  readonly #now: Date;
  readonly #ask: AskQuestion;
  readonly #report: ConferenceTickReport;
  readonly #posts: ConferencePosts;

  constructor(
    parts: RefreshParts,
    conference: Conference,
    now: Date,
    ask: AskQuestion,
    report: ConferenceTickReport,
  ) {
    this.#parts = parts;
    this.conference = conference;
    this.#now = now;
    this.#ask = ask;
    this.#report = report;
    this.#posts = new ConferencePosts(parts, conference, report);
  }

  /** Where the refresh got to: the runner saves it however the refresh ends. */
  get state(): ConferenceState {
    return this.#posts.state;
  }

  async bringUpToDate(): Promise<{
    state: ConferenceState;
    nextRunAt?: Date;
    ended?: ConferenceEnd;
  }> {
    const { conference } = this;
    const posts = this.#posts;
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
      !posts.unsettled &&
      this.state.messageTs !== undefined &&
      ended.every((day) => this.state.days.some((done) => done.day === day));
    if (plainRefresh && posts.pinRun(conference.nextRunAt)) {
      const refreshAt = posts.refreshAt ?? nextRefresh(conference, now);
      await posts.pinDue();
      const nextRunAt = posts.nextRun(refreshAt);
      return { state: this.state, nextRunAt };
    }
    if (!plainRefresh) await posts.restore();
    const showing = today ?? this.state.shownDay ?? started.at(-1);
    if (showing === undefined) {
      // Stopped before its first day: nothing was ever posted, nothing to recap.
      return { state: this.state, ended: 'stopped' };
    }
    const fresh = this.state.messageTs === undefined;
    if (fresh) await posts.postBoard(await this.#board(showing, false));
    for (const day of ended) await this.#recap(day);
    if (over) {
      const stoppedEarly = stopping && now.getTime() < span.end.getTime();
      await this.#final(stoppedEarly);
      const board = await this.#board(this.state.shownDay ?? showing, true);
      await posts.update(board);
      await this.#keepCanvas(true, stoppedEarly);
      return { state: this.state, ended: stopping ? 'stopped' : 'finished' };
    }
    // A leaderboard posted in this run already shows today as it is now.
    if (!fresh || this.state.shownDay !== today) {
      await posts.update(await this.#board(today as string, false));
      this.#report.updated++;
    }
    await this.#keepCanvas(false, false);
    await posts.pinDue();
    // Read after: the next run may be the pin's, which keeps the refresh it comes before.
    const nextRunAt = posts.nextRun(nextRefresh(conference, now));
    return { state: this.state, nextRunAt };
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
    const keeper = this.#parts.canvas;
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
      this.#parts.logger.warn(
        { err: error, conferenceId: conference.id },
        'conference canvas not written; the next refresh tries again',
      );
      return;
    }
    this.#posts.state = { ...this.state, canvasThrough: through };
  }

  async #answer(day: string, until: Date): Promise<Ranked> {
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

  async #recap(day: string): Promise<void> {
    if (this.#posts.recapped(day)) return;
    await this.#posts.recap(day, await this.#answer(day, dayEnd(day, this.conference.zone)));
  }

  async #final(stoppedEarly: boolean): Promise<void> {
    const { conference } = this;
    if (this.#posts.finalRecorded) return;
    const span = eventSpan(conference);
    const until = new Date(Math.min(this.#now.getTime(), span.end.getTime()));
    let answer: InfluencersResult;
    try {
      answer = await this.#ask(conferenceQuestion(conference, eventWindow(conference, until)));
    } catch (error) {
      throw asRunError(error);
    }
    await this.#posts.final(rankedFor(conference, answer), stoppedEarly, until);
  }
}
