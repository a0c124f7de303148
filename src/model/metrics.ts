/** Metrics the influencers endpoint can rank by; results are ordered by the first one asked for. */
export const metricNames = [
  'hsg_score',
  'mentions',
  'retweets',
  'tweets',
  'impressions',
  'replies',
] as const;

export type Metric = (typeof metricNames)[number];

/**
 * What a ranking is by when nobody chose: the service documents no order of its own, so every
 * question names this one, and an answer that says "ranked by mentions" is true.
 */
export const defaultMetric: Metric = 'mentions';

/**
 * The `metric` list of a ranking by `metric`: that one first, which the service sorts by, then
 * the others the answer shows. Lookups and digests ask alike, so identical questions share a call.
 */
export function metricsRankedBy(metric: Metric): Metric[] {
  return [metric, ...metricNames.filter((name) => name !== metric)];
}
