/**
 * What a conference is: a live leaderboard of one event's databases over its days, pinned in a
 * channel. Plain data shared by the day math, the store, the engine and the surfaces; nothing here
 * does I/O or reads the clock.
 */
import type { DigestCanvas } from './canvas.ts';
import type { RankedAccount } from './digest.ts';
import { newDigestId } from './digest.ts';
import type { StakeholderFilter } from './stakeholders.ts';

/** The most accounts a watchlist follows. */
export const maxWatched = 20;
/** The default and the largest top N of a leaderboard. */
export const defaultConferenceTop = 10;
export const maxConferenceTop = 25;
/** The default and the shortest refresh, in minutes. */
export const defaultRefreshMinutes = 15;
export const minRefreshMinutes = 5;

/** What a person chose: the event, its days in its zone, and how the leaderboard looks. */
export interface ConferenceSpec {
  readonly databases: readonly string[];
  /** The event's first and last days, `yyyy-MM-dd`, whole days in `zone`. */
  readonly firstDay: string;
  readonly lastDay: string;
  /** IANA zone (or `UTC`) the days are read in. */
  readonly zone: string;
  /** Screen names without `@`, in the creator's order. */
  readonly watch: readonly string[];
  readonly top: number;
  readonly refreshMinutes: number;
  readonly stakeholders?: StakeholderFilter;
}

/** A watched account's place in a day's ranking; absent when it is not in the top 500. */
export interface WatchedRank {
  readonly screenName: string;
  readonly rank?: number;
}

/** One finished event day, as its recap said it. */
export interface DayResult {
  readonly day: string;
  readonly top: readonly RankedAccount[];
  readonly watch: readonly WatchedRank[];
}

/**
 * Why a conference ended: its last day passed, a person stopped it, or a failure no retry can fix
 * (`failed:<code>[:<detail>]`, as digests keep theirs).
 */
export type ConferenceEnd = 'finished' | 'stopped' | `failed:${string}`;

/** A leaderboard's pin still to make: Slack rate limited it, and it is tried again. */
export interface PendingPin {
  readonly ts: string;
  readonly attempts: number;
  /** ISO instant: not tried again before it (Slack's Retry-After). */
  readonly notBefore: string;
  /** ISO instant of the leaderboard's next refresh, when a pin's retry comes before it. */
  readonly refreshAt?: string;
}

/** What the engine keeps between two updates. */
export interface ConferenceState {
  /** The leaderboard message now updated, and how many leaderboards were posted before it. */
  readonly messageTs?: string;
  readonly boards: number;
  readonly pinned: boolean;
  /** The day the leaderboard shows, and its ranking at the previous update (for the moves). */
  readonly shownDay?: string;
  readonly lastRanking?: readonly RankedAccount[];
  readonly updatedAt?: string;
  /** Every day whose recap was posted, in order. */
  readonly days: readonly DayResult[];
  /**
   * What the canvas was last rewritten for: the last recapped day (`yyyy-MM-dd`), or `final`. A
   * run that finds it behind the recaps rewrites the canvas, so a runner killed between a recap
   * and its canvas leaves the next run to write it.
   */
  readonly canvasThrough?: string;
  /** True when a post was left unconfirmed: the next run looks for it in the channel. */
  readonly unsettled?: boolean;
  /** The leaderboard's pin, when Slack did not make it yet. */
  readonly pin?: PendingPin;
}

export const initialConferenceState: ConferenceState = { boards: 0, pinned: false, days: [] };

export interface Conference extends ConferenceSpec {
  readonly id: string;
  readonly teamId: string;
  readonly channelId: string;
  readonly creatorId: string;
  readonly status: 'active' | 'ended';
  readonly ended?: ConferenceEnd;
  /** When a person asked it to stop; it ends at its next run. */
  readonly stopRequestedAt?: Date;
  readonly nextRunAt: Date;
  readonly state: ConferenceState;
  readonly createdAt: Date;
  /** The channel canvas it keeps as the congress's standing report; absent when it never kept one. */
  readonly canvas?: DigestCanvas;
}

export interface NewConference extends ConferenceSpec {
  readonly teamId: string;
  readonly channelId: string;
  readonly creatorId: string;
  readonly nextRunAt: Date;
  /** Keep a channel canvas, rewritten after each day's recap and the final one. */
  readonly canvas?: boolean;
}

/** Ids look like digest ids (`/influencers conference stop <id>`), drawn the same way. */
export const newConferenceId = newDigestId;
