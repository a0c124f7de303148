/**
 * The sandbox's top influencers: each database's members and their day-by-day activity
 * (activity.ts), added up over the hours of a window and ranked.
 *
 * Decisions:
 * - Every instant is read at its nearest hour, so windows a few seconds or minutes apart cover the
 *   same hours and get the same answer; a digest run twice in a row reports no change.
 * - Activity after `now` has not happened yet: the window ends at `now`, read the same way.
 * - A window shorter than an hour reads the hour around its middle, scaled to its length.
 * - Several predicates add up their members' activity; a predicate named twice counts once.
 * - The order is by the first metric asked for, then the next ones, then mentions, then the
 *   screen name: the same request always ranks the same accounts in the same order.
 */
import { LRUCache } from 'lru-cache';
import { defined } from '../model/defined.ts';
import { type Metric, metricNames } from '../model/metrics.ts';
import {
  addWindow,
  type CountName,
  countColumns,
  countNames,
  type HourWindow,
} from './activity.ts';
import type { CataloguePredicate } from './catalogue.ts';
import { poolOf } from './pools.ts';
import { population, type StakeholderCategory } from './population.ts';

/** Metrics the influencers endpoint reports and sorts by (the `metric` parameter): the spec's. */
export const sandboxMetrics = metricNames;
export type SandboxMetric = Metric;

/** The wire format of one item of `influencers`, field names exactly as the service sends them. */
export interface WireInfluencer {
  readonly symplurrank: number;
  readonly hsg_score: number;
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

export interface InfluencerQuery {
  readonly predicates: readonly CataloguePredicate[];
  readonly start: Date;
  readonly end: Date;
  /** Activity after this instant has not happened yet. */
  readonly now: Date;
  /** Sorted by the first; the others break its ties, in order. */
  readonly metrics: readonly SandboxMetric[];
  readonly limit: number;
}

const hourMs = 3_600_000;

/** The hours a query covers, or undefined when it covers nothing (it starts at or after `now`). */
export function hourWindow(start: Date, end: Date, now: Date): HourWindow | undefined {
  const from = start.getTime();
  const until = Math.min(end.getTime(), now.getTime());
  if (until <= from) return undefined;
  const startHour = Math.round(from / hourMs);
  const endHour = Math.round(until / hourMs);
  if (endHour > startHour) return { startHour, endHour, scale: 1 };
  const middleHour = Math.floor((from + until) / 2 / hourMs);
  return { startHour: middleHour, endHour: middleHour + 1, scale: (until - from) / hourMs };
}

/**
 * The top influencers of the union of `predicates` over [start, end), ranked by the first of
 * `metrics` (descending). The answer is shared between equal questions: do not change it.
 */
export function topInfluencers(query: InfluencerQuery): readonly WireInfluencer[] {
  const window = hourWindow(query.start, query.end, query.now);
  if (window === undefined) return [];
  const predicates = [...new Map(query.predicates.map((p) => [p.id, p])).values()].sort(
    (a, b) => a.id - b.id,
  );
  // Repeated questions (benchmarks, demos, digests) cost a lookup, not a new sum; questions that
  // differ only in their limit share one ranking.
  const key = [
    predicates.map((predicate) => predicate.id).join(','),
    window.startHour,
    window.endHour,
    window.scale,
    query.metrics.join(','),
  ].join('|');
  let ranking = rankings.get(key);
  if (ranking === undefined) {
    ranking = rank(totalsOf(predicates, window), query.metrics);
    rankings.set(key, ranking);
  }
  return ranking.length <= query.limit ? ranking : Object.freeze(ranking.slice(0, query.limit));
}

const rankings = new LRUCache<string, readonly WireInfluencer[]>({ max: 200 });

/** Population-wide sums: position x `countNames`, rounded to whole counts. */
function totalsOf(
  predicates: readonly CataloguePredicate[],
  window: HourWindow,
): { sums: Float64Array; active: number[] } {
  const sums = new Float64Array(population.length * countColumns);
  const members = new Uint8Array(population.length);
  for (const predicate of predicates) {
    const pool = poolOf(predicate);
    addWindow(predicate.id, pool, window, sums);
    for (const member of pool) members[member.index] = 1;
  }
  const active: number[] = [];
  for (let index = 0; index < population.length; index++) {
    if (members[index] === 0) continue;
    const at = index * countColumns;
    for (let column = at; column < at + countColumns; column++) {
      sums[column] = Math.round(sums[column] ?? 0);
    }
    if ((sums[at + mentionsColumn] ?? 0) + (sums[at + tweetsColumn] ?? 0) > 0) active.push(index);
  }
  return { sums, active };
}

const column = Object.fromEntries(countNames.map((name, at) => [name, at])) as Record<
  CountName,
  number
>;
const mentionsColumn = column.mentions;
const tweetsColumn = column.tweets;
const hsgScores = Float64Array.from(population, (account) => account.hsgScore);
/** Each account's place in screen-name order: the last tie-break, compared as a number. */
const nameOrder = (() => {
  const order = new Int32Array(population.length);
  population
    .map((account, index) => ({ name: account.screenName.toLowerCase(), index }))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .forEach(({ index }, place) => {
      order[index] = place;
    });
  return order;
})();

function rank(
  { sums, active }: { sums: Float64Array; active: number[] },
  metrics: readonly SandboxMetric[],
): readonly WireInfluencer[] {
  const columns = [...new Set<SandboxMetric>([...metrics, 'mentions'])].map((metric) =>
    metric === 'hsg_score' ? -1 : column[metric],
  );
  const value = (index: number, metric: number) =>
    metric === -1 ? (hsgScores[index] ?? 0) : (sums[index * countColumns + metric] ?? 0);
  const [first = mentionsColumn, ...rest] = columns;
  // A numeric sort on (first metric, position) packed in one number, then the few ties sorted by
  // the other metrics and the screen name: much cheaper than a comparator over every account.
  const slots = 2 ** Math.ceil(Math.log2(active.length + 1));
  const primary = new Float64Array(active.length);
  let ceiling = 0;
  for (let position = 0; position < active.length; position++) {
    const key = Math.round(value(active[position] ?? 0, first) * 10);
    primary[position] = key;
    if (key > ceiling) ceiling = key;
  }
  const tieBreak = (a: number, b: number) => {
    const [one = 0, other = 0] = [active[a], active[b]];
    for (const metric of rest) {
      const difference = value(other, metric) - value(one, metric);
      if (difference !== 0) return difference;
    }
    return (nameOrder[one] ?? 0) - (nameOrder[other] ?? 0);
  };
  if ((ceiling + 1) * slots > Number.MAX_SAFE_INTEGER) {
    const positions = Array.from(active, (_, position) => position).sort(
      (a, b) => (primary[b] ?? 0) - (primary[a] ?? 0) || tieBreak(a, b),
    );
    return wire(positions, active, sums);
  }
  const packed = new Float64Array(active.length);
  for (let position = 0; position < active.length; position++) {
    packed[position] = (ceiling - (primary[position] ?? 0)) * slots + position;
  }
  packed.sort();
  const positions = new Array<number>(active.length);
  for (let place = 0; place < active.length; place++) {
    positions[place] = (packed[place] ?? 0) % slots;
  }
  for (let from = 0; from < positions.length; ) {
    const key = primary[positions[from] ?? 0];
    let to = from + 1;
    while (to < positions.length && primary[positions[to] ?? 0] === key) to += 1;
    if (to - from > 1) {
      positions.splice(from, to - from, ...positions.slice(from, to).sort(tieBreak));
    }
    from = to;
  }
  return wire(positions, active, sums);
}

function wire(
  positions: readonly number[],
  active: readonly number[],
  sums: Float64Array,
): readonly WireInfluencer[] {
  return Object.freeze(
    positions.map((position, place) => {
      const index = active[position] ?? 0;
      const at = index * countColumns;
      return {
        symplurrank: place + 1,
        hsg_score: hsgScores[index] ?? 0,
        mentions: sums[at + column.mentions] ?? 0,
        tweets: sums[at + column.tweets] ?? 0,
        retweets: sums[at + column.retweets] ?? 0,
        replies: sums[at + column.replies] ?? 0,
        impressions: sums[at + column.impressions] ?? 0,
        urls: sums[at + column.urls] ?? 0,
        user: wireUsers[index] as WireInfluencer['user'],
      };
    }),
  );
}

/** Each account's `user` object, the same in every answer. */
const wireUsers = population.map((account) =>
  Object.freeze({
    id: account.id,
    screen_name: account.screenName,
    ...defined({ display_name: account.displayName }),
    ...defined({ profile_image: account.profileImage }),
    hsg_score: account.hsgScore,
    ...defined({ stakeholder_categories: account.categories }),
    followers_count: account.followers,
  }),
);
