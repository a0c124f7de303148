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
