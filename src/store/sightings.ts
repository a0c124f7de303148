/**
 * Keys remembered for a while by every instance that shares the database: the signatures of
 * requests already handled (a replay within five minutes is refused) and the ids of events
 * already answered (Slack redelivers an event it thinks was missed, maybe to another instance).
 */

export interface SightingRepository {
  /** True the first time `key` is seen within `ttlMs`; of concurrent callers, exactly one. */
  firstSighting(key: string, now: Date, ttlMs: number): Promise<boolean>;
}
