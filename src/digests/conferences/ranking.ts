/** What a conference asks the service for a window, and its answer ranked for the conference. */
import { selectLocally, serviceMaxLimit } from '../../analytics/local-ranking.ts';
import type { InfluencersQuery, InfluencersResult } from '../../analytics/types.ts';
import type { Conference, WatchedRank } from '../../model/conference.ts';
import type { RankedAccount } from '../../model/digest.ts';
import { defaultMetric, metricsRankedBy } from '../../model/metrics.ts';

/** A conference's ranking of one window: its top N, and where each watched account stands. */
export interface Ranked {
  readonly result: InfluencersResult;
  readonly watch: WatchedRank[];
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
export function rankedFor(conference: Conference, answer: InfluencersResult): Ranked {
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

/** A ranking as the state keeps it: who, at which place. */
export const rankedAccounts = (result: InfluencersResult): RankedAccount[] =>
  result.influencers.map(({ screenName, rank }) => ({ screenName, rank }));
