/**
 * What each member of a conversation did on each UTC day, and the totals of a window of hours.
 *
 * A day's counts depend only on (predicate, member, day): a member's level wanders from week to
 * week and rises or fades over months, bursty members come and go, weekends are quieter. A window
 * adds up the days it covers; a day it covers in part adds the share of that day's activity that
 * fell in its hours, each member's day being centred on its own hour. So a window's totals depend
 * only on the hours it covers, and a longer window never has smaller ones.
 *
 * Days are generated on demand and kept, with sums over aligned runs of days, in a bounded cache.
 */
import { LRUCache } from 'lru-cache';
import type { Member } from './pools.ts';
import { drawAt } from './seeded.ts';

/** The counts kept per member and day, in this order. */
export const countNames = [
  'mentions',
  'tweets',
  'retweets',
  'replies',
  'impressions',
  'urls',
] as const;
export type CountName = (typeof countNames)[number];
export const countColumns = countNames.length;

export const hoursPerDay = 24;

/** Salts of the numbers drawn per member and day. */
const salt = {
  weeklyKnot: 1,
  seasonalKnot: 2,
  burstKnot: 3,
  mentions: 4,
  tweets: 5,
  retweets: 6,
  replies: 7,
  impressions: 8,
  urls: 9,
  hours: 10,
} as const;

/** A roughly normal number (mean 0, variance 1) from the four bytes of one hash. */
function normalKnot(seed: number, knot: number, knotSalt: number): number {
  const bits = drawAt(seed, knot, knotSalt);
  const bytes = (bits & 255) + ((bits >>> 8) & 255) + ((bits >>> 16) & 255) + (bits >>> 24);
  return (bytes / 255 - 2) * Math.sqrt(3);
}

/**
 * Adds `weight` times a smooth noise over days to `into[i]` for days firstDay + i: knots every
 * `spacing` days, eased between, each knot drawn once for the whole run of days.
 */
function addWander(
  member: Member,
  firstDay: number,
  spacing: number,
  knotSalt: number,
  weight: number,
  into: Float64Array,
): void {
  let knot = Number.NaN;
  let from = 0;
  let to = 0;
  for (let offset = 0; offset < into.length; offset++) {
    const position = (firstDay + offset + member.phase) / spacing;
    const current = Math.floor(position);
    if (current !== knot) {
      from = current === knot + 1 ? to : normalKnot(member.seed, current, knotSalt);
      to = normalKnot(member.seed, current + 1, knotSalt);
      knot = current;
    }
    const t = position - current;
    into[offset] = (into[offset] ?? 0) + weight * (from + (to - from) * t * t * (3 - 2 * t));
  }
}

/**
 * How active a member is on days firstDay + i relative to its typical level (mean about 1), into
 * `levels[i]`: a week-to-week wander and a slower rise and fade; a bursty member is present only
 * where a third, slow wave is above a threshold.
 */
function fillLevels(member: Member, firstDay: number, levels: Float64Array, burst: Float64Array) {
  const weekly = member.weeklySwing;
  const seasonal = member.seasonalSwing;
  levels.fill(-(weekly * weekly + seasonal * seasonal) / 2);
  addWander(member, firstDay, 7, salt.weeklyKnot, weekly, levels);
  addWander(member, firstDay, 35, salt.seasonalKnot, seasonal, levels);
  for (let offset = 0; offset < levels.length; offset++) {
    levels[offset] = Math.exp(levels[offset] ?? 0);
  }
  if (!member.episodic) return;
  burst.fill(0);
  addWander(member, firstDay, 12, salt.burstKnot, 1, burst);
  for (let offset = 0; offset < levels.length; offset++) {
    levels[offset] =
      (levels[offset] ?? 0) * Math.min(4, 4 * Math.max(0, (burst[offset] ?? 0) - 0.5));
  }
}

/** Weekends are quieter; 1970-01-01, day 0, was a Thursday. */
function weekdayFactor(day: number): number {
  const weekday = (((day + 4) % 7) + 7) % 7;
  return weekday === 0 || weekday === 6 ? 0.65 : 1.14;
}

/** A whole count around `expected`: its floor, plus one with the chance of its fraction. */
function sample(expected: number, bits: number): number {
  const noise = 0.6 + 0.8 * ((bits & 0xffff) / 0x10000);
  const value = expected * noise;
  const whole = Math.floor(value);
  return whole + ((bits >>> 16) / 0x10000 < value - whole ? 1 : 0);
}

function spread(bits: number): number {
  return (bits & 0xffff) / 0x10000;
}

/** The counts of every member of a pool on days firstDay + i: members x `countNames` each. */
function generateDays(pool: readonly Member[], firstDay: number, count: number): Float64Array[] {
  const days = Array.from({ length: count }, () => new Float64Array(pool.length * countColumns));
  const dayFactors = Array.from({ length: count }, (_, offset) => weekdayFactor(firstDay + offset));
  const levels = new Float64Array(count);
  const burst = new Float64Array(count);
  for (let row = 0; row < pool.length; row++) {
    const member = pool[row] as Member;
    fillLevels(member, firstDay, levels, burst);
    const { seed } = member;
    const at = row * countColumns;
    for (let offset = 0; offset < count; offset++) {
      const expected = member.dailyMentions * (levels[offset] ?? 0) * (dayFactors[offset] ?? 1);
      if (expected < 0.005) continue;
      const day = firstDay + offset;
      const mentions = sample(expected, drawAt(seed, day, salt.mentions));
      const tweets = sample(expected * member.tweetRatio, drawAt(seed, day, salt.tweets));
      const retweets = sample(tweets * member.retweetRate, drawAt(seed, day, salt.retweets));
      const replies = sample((mentions + tweets) * 0.12, drawAt(seed, day, salt.replies));
      const reach = drawAt(seed, day, salt.impressions);
      const impressions = Math.round(
        tweets * member.followers * 0.09 * (0.5 + spread(reach)) +
          mentions * 140 * (0.5 + spread(reach >>> 16)),
      );
      const counts = days[offset] as Float64Array;
      counts[at] = mentions;
      counts[at + 1] = tweets;
      counts[at + 2] = retweets;
      counts[at + 3] = replies;
      counts[at + 4] = impressions;
      counts[at + 5] = sample(tweets * 0.3, drawAt(seed, day, salt.urls));
    }
  }
  return days;
}

/** A diurnal curve: most of a day's activity within a few hours of its peak. */
const hourWeights = Array.from({ length: hoursPerDay }, (_, offset) => {
  const fromPeak = offset <= hoursPerDay / 2 ? offset : offset - hoursPerDay;
  return 0.2 + Math.exp(-(fromPeak * fromPeak) / 18);
});
const dayWeight = hourWeights.reduce((sum, weight) => sum + weight, 0);
/** hourPrefix[x]: the weights of offsets 0..x-1, wrapping around the day once. */
const hourPrefix = Array.from({ length: 2 * hoursPerDay + 1 }, (_, end) =>
  hourWeights
    .concat(hourWeights)
    .slice(0, end)
    .reduce((sum, weight) => sum + weight, 0),
);

const peaks = new LRUCache<string, Uint8Array>({ max: 4096 });

/** The hour each member's `day` peaked at: its usual hour, give or take two. */
function peaksOf(poolId: number, pool: readonly Member[], day: number): Uint8Array {
  const key = `${poolId}:${day}`;
  const known = peaks.get(key);
  if (known !== undefined) return known;
  const hours = new Uint8Array(pool.length);
  pool.forEach((member, row) => {
    const jitter = (drawAt(member.seed, day, salt.hours) % 5) - 2;
    hours[row] = (member.peakHour + jitter + hoursPerDay) % hoursPerDay;
  });
  peaks.set(key, hours);
  return hours;
}

/** The share of a day peaking at `peak` that fell in its hours [from, to), 0 <= from < to <= 24. */
function hourShare(peak: number, from: number, to: number): number {
  // Offsets from the peak, moved up a day so that both are between 1 and 48.
  const first = from - peak + hoursPerDay;
  const last = to - peak + hoursPerDay;
  return ((hourPrefix[last] ?? 0) - (hourPrefix[first] ?? 0)) / dayWeight;
}

/**
 * Sums over aligned runs of days: level L, index i covers days [i * 2^L, (i + 1) * 2^L). Any run of
 * days is a handful of them (a 90-day window about eight), each built once from its two halves.
 */
const spans = new LRUCache<string, Float64Array>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (counts) => Math.max(1, counts.byteLength),
});
const topLevel = 6;
/** Days are generated this many at a time: a member's trend knots are drawn once for all. */
const dayBatch = 8;

function spanOf(
  poolId: number,
  pool: readonly Member[],
  level: number,
  index: number,
): Float64Array {
  const key = `${poolId}:${level}:${index}`;
  const known = spans.get(key);
  if (known !== undefined) return known;
  if (level === 0) {
    const first = Math.floor(index / dayBatch) * dayBatch;
    const batch = generateDays(pool, first, dayBatch);
    batch.forEach((counts, offset) => {
      spans.set(`${poolId}:0:${first + offset}`, counts);
    });
    return batch[index - first] as Float64Array;
  }
  const sums = spanOf(poolId, pool, level - 1, 2 * index).slice();
  const second = spanOf(poolId, pool, level - 1, 2 * index + 1);
  for (let at = 0; at < sums.length; at++) sums[at] = (sums[at] ?? 0) + (second[at] ?? 0);
  spans.set(key, sums);
  return sums;
}

/** Adds `counts` into `sums` (both pool rows x columns), times `weight`. */
function addScaled(sums: Float64Array, counts: Float64Array, weight: number): void {
  for (let at = 0; at < sums.length; at++) sums[at] = (sums[at] ?? 0) + (counts[at] ?? 0) * weight;
}

/** Adds `counts` into `sums` (both pool rows x columns), each row times its own weight. */
function addWeighted(sums: Float64Array, counts: Float64Array, weights: Float64Array): void {
  for (let row = 0; row < weights.length; row++) {
    const weight = weights[row] ?? 0;
    if (weight === 0) continue;
    for (let at = row * countColumns; at < (row + 1) * countColumns; at++) {
      sums[at] = (sums[at] ?? 0) + (counts[at] ?? 0) * weight;
    }
  }
}

export interface HourWindow {
  /** Hours since 1970-01-01T00:00Z; the window is [startHour, endHour). */
  readonly startHour: number;
  readonly endHour: number;
  /** Multiplies every count: below 1 for a window shorter than the hour it is read in. */
  readonly scale: number;
}

/**
 * Adds a pool's activity over `window` into `totals`, indexed by population position x
 * `countNames`. `poolId` names the pool in the caches.
 */
export function addWindow(
  poolId: number,
  pool: readonly Member[],
  window: HourWindow,
  totals: Float64Array,
): void {
  const { startHour, endHour, scale } = window;
  if (pool.length === 0 || endHour <= startHour) return;
  const sums = new Float64Array(pool.length * countColumns);
  const firstDay = Math.floor(startHour / hoursPerDay);
  const lastDay = Math.floor((endHour - 1) / hoursPerDay);
  const part = (day: number, from: number, to: number) => {
    if (from === 0 && to === hoursPerDay) return false;
    const byPeak = new Float64Array(hoursPerDay);
    for (let peak = 0; peak < hoursPerDay; peak++) byPeak[peak] = hourShare(peak, from, to) * scale;
    const dayPeaks = peaksOf(poolId, pool, day);
    const shares = new Float64Array(pool.length);
    for (let row = 0; row < pool.length; row++) shares[row] = byPeak[dayPeaks[row] ?? 0] ?? 0;
    addWeighted(sums, spanOf(poolId, pool, 0, day), shares);
    return true;
  };
  const startInDay = startHour - firstDay * hoursPerDay;
  const endInDay = endHour - lastDay * hoursPerDay;
  let day = firstDay;
  let end = lastDay + 1;
  if (firstDay === lastDay) {
    if (part(firstDay, startInDay, endInDay)) end = day;
  } else {
    if (part(firstDay, startInDay, hoursPerDay)) day += 1;
    if (part(lastDay, 0, endInDay)) end -= 1;
  }
  while (day < end) {
    let level = 0;
    while (level < topLevel && day % 2 ** (level + 1) === 0 && day + 2 ** (level + 1) <= end) {
      level += 1;
    }
    addScaled(sums, spanOf(poolId, pool, level, day / 2 ** level), scale);
    day += 2 ** level;
  }
  for (let row = 0; row < pool.length; row++) {
    const into = (pool[row] as Member).index * countColumns;
    for (let column = 0; column < countColumns; column++) {
      const at = row * countColumns + column;
      totals[into + column] = (totals[into + column] ?? 0) + (sums[at] ?? 0);
    }
  }
}
