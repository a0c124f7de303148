/**
 * What the conference engine needs from Slack and from the words, as interfaces: the engine
 * decides what to post, update or pin and when; the Slack layer sends it and the renderer words it.
 */
import type { InfluencersResult } from '../../analytics/types.ts';
import type { Conference, DayResult, WatchedRank } from '../../model/conference.ts';
import type { RankedAccount } from '../../model/digest.ts';
import type { SlackMessage } from '../../model/message.ts';

/** What a post carries (as Slack's message metadata) so it can be found again in the channel. */
export interface PostMarker {
  readonly conferenceId: string;
  /** The post's record key: `board:<n>`, `recap:<day>`, `final`, `pin-note`. */
  readonly key: string;
}

/** Whether a post is in the channel: its ts, `absent`, or `unknown` when Slack cannot say. */
export type FoundPost = { readonly ts: string } | 'absent' | 'unknown';

export interface ConferencePoster {
  /** chat.postMessage, in `threadTs`'s thread when given, carrying `marker` when given. */
  post(
    channelId: string,
    message: SlackMessage,
    threadTs?: string,
    marker?: PostMarker,
  ): Promise<{ ts: string }>;
  /**
   * Looks for the post carrying `marker` among the channel's messages since `since`
   * (conversations.history), or in `threadTs`'s thread (conversations.replies). `unknown` when
   * the history cannot be read (an installation without the history scopes); a passing failure
   * (rate limit, Slack down) throws. A surface without history leaves it out: `unknown`.
   */
  find?(channelId: string, marker: PostMarker, since: Date, threadTs?: string): Promise<FoundPost>;
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

/** A post whose record was left unconfirmed, as its creator is told of it. */
export type UnreconciledPost =
  | { readonly kind: 'leaderboard' | 'final' | 'pin-note' }
  | { readonly kind: 'recap'; readonly dayNumber: number; readonly dayCount: number };

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
  /** The end of the window it covers: the stop, when stopped early. */
  readonly through: Date;
}

export interface ConferenceWords {
  leaderboard(conference: Conference, board: Leaderboard): SlackMessage;
  dayRecap(conference: Conference, recap: DayRecap): SlackMessage;
  finalRecap(conference: Conference, recap: FinalRecap): SlackMessage;
  /**
   * Said once in the thread when the leaderboard could not be pinned: Slack refused it, or kept
   * rate limiting it until the app gave up.
   */
  unpinned(conference: Conference, reason: 'refused' | 'rate_limited'): SlackMessage;
  /**
   * The DM to the creator when a post left unconfirmed by an instance that stopped could not be
   * looked for in the channel (the history cannot be read): which post, so they can check.
   */
  unreconciled(conference: Conference, post: UnreconciledPost): SlackMessage;
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
