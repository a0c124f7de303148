/**
 * Where conferences live, beside the digests in the same database (SQLite or PostgreSQL): one
 * interface, one SQL implementation (`sql/conferences.ts`), held to one contract suite on both
 * dialects. Their canvases are the canvas repository's (`canvases.ts`).
 *
 * Exactly one updater per conference rests on the same two mechanisms as digests: a lease
 * (`claimDue` hands a due conference to one runner for `leaseMs`; a runner that dies lets it go
 * once the lease expires) and a record per post (`beginPost` marks a post `posting` right before
 * it is sent, `completePost` marks it `posted` with its ts). A post whose record exists is never
 * sent again, so a runner killed at any point doubles nothing: the next one reads what was
 * posted from the records.
 */
import type {
  Conference,
  ConferenceEnd,
  ConferenceSpec,
  ConferenceState,
  NewConference,
} from '../model/conference.ts';

export interface ConferenceClaim {
  readonly conference: Conference;
  readonly leaseUntil: Date;
}

/** A post's record: `posting` while (or if it died while) it was sent, then `posted`. */
export interface ConferencePost {
  readonly key: string;
  readonly status: 'posting' | 'posted';
  readonly messageTs?: string;
  /** When it was begun: where in the channel's history to look for it. */
  readonly startedAt: Date;
  /** True once the creator was told it could not be confirmed (it is then never sent again). */
  readonly noticed: boolean;
}

/** What an edit may change; `canvas` turns the channel canvas on or off. */
export type ConferenceSettings = Partial<Pick<ConferenceSpec, 'watch' | 'refreshMinutes'>> & {
  readonly canvas?: boolean;
};

export interface ConferenceRepository {
  create(input: NewConference, now: Date): Promise<Conference>;
  get(id: string): Promise<Conference | undefined>;
  listByChannel(teamId: string, channelId: string): Promise<Conference[]>;
  /** The workspace's conferences still running, soonest update first (the Home tab). */
  listActive(teamId: string): Promise<Conference[]>;
  /** Leases up to `limit` active conferences due at `now`; concurrent callers never share one. */
  claimDue(
    now: Date,
    options: { readonly limit: number; readonly leaseMs: number; readonly owner: string },
  ): Promise<ConferenceClaim[]>;
  /** Saves the engine's state while `owner` holds the lease; false when it no longer does. */
  saveState(id: string, owner: string, state: ConferenceState, now: Date): Promise<boolean>;
  /**
   * Saves the state and gives the lease back, with the next update at `nextRunAt`, or ends the
   * conference with `ended`. Only while `owner` holds the lease.
   */
  finish(
    id: string,
    owner: string,
    outcome: {
      readonly state: ConferenceState;
      readonly nextRunAt?: Date;
      readonly ended?: ConferenceEnd;
    },
    now: Date,
  ): Promise<boolean>;
  releaseLease(id: string, owner: string): Promise<void>;
  /** Creates the post's record as `posting`; false when it exists (sent, or being sent). */
  beginPost(id: string, key: string, owner: string, now: Date): Promise<boolean>;
  completePost(id: string, key: string, messageTs: string): Promise<void>;
  /** Removes a `posting` record whose post certainly did not reach Slack, so it can be sent later. */
  abandonPost(id: string, key: string): Promise<void>;
  posts(id: string): Promise<ConferencePost[]>;
  /**
   * Marks a `posting` record as told to the creator; false when it was told before (or is no
   * longer `posting`), so of several instances exactly one tells.
   */
  noticePost(id: string, key: string, now: Date): Promise<boolean>;
  /** Asks an active conference to end at its next run, which is now; undefined when none. */
  requestStop(id: string, now: Date): Promise<Conference | undefined>;
  /** Makes the channel's active conferences due at `now` (`conference tick`); returns how many. */
  dueNow(teamId: string, channelId: string, now: Date): Promise<number>;
  /** Changes the watchlist or the refresh of an active conference; undefined when none. */
  update(id: string, settings: ConferenceSettings, now: Date): Promise<Conference | undefined>;
}
