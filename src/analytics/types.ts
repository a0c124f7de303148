/**
 * The analytics client's public data types. They describe what the bot needs, normalised from the
 * service's loosely specified body (see schema.ts): nothing here knows about Slack.
 */

import type { Metric } from '../model/metrics.ts';

export { type Metric, metricNames } from '../model/metrics.ts';

export interface InfluencersQuery {
  /** Predicates (hashtag, phrase, numeric id) and `group:` items, in the user's order. */
  readonly databases: readonly string[];
  /** Instants as ISO 8601 with offset, to the second (spec §2.4). */
  readonly start: string;
  readonly end: string;
  /** IANA Area/City zone, or UTC. */
  readonly timezone?: string;
  /** Sent only when set: 1..500 on the real service. */
  readonly limit?: number;
  /** Sent only when set; the first metric sorts the result. */
  readonly metric?: readonly Metric[];
}

export interface StakeholderCategory {
  readonly id?: number | string;
  readonly name: string;
}

export interface Influencer {
  /** Rank within this conversation (`symplurrank`), or the position in the answer when absent. */
  readonly rank: number;
  readonly screenName: string;
  readonly displayName?: string;
  readonly profileImageUrl?: string;
  /** Account-wide influence score. */
  readonly hsgScore?: number;
  /** The account's followers, when the service sends `followers_count`. */
  readonly followersCount?: number;
  readonly stakeholderCategories: readonly StakeholderCategory[];
  /** Conversation metrics the service sent for this influencer; absent ones are simply missing. */
  readonly metrics: Readonly<Partial<Record<Metric, number>>>;
}

export interface InfluencersResult {
  readonly influencers: readonly Influencer[];
  /**
   * Set when the ranking was filtered or ordered here rather than by the service
   * (`local-ranking.ts`): how many people the service ranked, and how many of them were kept.
   */
  readonly selection?: { readonly pool: number; readonly matched: number };
}

export interface CallOptions {
  /** Overall budget for the call including retries and Retry-After waits, in ms. */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
}

/** What the rest of the app depends on; the real client and test fakes both implement it. */
export interface AnalyticsApi {
  getInfluencers(query: InfluencersQuery, options?: CallOptions): Promise<InfluencersResult>;
}
