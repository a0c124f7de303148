/** Asks the service what a planned lookup needs, within its deadline, noticing slowness and stops. */
import { selectLocally, serviceLimit } from '../../analytics/local-ranking.ts';
import type { AnalyticsApi, InfluencersQuery, InfluencersResult } from '../../analytics/types.ts';
import { TimeoutError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { type LookupRequest, personWeeks, wholeRankingLimit } from '../../model/lookup.ts';
import type { SlackMessage } from '../../model/message.ts';
import { defaultMetric, metricsRankedBy } from '../../model/metrics.ts';
import type { PersonRankings } from '../../render/lookups/person.ts';
import { renderStillRunning } from '../../render/lookups/status.ts';
import type { PeriodRanking } from '../../render/lookups/trend.ts';
import { recentPeriods, trendPeriods } from '../../time/periods.ts';
import { type WindowWatch, watched } from '../window-watch.ts';
import { isParseError, type LookupPlanner, statusOptions } from './plan.ts';

/** A ranking and, for a compared lookup, the ranking of the window it is compared with. */
export interface Rankings {
  readonly current: InfluencersResult;
  readonly previous?: InfluencersResult;
}

/** What an answer is made from: a ranking (compared or not), a trend's periods, or a person's. */
export type Made =
  | { readonly kind: 'ranking'; readonly rankings: Rankings }
  | { readonly kind: 'trend'; readonly periods: readonly PeriodRanking[] }
  | { readonly kind: 'person'; readonly rankings: PersonRankings };

/** Asks the service for a request's ranking (the flow's client, within its deadline). */
export type Ask = (request: LookupRequest) => Promise<InfluencersResult>;

export interface LookupRunnerOptions {
  readonly analytics: AnalyticsApi;
  readonly logger: Logger;
  /** Reads the window a person's answer compares with when the request names none. */
  readonly planner: LookupPlanner;
  readonly now: () => Date;
  /** When the still-running update is sent. */
  readonly progressUpdateMs: number;
  /** When the lookup gives up; each call to the service gets the same budget. */
  readonly timeoutMs: number;
}

/** What {@link LookupRunner.progress} started: stop it once the lookup has its answer. */
export interface ProgressNotice {
  /** Cancels the update unless it is already sent; returns its sending, if it was. */
  stop(): Promise<void> | undefined;
}

/**
 * Asks what each kind of lookup needs (a ranking, a trend's periods, a person's windows), every
 * question through the client, so identical ones are shared in flight and cached.
 */
export class LookupRunner {
  readonly #analytics: AnalyticsApi;
  readonly #logger: Logger;
  readonly #planner: LookupPlanner;
  readonly #now: () => Date;
  readonly #progressUpdateMs: number;
  readonly #timeoutMs: number;

  constructor(options: LookupRunnerOptions) {
    this.#analytics = options.analytics;
    this.#logger = options.logger;
    this.#planner = options.planner;
    this.#now = options.now;
    this.#progressUpdateMs = options.progressUpdateMs;
    this.#timeoutMs = options.timeoutMs;
  }

  /**
   * The analytics answer for a request; the client shares identical in-flight calls and caches.
   * Aborting `signal` leaves the call, which stops only when no other lookup waits for it.
   */
  result(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<InfluencersResult> {
    const ask = () =>
      this.#analytics
        .getInfluencers(toQuery(request), {
          deadlineMs: this.#timeoutMs,
          ...defined({ signal }),
        })
        .then((result) => selectLocally(result, request, request.top));
    return watched(request, ask, watch);
  }

  /**
   * The request's ranking and, when it compares, the ranking of the window it compares with:
   * both asked at once, each through the client, so identical calls are shared and cached.
   */
  async results(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<Rankings> {
    const compared = comparedWindow(request);
    if (compared === undefined) return { current: await this.result(request, signal, watch) };
    // The previous period as deep as the service goes, so that each person's place then is
    // known unless they were outside its top 500 (which the answer then says), never drawn as 0.
    const [current, previous] = await Promise.all([
      this.result(request, signal, watch),
      this.result({ ...compared, top: wholeRankingLimit }, signal, watch),
    ]);
    return { current, previous };
  }

  /** Each period's ranking of a trend, as deep as the service goes (see `askTrend`). */
  trendRankings(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<PeriodRanking[]> {
    return askTrend(request, (asked) => this.result(asked, signal, watch));
  }

  /**
   * What a person's answer is read from, at the flow's clock (see `askPerson`): the window it is
   * compared with is the previous period unless the request names another.
   * @throws ParseError when the previous period starts before the first day with data.
   */
  personRankings(
    request: LookupRequest,
    signal?: AbortSignal,
    watch?: WindowWatch,
  ): Promise<PersonRankings> {
    const compared =
      request.compare === undefined ? this.#planner.comparedWithPrevious(request) : request;
    if (isParseError(compared)) return Promise.reject(compared);
    return askPerson(compared, this.#now(), (asked) => this.result(asked, signal, watch));
  }

  /** Everything the answer to `request` is made from, by the kind of lookup it is. */
  async made(request: LookupRequest, signal?: AbortSignal, watch?: WindowWatch): Promise<Made> {
    if (request.trend !== undefined) {
      return { kind: 'trend', periods: await this.trendRankings(request, signal, watch) };
    }
    if (request.person !== undefined) {
      return { kind: 'person', rankings: await this.personRankings(request, signal, watch) };
    }
    return { kind: 'ranking', rankings: await this.results(request, signal, watch) };
  }

  /**
   * Runs `work` until the flow's deadline or until `outer` aborts (the person's Stop, shutdown),
   * whichever comes first, without waiting for a call that ignores its signal. Throws `timedOut`,
   * `stoppedByPerson` or `restarting` when it was cut short, else what `work` threw.
   */
  async withinDeadline<T>(
    work: (signal: AbortSignal) => Promise<T>,
    outer?: AbortSignal,
  ): Promise<T> {
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(timedOut), this.#timeoutMs);
    const onOuterAbort = () =>
      controller.abort(outer?.reason === stoppedByPerson ? stoppedByPerson : restarting);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    if (outer?.aborted) onOuterAbort();
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => reject(controller.signal.reason);
      controller.signal.addEventListener('abort', stop, { once: true });
      if (controller.signal.aborted) stop();
    });
    aborted.catch(() => {});
    try {
      return await Promise.race([work(controller.signal), aborted]);
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(deadline);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  /**
   * Sends the still-running update through `send` once the lookup has run `progressUpdateMs`,
   * unless it is stopped first. A failed send is only logged.
   */
  progress(request: LookupRequest, send: (message: SlackMessage) => Promise<void>): ProgressNotice {
    const startedAt = Date.now();
    let sent: Promise<void> | undefined;
    const timer = setTimeout(() => {
      sent = send(
        renderStillRunning(request, Date.now() - startedAt, statusOptions(this.#now())),
      ).catch((error: unknown) =>
        this.#logger.warn({ err: error }, 'could not send the still-running update'),
      );
    }, this.#progressUpdateMs);
    return {
      stop: () => {
        clearTimeout(timer);
        return sent;
      },
    };
  }
}

/**
 * Why the flow aborted its own call. Made once: an Error built per lookup costs a stack capture on
 * the path of every command. Not AppErrors: abort reasons known by identity, which `stopCause`
 * reads and the answer turns into its own words.
 */
const timedOut = new Error('lookup timed out');
const restarting = new Error('lookup stopped by a restart');
/** The reason to abort a lookup's signal with when the person asked to stop it. */
export const stoppedByPerson = new Error('lookup stopped by the person');

/** How a lookup was cut short: the person's Stop, a restart, or its deadline. */
export type StopCause = 'person' | 'restart' | 'deadline';

/** How `error` says the lookup was cut short; undefined when it failed rather than stopped. */
export function stopCause(error: unknown): StopCause | undefined {
  if (error === stoppedByPerson) return 'person';
  if (error === restarting) return 'restart';
  if (error === timedOut || isDeadline(error)) return 'deadline';
  return undefined;
}

/** The call's own deadline (the same budget as ours) ends it the way our timer would. */
function isDeadline(error: unknown): boolean {
  return error instanceof TimeoutError && error.phase === 'deadline';
}

/**
 * The analytics query for a parsed request: one place maps `top` to the service's `limit` and a
 * chosen metric to the service's `metric` list (that one first, which sorts the ranking, then the
 * others the answer shows); without a choice, the default metric is asked for by name.
 */
export function toQuery(request: LookupRequest): InfluencersQuery {
  return {
    databases: request.databases,
    start: request.start,
    end: request.end,
    timezone: request.timezone,
    limit: serviceLimit(request, request.top),
    metric: metricsRankedBy(request.metric ?? defaultMetric),
  };
}

/** The whole ranking (the service's most) of `request`'s window. */
function whole(request: LookupRequest, ask: Ask): Promise<InfluencersResult> {
  return ask({ ...request, top: wholeRankingLimit });
}

/**
 * Each period's ranking of a trend, as deep as the service goes (its top 500), all asked at
 * once: a period asks what a lookup of that window by the same metric asks for its whole
 * ranking (an export, a person's week), so they share one call.
 */
export function askTrend(request: LookupRequest, ask: Ask): Promise<PeriodRanking[]> {
  const periods = trendPeriods(request, request.trend?.unit ?? 'week');
  return Promise.all(
    periods.map(async (period) => ({
      period,
      result: await whole({ ...request, start: period.start, end: period.end }, ask),
    })),
  );
}

/**
 * What a person's answer is read from, all asked at once: the whole ranking of the window, of
 * `request.compare`'s window (the window itself when it compares with none), and of each of the
 * last {@link personWeeks} ISO weeks at `now`, the weeks `last 8 weeks weekly` asks for, so a
 * trend and a person's answer share them.
 */
export async function askPerson(
  request: LookupRequest,
  now: Date,
  ask: Ask,
): Promise<PersonRankings> {
  const weeks = recentPeriods('week', personWeeks, now, request.timezone);
  const [current, previous, ...results] = await Promise.all([
    whole(request, ask),
    whole(comparedWindow(request) ?? request, ask),
    ...weeks.map((week) => whole({ ...request, start: week.start, end: week.end }, ask)),
  ]);
  return {
    current,
    previous,
    weeks: weeks.map((period, index) => ({
      period,
      result: results[index] ?? { influencers: [] },
    })),
  };
}

/** The lookup of the window `request` compares with; undefined when it compares with none. */
export function comparedWindow(request: LookupRequest): LookupRequest | undefined {
  const { compare, ...rest } = request;
  if (compare === undefined) return undefined;
  return { ...rest, start: compare.start, end: compare.end };
}
