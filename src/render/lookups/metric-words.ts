/**
 * How every message names a metric and its figures ("1.2K mentions", "HSG score 87").
 * The answer's list and table, the charts, the CSV file and the digests all read those, and
 * "ranked by impressions", from here.
 */
import type { Influencer, Metric } from '../../analytics/types.ts';
import { metricNames } from '../../model/metrics.ts';

export { defaultMetric } from '../../model/metrics.ts';

import { compactNumber } from '../format.ts';

const metricLabels: Record<Metric, readonly [one: string, many: string, heading: string]> = {
  hsg_score: ['HSG score', 'HSG score', 'HSG score'],
  mentions: ['mention', 'mentions', 'Mentions'],
  retweets: ['retweet', 'retweets', 'Retweets'],
  tweets: ['tweet', 'tweets', 'Tweets'],
  impressions: ['impression', 'impressions', 'Impressions'],
  replies: ['reply', 'replies', 'Replies'],
};

/** A metric's name as a person reads it: "impressions", "HSG score". */
export function metricName(metric: Metric): string {
  return metricLabels[metric][1];
}

/** A metric's name as a column or an axis title: "Impressions", "HSG score". */
export function metricHeading(metric: Metric): string {
  return metricLabels[metric][2];
}

/** "ranked by impressions": every answer says what orders it. */
export function rankedByWords(metric: Metric): string {
  return `ranked by ${metricName(metric)}`;
}

/**
 * An influencer's value of `metric` when the service sent a finite number for it; the HSG score
 * is the account's own, else the one among the metrics.
 */
export function metricValue(influencer: Influencer, metric: Metric): number | undefined {
  const value: unknown =
    metric === 'hsg_score'
      ? (influencer.hsgScore ?? influencer.metrics?.hsg_score)
      : influencer.metrics?.[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A figure with its metric: "1.2K mentions", "1 reply", "HSG score 87.4". */
export function metricFigure(value: number, metric: Metric): string {
  const [one, many] = metricLabels[metric];
  return metric === 'hsg_score'
    ? `${one} ${compactNumber(value)}`
    : `${compactNumber(value)} ${value === 1 ? one : many}`;
}

/**
 * An influencer's value of `metric`, in words: "1.2K mentions", "HSG score 87"; undefined when
 * the service did not send it.
 */
export function metricPhrase(influencer: Influencer, metric: Metric): string | undefined {
  const value = metricValue(influencer, metric);
  return value === undefined ? undefined : metricFigure(value, metric);
}

/** A signed change, compact: "+234", "−1.2K", "±0" (a real minus sign, as the rank moves use). */
export function signedNumber(delta: number): string {
  const shown = compactNumber(Math.abs(delta));
  if (shown === '0') return '±0';
  return `${delta > 0 ? '+' : '−'}${shown}`;
}

/** How a metric moved since the previous period: "+234 mentions", "HSG score −2.1". */
export function metricChange(delta: number, metric: Metric): string {
  return metric === 'hsg_score'
    ? `${metricLabels[metric][0]} ${signedNumber(delta)}`
    : `${signedNumber(delta)} ${metricName(metric)}`;
}

/** `metric` first, then the others in the service's order: the columns of a table or a file. */
export function metricsRankedFirst(metric: Metric): readonly Metric[] {
  return [metric, ...metricNames.filter((name) => name !== metric)];
}

/**
 * The one line under an answer that says what its figures mean and where they come from, for a
 * reader who met the bot a minute ago.
 */
export const metricsFootnote =
  'HSG score: the account’s influence across healthcare social media · mentions: posts naming ' +
  'the account in the window · impressions: how often those posts were seen · data: the ' +
  'analytics service, from public posts on X';
