/**
 * Deterministic synthetic influencers for the sandbox, drawn from the synthetic population. A
 * request's numbers depend only on its predicates, window and clock, so the same request always
 * gets the same answer and a longer window gets proportionally more activity.
 */

import { LRUCache } from 'lru-cache';
import { defined } from '../model/defined.ts';
import { type Metric, metricNames } from '../model/metrics.ts';
import type { CataloguePredicate } from './catalogue.ts';
import { type Account, population, type StakeholderCategory } from './population.ts';
import { sequence, unitHash } from './seeded.ts';

/** Metrics the influencers endpoint reports and sorts by (the `metric` parameter): the spec's. */
export const sandboxMetrics = metricNames;
export type SandboxMetric = Metric;

/** The wire format of one item of `influencers`, field names exactly as the service sends them. */
export interface WireInfluencer {
  readonly symplurrank: number;
  readonly mentions: number;
  readonly tweets: number;
  readonly retweets: number;
  readonly replies: number;
  readonly impressions: number;
  readonly urls: number;
  readonly user: {
    readonly id: string;
    readonly screen_name: string;
    readonly display_name?: string;
    readonly profile_image?: string;
    readonly hsg_score: number;
    readonly stakeholder_categories?: readonly StakeholderCategory[];
    readonly followers_count: number;
  };
}

const maxPoolSize = 220;
const pools = new Map<number, readonly { readonly account: Account; readonly share: number }[]>();

/** The accounts that take part in a predicate's conversation, with their share of its mentions. */
function poolOf(predicate: CataloguePredicate) {
  const cached = pools.get(predicate.id);
  if (cached !== undefined) return cached;
  const members = population
    .filter((account) => account.topics.some((topic) => predicate.topics.includes(topic)))
    .map((account) => ({
      account,
      order: unitHash(`pool:${predicate.id}:${account.screenName}`) / account.pull ** 1.5,
    }))
    .sort((a, b) => a.order - b.order)
    .slice(0, predicate.dailyMentions === 0 ? 0 : maxPoolSize);
  // A long-tailed (Zipf-like) split: a few accounts dominate every conversation.
  const weights = members.map((_, position) => 1 / (position + 6) ** 0.85);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const pool = members.map(({ account }, position) => ({
    account,
    share: (weights[position] ?? 0) / total,
  }));
  pools.set(predicate.id, pool);
  return pool;
}

export interface InfluencerQuery {
  readonly predicates: readonly CataloguePredicate[];
  readonly start: Date;
  readonly end: Date;
  /** Activity after this instant has not happened yet. */
  readonly now: Date;
  readonly metric: SandboxMetric;
  readonly limit: number;
}

interface Totals {
  account: Account;
  mentions: number;
  tweets: number;
  retweets: number;
  replies: number;
  impressions: number;
  urls: number;
}

const dayMs = 86_400_000;

/**
 * The top influencers of the union of `predicates` over [start, end), ranked by `metric`
 * (descending; ties broken by mentions, then screen name). Several predicates merge their pools:
 * an account active in two conversations gets the sum of both.
 */
export function topInfluencers(query: InfluencerQuery): WireInfluencer[] {
  const effectiveEnd = Math.min(query.end.getTime(), query.now.getTime());
  // Deterministic in these inputs: repeated questions (benchmarks, demos) cost a lookup, not a
  // fresh simulation, so the sandbox stays cheap beside the app it serves.
  const key = [
    query.predicates.map((predicate) => predicate.id).join(','),
    query.start.getTime(),
    query.end.getTime(),
    effectiveEnd,
    query.metric,
    query.limit,
  ].join('|');
  const known = answers.get(key);
  if (known !== undefined) return structuredClone(known);
  const answer = simulate(query, effectiveEnd);
  answers.set(key, answer);
  return structuredClone(answer);
}

const answers = new LRUCache<string, WireInfluencer[]>({ max: 500 });

function simulate(query: InfluencerQuery, effectiveEnd: number): WireInfluencer[] {
  const days = Math.max(0, effectiveEnd - query.start.getTime()) / dayMs;
  const window = `${query.start.getTime()}:${query.end.getTime()}`;
  const totals = new Map<string, Totals>();
  const seen = new Set<number>();

  for (const predicate of query.predicates) {
    if (seen.has(predicate.id)) continue;
    seen.add(predicate.id);
    if (days === 0) continue;
    for (const { account, share } of poolOf(predicate)) {
      const random = sequence(`${predicate.id}:${account.screenName}:${window}`);
      const expected = predicate.dailyMentions * share * days * (0.6 + 0.8 * random());
      const mentions = Math.floor(expected) + (random() < expected % 1 ? 1 : 0);
      const tweetsExpected = mentions * account.tweetRatio * (0.5 + random());
      const tweets = Math.floor(tweetsExpected) + (random() < tweetsExpected % 1 ? 1 : 0);
      if (mentions === 0 && tweets === 0) continue;
      const reach = Math.log10(10 + account.followers);
      const retweets = Math.round(tweets * reach * 0.6 * (0.4 + random()));
      const replies = Math.round((mentions + tweets) * 0.12 * (0.3 + random()));
      const impressions = Math.round(
        tweets * account.followers * 0.09 * (0.5 + random()) + mentions * 140 * (0.5 + random()),
      );
      const urls = Math.round(tweets * 0.3 * random());
      const total = totals.get(account.screenName);
      if (total === undefined) {
        totals.set(account.screenName, {
          account,
          mentions,
          tweets,
          retweets,
          replies,
          impressions,
          urls,
        });
      } else {
        total.mentions += mentions;
        total.tweets += tweets;
        total.retweets += retweets;
        total.replies += replies;
        total.impressions += impressions;
        total.urls += urls;
      }
    }
  }

  const value = (total: Totals): number =>
    query.metric === 'hsg_score' ? total.account.hsgScore : total[query.metric];
  return [...totals.values()]
    .sort(
      (a, b) =>
        value(b) - value(a) ||
        b.mentions - a.mentions ||
        (a.account.screenName < b.account.screenName ? -1 : 1),
    )
    .slice(0, query.limit)
    .map((total, index) => toWire(total, index + 1));
}

function toWire(total: Totals, rank: number): WireInfluencer {
  const { account } = total;
  return {
    symplurrank: rank,
    mentions: total.mentions,
    tweets: total.tweets,
    retweets: total.retweets,
    replies: total.replies,
    impressions: total.impressions,
    urls: total.urls,
    user: {
      id: String(1_000_000_000 + Math.floor(unitHash(`id:${account.screenName}`) * 8_000_000_000)),
      screen_name: account.screenName,
      ...defined({ display_name: account.displayName }),
      ...defined({ profile_image: account.profileImage }),
      hsg_score: account.hsgScore,
      ...defined({ stakeholder_categories: account.categories }),
      followers_count: account.followers,
    },
  };
}
