import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import {
  AccessDeniedError,
  AppError,
  BadRequestError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServiceUnavailableError,
  TimeoutError,
  UnauthorizedError,
  UnknownDatabaseError,
} from '../errors.ts';
import { type Logger, silentLogger } from '../logger.ts';
import { influencersPath, influencersQueryKey, influencersRequestPath } from './query.ts';
import { SecretScrubber } from './redaction.ts';
import { backoffDelayMs, offendingDatabase, parseRetryAfter } from './responses.ts';
import { parseInfluencersBody } from './schema.ts';
import { type SharedCallBudget, SharedCalls } from './shared-calls.ts';
import { TokenCache } from './token-cache.ts';
import { exchangeToken } from './token-exchange.ts';
import {
  CallStoppedError,
  closedError,
  type Exchange,
  exchangeJson,
  StatusFailureError,
  stopError,
  Transport,
  TransportFailureError,
} from './transport.ts';
import type {
  AnalyticsApi,
  CallOptions,
  Influencer,
  InfluencersQuery,
  InfluencersResult,
} from './types.ts';

/** Longest delay a Node timer accepts; longer ones would fire at once. */
const maxTimerMs = 2_147_483_647;

/** The most influencers an honest answer holds (the service's largest `limit`). */
const maxInfluencersPerAnswer = 500;

export interface AnalyticsClientOptions {
  /** Service root, e.g. `https://api.example.com`; a path prefix is kept. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Scheme before the token on data requests; the spec leaves it open, the service uses Bearer. */
  readonly authScheme?: string;
  /** A token stops being reused this long before it expires. Default 60 s. */
  readonly tokenExpirySkewMs?: number;
  /** Budget of a call including retries and waits, unless the call sets its own. Default 10 min. */
  readonly deadlineMs?: number;
  /** Per-attempt limits of the client's own Agent. Defaults 10 s, 5 min, 5 min. */
  readonly connectTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  readonly bodyTimeoutMs?: number;
  /** Tries per call for 5xx, network failures and per-attempt timeouts. Default 4. */
  readonly maxAttempts?: number;
  /** 429 answers waited out per call before giving up. Default 3. */
  readonly maxRateLimitWaits?: number;
  /** Full-jitter backoff: `random() * min(backoffMaxMs, backoffBaseMs * 2^retry)`. */
  readonly backoffBaseMs?: number;
  readonly backoffMaxMs?: number;
  /** How long an answer is reused for an identical query; 0 disables the cache. Default 60 s. */
  readonly responseCacheTtlMs?: number;
  readonly responseCacheMax?: number;
  /** Sockets the client's own Agent opens to the service at most. Default 32. */
  readonly maxConnectionsPerOrigin?: number;
  readonly logger?: Logger;
  /** Wall clock in ms for token expiry, response cache TTL and Retry-After dates. */
  readonly now?: () => number;
  /** Source of jitter in [0, 1). */
  readonly random?: () => number;
  /** Waits between attempts; must reject when `signal` aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Monotonic clock in ms that deadlines are measured on (default `performance.now`). Tests pair it
   * with `sleep` so that waiting out minutes of Retry-After uses up the budget it would in real time.
   */
  readonly monotonicNow?: () => number;
  /** HTTP stack to use instead of the client's own Agent; the client never closes it. */
  readonly dispatcher?: Dispatcher;
}

/** Counters for tests and benchmarks. */
export interface AnalyticsClientStats {
  /** Token exchanges sent to the token endpoint. */
  readonly tokenRequests: number;
  /** Data requests sent to the influencers endpoint (token exchanges not included). */
  readonly httpRequests: number;
  /** Calls answered from the response cache. */
  readonly cacheHits: number;
  /** Calls that joined an identical call already in flight. */
  readonly sharedInFlight: number;
}

/** Failures of one shared call so far, each kind against its own limit. */
interface RetryCounts {
  transientFailures: number;
  rateLimitWaits: number;
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  delay(ms, undefined, { signal });

/**
 * The analytics service client the bot trusts: one token exchange per token lifetime however many
 * calls arrive at once, a bounded number of retries within a deadline, identical concurrent calls
 * merged into one request, and every failure surfaced as one typed error from `src/errors.ts`.
 * Credentials never reach a log record or an error.
 */
export class AnalyticsClient implements AnalyticsApi {
  readonly #basicCredentials: string;
  readonly #authScheme: string;
  readonly #deadlineMs: number;
  readonly #maxAttempts: number;
  readonly #maxRateLimitWaits: number;
  readonly #backoffBaseMs: number;
  readonly #backoffMaxMs: number;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #monotonicNow: () => number;
  readonly #scrubber: SecretScrubber;
  readonly #transport: Transport;
  readonly #tokens: TokenCache;
  readonly #calls: SharedCalls<InfluencersResult>;
  readonly #lifetime = new AbortController();
  #headers: { readonly token: string; readonly headers: Record<string, string> } | undefined;

  constructor(options: AnalyticsClientOptions) {
    this.#basicCredentials = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString(
      'base64',
    );
    this.#authScheme = options.authScheme ?? 'Bearer';
    this.#scrubber = new SecretScrubber(
      [options.clientSecret, options.clientId, this.#basicCredentials],
      [this.#authScheme],
    );
    this.#deadlineMs = options.deadlineMs ?? 600_000;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.#maxRateLimitWaits = Math.max(0, options.maxRateLimitWaits ?? 3);
    this.#backoffBaseMs = options.backoffBaseMs ?? 500;
    this.#backoffMaxMs = options.backoffMaxMs ?? 15_000;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#monotonicNow = options.monotonicNow ?? (() => performance.now());
    this.#transport = new Transport({
      baseUrl: options.baseUrl,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      headersTimeoutMs: options.headersTimeoutMs ?? 300_000,
      bodyTimeoutMs: options.bodyTimeoutMs ?? 300_000,
      maxConnectionsPerOrigin: options.maxConnectionsPerOrigin ?? 32,
      dispatcher: options.dispatcher,
      logger: this.#logger,
      scrubber: this.#scrubber,
    });
    this.#tokens = new TokenCache({
      fetchToken: () =>
        exchangeToken(
          this.#transport,
          this.#basicCredentials,
          this.#scrubber,
          this.#lifetime.signal,
        ),
      tokenExpirySkewMs: options.tokenExpirySkewMs ?? 60_000,
      now: this.#now,
    });
    this.#calls = new SharedCalls<InfluencersResult>({
      cacheTtlMs: options.responseCacheTtlMs ?? 60_000,
      cacheMax: options.responseCacheMax ?? 500,
      now: this.#now,
      monotonicNow: this.#monotonicNow,
    });
  }

  get stats(): Readonly<AnalyticsClientStats> {
    return {
      tokenRequests: this.#transport.sent('token'),
      httpRequests: this.#transport.sent('data'),
      cacheHits: this.#calls.cacheHits,
      sharedInFlight: this.#calls.joins,
    };
  }

  /**
   * Top influencers for the query. Rejects with an AppError subclass only: TimeoutError('deadline')
   * when the call's deadline passes or its signal aborts, whatever the shared request is doing.
   */
  async getInfluencers(
    query: InfluencersQuery,
    options: CallOptions = {},
  ): Promise<InfluencersResult> {
    if (this.#lifetime.signal.aborted) throw closedError();
    const deadlineMs = Math.min(options.deadlineMs ?? this.#deadlineMs, maxTimerMs);
    const { signal } = options;
    if (signal?.aborted) throw new TimeoutError('deadline', 0, { cause: signal.reason });
    if (deadlineMs <= 0) throw new TimeoutError('deadline', 0);

    const key = influencersQueryKey(query);
    const cached = this.#calls.cached(key);
    if (cached !== undefined) return cached;
    return this.#calls.share(key, deadlineMs, signal, (call) => this.#run(call, query));
  }

  /** Stops every call in flight and releases the client's own sockets. */
  async close(): Promise<void> {
    if (this.#lifetime.signal.aborted) return;
    this.#lifetime.abort(new CallStoppedError('closed'));
    this.#calls.close();
    this.#tokens.clear();
    await this.#transport.close();
  }

  /** Attempts until an answer or a failure the policy gives up on, all within the shared budget. */
  async #run(call: SharedCallBudget, query: InfluencersQuery): Promise<InfluencersResult> {
    const { signal } = call;
    const path = influencersRequestPath(query);
    const retries: RetryCounts = { transientFailures: 0, rateLimitWaits: 0 };
    let refreshedAfter401 = false;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const token = this.#tokens.peek() ?? (await abortable(this.#tokens.get(), signal));
        const exchange = await this.#transport.send('data', 'GET', path, {
          headers: this.#dataHeaders(token),
          signal,
          attempt,
        });
        if (exchange.status >= 200 && exchange.status < 300) {
          return this.#readData(exchange, query);
        }
        if (exchange.status !== 401) throw new StatusFailureError('data', exchange, this.#scrubber);
        if (refreshedAfter401) throw new UnauthorizedError();
        this.#tokens.invalidate(token);
        refreshedAfter401 = true;
        this.#logger.debug({ path: influencersPath, attempt }, 'analytics token refused; renewing');
      } catch (error) {
        if (signal.aborted) throw stopError(signal.reason);
        if (error instanceof AppError) throw error;
        await this.#pause(this.#retryDelayMs(error, call, query, attempt, retries), signal);
      }
    }
  }

  /** The headers of a data request with `token`, built once per token rather than per request. */
  #dataHeaders(token: string): Record<string, string> {
    if (this.#headers?.token !== token) {
      this.#headers = {
        token,
        headers: { authorization: `${this.#authScheme} ${token}`, accept: 'application/json' },
      };
    }
    return this.#headers.headers;
  }

  /** How long to wait before the next attempt; throws the caller's error instead on giving up. */
  #retryDelayMs(
    error: unknown,
    call: SharedCallBudget,
    query: InfluencersQuery,
    attempt: number,
    retries: RetryCounts,
  ): number {
    if (error instanceof StatusFailureError && error.status === 429) {
      return this.#rateLimitDelayMs(error, call, attempt, retries);
    }
    const transient =
      (error instanceof StatusFailureError && error.status >= 500) ||
      (error instanceof TransportFailureError && error.retryable);
    if (!transient) throw this.#finalError(error, query, retries.transientFailures + 1);
    retries.transientFailures += 1;
    if (retries.transientFailures >= this.#maxAttempts) {
      throw this.#finalError(error, query, retries.transientFailures);
    }
    const waitMs = this.#backoffMs(retries.transientFailures - 1);
    if (waitMs >= this.#remaining(call)) {
      throw this.#finalError(error, query, retries.transientFailures);
    }
    this.#logger.warn(
      { path: influencersPath, attempt, failure: error.message, waitMs },
      'analytics request failed; retrying',
    );
    return waitMs;
  }

  /** A 429 is waited out as the service asks, but only so often and only within the deadline. */
  #rateLimitDelayMs(
    error: StatusFailureError,
    call: SharedCallBudget,
    attempt: number,
    retries: RetryCounts,
  ): number {
    const retryAfterMs = parseRetryAfter(error.retryAfterHeader, this.#now());
    const waitMs = retryAfterMs ?? this.#backoffMs(retries.rateLimitWaits);
    if (retries.rateLimitWaits >= this.#maxRateLimitWaits || waitMs > this.#remaining(call)) {
      throw new RateLimitedError(retryAfterMs);
    }
    retries.rateLimitWaits += 1;
    this.#logger.warn({ path: influencersPath, attempt, waitMs }, 'analytics rate limited');
    return waitMs;
  }

  /**
   * The answer's first `limit` valid influencers: a service that ignores `limit` still gives the
   * top N asked for, and never more than an honest answer could hold when no limit was sent.
   */
  #readData(exchange: Exchange, query: InfluencersQuery): InfluencersResult {
    const json = exchangeJson(exchange, 'the body is not JSON');
    const keep = query.limit ?? maxInfluencersPerAnswer;
    const parsed = parseInfluencersBody(json, exchange.status, keep);
    if (parsed.dropped.length > 0) {
      this.#logger.warn(
        { path: influencersPath, dropped: parsed.dropped },
        'analytics response had malformed influencer items; dropped them',
      );
    }
    if (parsed.surplus > 0) {
      this.#logger.warn(
        { path: influencersPath, kept: parsed.influencers.length, surplus: parsed.surplus },
        'analytics response had more influencers than asked for; kept the first ones',
      );
    }
    return freezeResult(parsed.influencers);
  }

  /** The typed error a caller sees for a failure the retry policy gave up on. */
  #finalError(error: unknown, query: InfluencersQuery, attempts: number): Error {
    if (error instanceof StatusFailureError) return this.#statusError(error, query, attempts);
    if (error instanceof TransportFailureError) return this.#transport.typedError(error, attempts);
    return new NetworkError('The analytics request failed unexpectedly', {
      cause: this.#scrubber.safeCause(error),
    });
  }

  #statusError(error: StatusFailureError, query: InfluencersQuery, attempts: number): AppError {
    const { status, body } = error;
    if (status >= 500) {
      return new ServiceUnavailableError(status, attempts, {
        cause: this.#scrubber.safeCause(new Error(body.message ?? `HTTP ${status}`)),
      });
    }
    const { message } = body;
    if (error.endpoint === 'token') {
      // Databases play no part in a token exchange: a 403/404 there means a wrong base URL.
      return new InvalidResponseError(
        status,
        `the token endpoint answered HTTP ${status}${message ? ` (${message})` : ''}`,
      );
    }
    if (status === 403) {
      return new AccessDeniedError(offendingDatabase(body, query.databases), message);
    }
    if (status === 404) {
      return new UnknownDatabaseError(offendingDatabase(body, query.databases), message);
    }
    if (status >= 400) return new BadRequestError(status, message);
    return new InvalidResponseError(status, 'unexpected status');
  }

  #backoffMs(retryIndex: number): number {
    return backoffDelayMs(retryIndex, this.#backoffBaseMs, this.#backoffMaxMs, this.#random);
  }

  /** What is left of the latest deadline among a shared call's waiters. */
  #remaining(call: SharedCallBudget): number {
    return call.deadlineAt - this.#monotonicNow();
  }

  async #pause(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await this.#sleep(ms, signal);
    } catch (error) {
      if (signal.aborted) throw stopError(signal.reason);
      throw error;
    }
    if (signal.aborted) throw stopError(signal.reason);
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function freezeResult(influencers: Influencer[]): InfluencersResult {
  for (const influencer of influencers) {
    Object.freeze(influencer.metrics);
    for (const category of influencer.stakeholderCategories) Object.freeze(category);
    Object.freeze(influencer.stakeholderCategories);
    Object.freeze(influencer);
  }
  return Object.freeze({ influencers: Object.freeze(influencers) });
}
