/** Sends a conference's leaderboards and recaps, each under a record, and keeps what they leave. */
import type { Conference, ConferenceState, DayResult } from '../../model/conference.ts';
import { mayHavePosted } from '../failures.ts';
import { dayNumber, eventDays } from './days.ts';
import { asRunError, ConferenceEndedError, type ConferenceTickReport } from './outcomes.ts';
import type { ConferencePoster, Leaderboard } from './outlet.ts';
import type { PostParts } from './parts.ts';
import { nextRun, pinRetry } from './pins.ts';
import { type Ranked, rankedAccounts } from './ranking.ts';
import { reconcilePosts } from './reconcile.ts';

export type { PostParts } from './parts.ts';

const boardKey = (n: number) => `board:${n}`;
const recapKey = (day: string) => `recap:${day}`;
const finalKey = 'final';
const pinNoteKey = 'pin-note';

/**
 * One conference's posts at one tick, and the state they leave. Every post has a record written
 * right before it is sent (see `ConferenceRepository`), and what was posted is read back from the
 * records when a conference is claimed, so a runner killed at any point neither loses a day's
 * recap nor posts one twice. A post cut off mid-request (it may or may not have reached Slack) is
 * never sent again as is: the next run that reads the records looks for it in the channel
 * (`reconcilePosts`), and posts it only when it is not there.
 */
export class ConferencePosts {
  readonly #parts: PostParts;
  readonly #conference: Conference;
  readonly #report: ConferenceTickReport;
  state: ConferenceState;
  /** Keys of the posts already recorded (sent, or cut off while being sent). */
  #recorded = new Set<string>();
  /** Keys of the posts this run began: whatever their record says, they are not left behind. */
  readonly #begun = new Set<string>();

  constructor(parts: PostParts, conference: Conference, report: ConferenceTickReport) {
    this.#parts = parts;
    this.#conference = conference;
    this.#report = report;
    this.state = conference.state;
  }

  /** What the records say was posted: the leaderboard to update, the recaps already sent. */
  async restore(): Promise<void> {
    const shown = this.state.messageTs;
    const { posts, unsettled } = await reconcilePosts(
      this.#parts,
      this.#conference,
      await this.#parts.store.posts(this.#conference.id),
      this.#begun,
    );
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
    // A leaderboard found in the records but not in the state was posted by a run that stopped
    // before it pinned it.
    if (messageTs !== undefined && messageTs !== shown) this.#queuePin(messageTs);
    // A day whose recap was not in the channel is recapped again when its turn comes.
    const days = this.state.days.filter((done) => this.#recorded.has(recapKey(done.day)));
    const { unsettled: _settled, ...settled } = this.state;
    this.state = { ...settled, days, ...(unsettled ? { unsettled } : {}) };
  }

  /** True when a post of an earlier run is left to look for in the channel. */
  get unsettled(): boolean {
    return this.state.unsettled === true;
  }

  /** True once `day` is recapped in the state: nothing is asked or posted for it again. */
  recapped(day: string): boolean {
    return this.state.days.some((done) => done.day === day);
  }

  /** True once the final recap was recorded (sent, or cut off while being sent). */
  get finalRecorded(): boolean {
    return this.#recorded.has(finalKey);
  }

  /** Posts a new leaderboard and pins it; the previous one (if any) is left as it was. */
  async postBoard(board: Leaderboard): Promise<void> {
    const conference = this.#conference;
    const parts = this.#parts;
    const n = this.state.boards + 1;
    const ts = await this.#post(boardKey(n), parts.words.leaderboard(conference, board));
    this.#report.boards++;
    this.state = { ...this.state, boards: n, pinned: false, ...this.#shown(board) };
    if (ts === undefined) return;
    this.state = { ...this.state, messageTs: ts };
    this.#queuePin(ts);
    await this.#save();
    await this.pinDue();
  }

  #queuePin(ts: string): void {
    const notBefore = this.#parts.clock.now().toISOString();
    this.state = { ...this.state, pinned: false, pin: { ts, attempts: 0, notBefore } };
  }

  /**
   * True when the conference runs now only for its pin: it was scheduled for the pin's retry
   * (a stop or `conference tick` moves the run, and the leaderboard is refreshed then).
   */
  pinRun(nextRunAt: Date): boolean {
    const pin = this.state.pin;
    if (pin?.refreshAt === undefined) return false;
    const at = nextRunAt.getTime();
    return Date.parse(pin.notBefore) === at && Date.parse(pin.refreshAt) > at;
  }

  /** When the conference runs next: its refresh at `refreshAt`, or its pin's retry before it. */
  nextRun(refreshAt: Date): Date {
    const pin = this.state.pin;
    if (pin === undefined) return refreshAt;
    this.state = { ...this.state, pin: { ...pin, refreshAt: refreshAt.toISOString() } };
    return nextRun(pin, refreshAt);
  }

  /** The refresh a pin's retry came before. */
  get refreshAt(): Date | undefined {
    const at = this.state.pin?.refreshAt;
    return at === undefined ? undefined : new Date(at);
  }

  /**
   * Pins the leaderboard when its pin is due. Slack's rate limit (or a passing failure) leaves it
   * queued until its Retry-After; only a pin Slack refuses, or one still not made after many
   * attempts, is said in the thread, once.
   */
  async pinDue(): Promise<void> {
    const conference = this.#conference;
    const parts = this.#parts;
    const pin = this.state.pin;
    const now = parts.clock.now();
    if (pin === undefined || Date.parse(pin.notBefore) > now.getTime()) return;
    const { pin: _done, ...rest } = this.state;
    if (pin.ts !== this.state.messageTs) {
      this.state = rest;
      return;
    }
    let pinned: 'pinned' | 'refused' | 'given up';
    try {
      pinned = await parts.slack(() =>
        parts.posters.forTeam(conference.teamId).pin(conference.channelId, pin.ts),
      );
    } catch (error) {
      if (asRunError(error) instanceof ConferenceEndedError) throw asRunError(error);
      const retry = pinRetry(pin, conference.id, error, now);
      if (retry !== undefined) {
        parts.logger.info(
          { err: error, conferenceId: conference.id, attempts: retry.attempts },
          'leaderboard not pinned yet; trying again later',
        );
        this.state = { ...this.state, pin: retry };
        await this.#save();
        return;
      }
      parts.logger.warn({ err: error, conferenceId: conference.id }, 'leaderboard pin given up');
      pinned = 'given up';
    }
    this.state = { ...rest, pinned: pinned === 'pinned' };
    if (pinned !== 'pinned') {
      const reason = pinned === 'refused' ? 'refused' : 'rate_limited';
      await this.#post(pinNoteKey, parts.words.unpinned(conference, reason), pin.ts);
    }
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
  async update(board: Leaderboard): Promise<void> {
    const conference = this.#conference;
    const parts = this.#parts;
    const ts = this.state.messageTs;
    if (ts === undefined) {
      await this.postBoard(board);
      return;
    }
    const message = parts.words.leaderboard(conference, board);
    const outcome = await parts
      .slack(() =>
        parts.posters.forTeam(conference.teamId).update(conference.channelId, ts, message),
      )
      .catch((error: unknown) => {
        throw asRunError(error);
      });
    if (outcome === 'gone') {
      parts.logger.info(
        { conferenceId: conference.id },
        'leaderboard no longer editable; posting a new one',
      );
      const { messageTs: _gone, ...rest } = this.state;
      this.state = rest;
      if (this.state.pinned) {
        await parts
          .slack(() => parts.posters.forTeam(conference.teamId).unpin(conference.channelId, ts))
          .catch((error: unknown) =>
            parts.logger.info({ err: error }, 'old leaderboard not unpinned'),
          );
      }
      // A run killed while replacing it may have posted the next one: the records say.
      await this.restore();
      if (this.state.messageTs !== undefined && this.state.messageTs !== ts) {
        await this.update(board);
        return;
      }
      if (this.state.messageTs === ts) {
        const { messageTs: _same, ...same } = this.state;
        this.state = same;
      }
      await this.postBoard(board);
      return;
    }
    this.state = { ...this.state, ...this.#shown(board) };
  }

  /** Recaps the ended `day` in the leaderboard's thread, unless its recap was recorded before. */
  async recap(day: string, { result, watch }: Ranked): Promise<void> {
    const conference = this.#conference;
    const dayResult: DayResult = { day, top: rankedAccounts(result), watch };
    if (!this.#recorded.has(recapKey(day))) {
      const dayBefore = this.state.days.findLast((done) => done.day < day);
      const message = this.#parts.words.dayRecap(conference, {
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
    const days = [...this.state.days, dayResult].sort((a, b) => a.day.localeCompare(b.day));
    this.state = { ...this.state, days };
    await this.#save();
  }

  /** Recaps the whole event in the leaderboard's thread. */
  async final({ result, watch }: Ranked, stoppedEarly: boolean, through: Date): Promise<void> {
    const message = this.#parts.words.finalRecap(this.#conference, {
      result,
      days: this.state.days,
      watch,
      stoppedEarly,
      through,
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
    const conference = this.#conference;
    const parts = this.#parts;
    const { store } = parts;
    if (!(await store.beginPost(conference.id, key, parts.owner, parts.clock.now())))
      return undefined;
    this.#recorded.add(key);
    this.#begun.add(key);
    const marker = { conferenceId: conference.id, key };
    try {
      const { ts } = await parts.slack(() =>
        parts.posters
          .forTeam(conference.teamId)
          .post(conference.channelId, message, threadTs, marker),
      );
      await store.completePost(conference.id, key, ts);
      return ts;
    } catch (error) {
      if (mayHavePosted(error)) {
        parts.logger.warn(
          { err: error, conferenceId: conference.id, key },
          'conference post unconfirmed; the next run looks for it in the channel',
        );
        this.state = { ...this.state, unsettled: true };
        return undefined;
      }
      await store.abandonPost(conference.id, key);
      this.#recorded.delete(key);
      throw asRunError(error);
    }
  }

  async #save(): Promise<void> {
    const parts = this.#parts;
    await parts.store.saveState(this.#conference.id, parts.owner, this.state, parts.clock.now());
  }
}
