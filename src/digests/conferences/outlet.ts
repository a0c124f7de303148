/**
 * What the conference engine needs from Slack and from the words, as interfaces: the engine
 * decides what to post, update or pin and when; the Slack layer sends it and the renderer words it.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import type { Conference, DayResult, WatchedRank } from '../../model/conference.ts';
import type { RankedAccount } from '../../model/digest.ts';
import type { SlackMessage } from '../../model/message.ts';

export interface ConferencePoster {
  /** chat.postMessage, in `threadTs`'s thread when given. */
  post(channelId: string, message: SlackMessage, threadTs?: string): Promise<{ ts: string }>;
  /**
   * chat.update; `gone` when Slack can no longer edit that message (`edit_window_closed` in a
   * workspace that limits edits, `message_not_found` once someone deleted it).
   */
  update(channelId: string, ts: string, message: SlackMessage): Promise<'updated' | 'gone'>;
  /** pins.add; `refused` for `too_many_pins` or `not_pinnable` (`already_pinned` is pinned). */
  pin(channelId: string, ts: string): Promise<'pinned' | 'refused'>;
  /** pins.remove of a leaderboard replaced by a new one; a failure is only logged. */
  unpin(channelId: string, ts: string): Promise<void>;
  /** A direct message to the conference's creator. */
  notifyCreator(userId: string, message: SlackMessage): Promise<void>;
}

/** The leaderboard as it stands at one update. */
export interface Leaderboard {
  readonly day: string;
  readonly dayNumber: number;
  readonly dayCount: number;
  /** Today's top N so far, filtered by the stakeholders asked for. */
  readonly result: InfluencersResult;
  /** The ranking at the previous update of the same day: the moves are against it. */
  readonly previous?: readonly RankedAccount[];
  readonly watch: readonly WatchedRank[];
  readonly updatedAt: Date;
  /** True for the last edit, after the event (or once stopped): no update comes after it. */
  readonly final: boolean;
}

/** A day that ended, against the day before. */
export interface DayRecap {
  readonly day: string;
  readonly dayNumber: number;
  readonly dayCount: number;
  readonly result: InfluencersResult;
  readonly dayBefore?: DayResult;
  readonly watch: readonly WatchedRank[];
}

/** The whole event, once it is over. */
export interface FinalRecap {
  readonly result: InfluencersResult;
  readonly days: readonly DayResult[];
  readonly watch: readonly WatchedRank[];
  /** True when a person stopped it before its last day ended. */
  readonly stoppedEarly: boolean;
}

export interface ConferenceWords {
  leaderboard(conference: Conference, board: Leaderboard): SlackMessage;
  dayRecap(conference: Conference, recap: DayRecap): SlackMessage;
  finalRecap(conference: Conference, recap: FinalRecap): SlackMessage;
  /** Said once in the thread when the leaderboard could not be pinned. */
  unpinned(conference: Conference): SlackMessage;
  /**
   * The DM to the creator when a post may or may not have reached the channel (cut off
   * mid-request): it is never sent twice, so they are shown what it said.
   */
  unconfirmed(conference: Conference, message: SlackMessage): SlackMessage;
  /** The DM to the creator when a failure no retry can fix ended the conference. */
  ended(
    conference: Conference,
    failure: { readonly code: string; readonly detail?: string },
  ): SlackMessage;
}

/** The congress as its canvas shows it, after a day's recap or the final one. */
export interface ConferenceReport {
  /** The whole congress's top N so far, up to `through`. */
  readonly result: InfluencersResult;
  readonly watch: readonly WatchedRank[];
  /** Every recapped day, in order. */
  readonly days: readonly DayResult[];
  /** The end of the window `result` covers. */
  readonly through: Date;
  readonly final: boolean;
  readonly stoppedEarly: boolean;
}

/**
 * Keeps a conference's channel canvas (the canvas writer of the surface, its words, its records).
 * Never throws and never holds up a post: the engine calls it once a run has posted.
 */
export interface ConferenceCanvasKeeper {
  write(conference: Conference, report: ConferenceReport, now: Date): Promise<void>;
}
