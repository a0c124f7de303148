import { LRUCache } from 'lru-cache';
import { type LocalSelection, serviceLimit } from '../analytics/local-ranking.ts';
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../analytics/types.ts';
import { defined } from '../model/defined.ts';
import type { Digest } from '../model/digest.ts';
import { defaultMetric, metricsRankedBy } from '../model/metrics.ts';
import type { Clock } from './clock.ts';
import { backoffDelay, classifyFailure, type RetryPolicy, RunFailedError } from './failures.ts';
import { type Limiter, limiter } from './limiter.ts';
import type { RunWindow } from './run-window.ts';

/** Answers a digest's question; asked again, the same question gets the same answer. */
export type AskQuestion = (query: InfluencersQuery) => Promise<InfluencersResult>;

export interface QuestionsOptions {
  readonly analytics: AnalyticsApi;
  readonly clock: Clock;
  readonly retry: RetryPolicy;
  /** Analytics calls in flight at once, across every round. */
  readonly concurrency: number;
  /** Answers a round keeps, the least recently asked dropped first. */
  readonly answersKept: number;
  /** Called after every analytics call, for lease renewal. */
  readonly onAnswer: () => void;
}

/**
 * The analytics question a digest asks for one run window: its top N, or the service's top 500
 * when the digest keeps only some people or ranks by followers (`selectLocally` then picks).
 */
export function questionFor(digest: Digest, window: RunWindow): InfluencersQuery {
  return {
    databases: digest.databases,
    start: window.start,
    end: window.end,
    timezone: window.timezone,
    limit: serviceLimit(localSelection(digest), digest.top),
    metric: metricsRankedBy(digest.metric ?? defaultMetric),
  };
}

/** What a digest chooses here rather than asks of the service: who it keeps, by followers. */
export function localSelection(digest: Pick<Digest, 'stakeholders' | 'orderBy'>): LocalSelection {
  return defined({ stakeholders: digest.stakeholders, orderBy: digest.orderBy });
}

/**
 * The part of a question that decides its answer: digests asking the same one share a call (a
 * digest that keeps some people asks for 500, so it shares its call with the others that do). The
 * service merges the databases it is given, so their order does not change the answer.
 */
function questionKey(query: InfluencersQuery): string {
  const databases = [...query.databases].sort();
  return JSON.stringify([
    databases,
    query.start,
    query.end,
    query.timezone,
    query.limit,
    query.metric ?? null,
  ]);
}

/**
 * The analytics fan-out of the runner. Digests due together mostly ask a handful of questions, so
 * each distinct question is asked once per round while its answer is kept, with a bounded number
 * of calls in flight, and each digest goes on as soon as its own answer is in. A round keeps at
 * most `answersKept` answers: a tick's claims come grouped by question, so the digests that share
 * a question follow one another and the answers of questions left behind can go.
 */
export class Questions {
  readonly #options: QuestionsOptions;
  readonly #callSlot: Limiter;

  constructor(options: QuestionsOptions) {
    this.#options = options;
    this.#callSlot = limiter(Math.max(1, options.concurrency));
  }

  /** A round (a tick, a manual run): its answers are shared, its calls counted in `counts`. */
  round(counts: { analyticsCalls: number }): AskQuestion {
    const answers = new LRUCache<string, Promise<InfluencersResult>>({
      max: Math.max(1, this.#options.answersKept),
    });
    return (query) => {
      const key = questionKey(query);
      let answer = answers.get(key);
      if (!answer) {
        answer = this.#callSlot(() => this.#retrying(() => this.#call(query, counts)));
        answers.set(key, answer);
        // Every digest awaiting it handles a failure; this only keeps an unawaited rejection quiet.
        answer.catch(() => undefined);
      }
      return answer;
    };
  }

  #call(query: InfluencersQuery, counts: { analyticsCalls: number }): Promise<InfluencersResult> {
    counts.analyticsCalls++;
    return this.#options.analytics.getInfluencers(query).finally(this.#options.onAnswer);
  }

  /** Analytics questions are read-only: any transient failure is safe to ask again. */
  async #retrying<T>(attempt: () => Promise<T>): Promise<T> {
    const { retry, clock } = this.#options;
    for (let tried = 1; ; tried++) {
      try {
        return await attempt();
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.kind === 'permanent' || tried >= retry.attempts) {
          throw new RunFailedError(failure, error);
        }
        await clock.sleep(Math.max(failure.retryAfterMs ?? 0, backoffDelay(retry, tried)));
      }
    }
  }
}
