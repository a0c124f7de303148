/**
 * Each database's own population: which accounts of the synthetic population take part in a
 * predicate's conversation, the share of it each one draws, and the traits that shape its activity
 * over time. Everything is drawn from hashes keyed by the predicate's name, so a database has the
 * same members on every run, and predicates that share an account add up its activity.
 */
import type { CataloguePredicate } from './catalogue.ts';
import { type Account, population } from './population.ts';
import { hash32, unitHash } from './seeded.ts';

/** One account's part in one conversation. */
export interface Member {
  /** Position of the account in `population`: where its totals add up across predicates. */
  readonly index: number;
  readonly account: Account;
  /** The root of every number drawn for this account in this conversation. */
  readonly seed: number;
  /** Mentions per day at its typical level, before the weekday and its trends. */
  readonly dailyMentions: number;
  /** Spread of the week-to-week wander of its level (log scale). */
  readonly weeklySwing: number;
  /** Spread of its slower, month-to-month rise and fade (log scale). */
  readonly seasonalSwing: number;
  /** Days by which its trend knots are offset, so members do not all turn on the same day. */
  readonly phase: number;
  /** Takes part only in bursts of a few weeks, and is absent in between. */
  readonly episodic: boolean;
  /** The UTC hour around which its day's activity is centred. */
  readonly peakHour: number;
  /** Retweets its own tweets draw, per tweet. */
  readonly retweetRate: number;
  /** The account's own, copied so that every member has one shape for the daily loop. */
  readonly tweetRatio: number;
  readonly followers: number;
}

/**
 * A conversation's size: a few hundred accounts plus more for busier ones, so the demo hashtags
 * fill a 500-row answer while a small one stays small.
 */
function poolSize(predicate: CataloguePredicate): number {
  return predicate.dailyMentions === 0 ? 0 : Math.round(240 + predicate.dailyMentions * 0.3);
}

/** Where an account's day peaks: mostly the Americas' and Europe's afternoons, some elsewhere. */
function peakHourOf(draw: number): number {
  if (draw < 0.55) return 15 + Math.floor((draw / 0.55) * 6);
  if (draw < 0.85) return 8 + Math.floor(((draw - 0.55) / 0.3) * 5);
  return Math.floor(((draw - 0.85) / 0.15) * 24);
}

function buildPool(predicate: CataloguePredicate): readonly Member[] {
  const key = predicate.name.toLowerCase();
  const candidates = population
    .map((account, index) => ({ account, index }))
    .filter(({ account }) => account.topics.some((topic) => predicate.topics.includes(topic)))
    .map((candidate) => ({
      ...candidate,
      order:
        unitHash(`pool:${key}:${candidate.account.screenName}`) / candidate.account.pull ** 1.5,
    }))
    .sort((a, b) => a.order - b.order)
    .slice(0, poolSize(predicate));
  // A long-tailed (Zipf-like) split: a few accounts dominate every conversation.
  const weights = candidates.map((_, position) => 1 / (position + 4) ** 0.95);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return candidates.map(({ account, index }, position) => {
    const seed = hash32(`member:${key}:${account.screenName}`);
    const draw = (salt: string) => unitHash(`${seed}:${salt}`);
    return {
      index,
      account,
      seed,
      dailyMentions: (predicate.dailyMentions * (weights[position] ?? 0)) / total,
      weeklySwing: 0.1 + 0.2 * draw('weekly'),
      seasonalSwing: 0.1 + 0.25 * draw('seasonal'),
      phase: Math.floor(draw('phase') * 35),
      episodic: draw('episodic') < 0.12,
      peakHour: peakHourOf(draw('peak')),
      retweetRate: Math.log10(10 + account.followers) * 0.6 * (0.5 + draw('retweets')),
      tweetRatio: account.tweetRatio,
      followers: account.followers,
    };
  });
}

const pools = new Map<number, readonly Member[]>();

/** The members of a predicate's conversation, most prominent first; built once per predicate. */
export function poolOf(predicate: CataloguePredicate): readonly Member[] {
  const known = pools.get(predicate.id);
  if (known !== undefined) return known;
  const pool = buildPool(predicate);
  pools.set(predicate.id, pool);
  return pool;
}
