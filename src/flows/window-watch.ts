/**
 * Who follows a lookup window by window: surfaces that show progress (a streamed answer's task
 * list) hear when each question to the service starts and how it ended. The flow knows nothing
 * of how it is shown.
 */
import type { InfluencersResult } from '../analytics/types.ts';
import type { LookupRequest } from '../model/lookup.ts';

/** One question to the service, as its watcher follows it. */
export interface WatchedWindow {
  /** The service answered: how many people the ranking holds. */
  answered(rows: number): void;
  /** The question failed (or was cut short): what went wrong. */
  failed(error: unknown): void;
}

export interface WindowWatch {
  /** Called as each window of the lookup is asked for, before the service answers. */
  asked(request: LookupRequest): WatchedWindow;
}

/** `answer` as it settles, told to the window's watcher; the same promise for the caller. */
export function watched(
  request: LookupRequest,
  answer: () => Promise<InfluencersResult>,
  watch: WindowWatch | undefined,
): Promise<InfluencersResult> {
  if (watch === undefined) return answer();
  const window = watch.asked(request);
  return answer().then(
    (result) => {
      window.answered(result.influencers.length);
      return result;
    },
    (error: unknown) => {
      window.failed(error);
      throw error;
    },
  );
}
