import { setTimeout as delay } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { Agent, type Dispatcher } from 'undici';
import {
  AccessDeniedError,
  AppError,
  BadRequestError,
  CredentialsRejectedError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServiceUnavailableError,
  TimeoutError,
  type TimeoutPhase,
  UnauthorizedError,
  UnknownDatabaseError,
} from '../errors.ts';
import { type Logger, silentLogger } from '../logger.ts';
import { influencersPath, influencersQueryKey, influencersRequestPath } from './query.ts';
import { SecretScrubber } from './redaction.ts';
import {
  backoffDelayMs,
  type ErrorBody,
  offendingDatabase,
  parseRetryAfter,
  readErrorBody,
} from './responses.ts';
import { parseInfluencersBody, tokenResponseSchema } from './schema.ts';
import { type IssuedToken, TokenCache } from './token-cache.ts';
import type {
  AnalyticsApi,
  CallOptions,
  Influencer,
  InfluencersQuery,
  InfluencersResult,
} from './types.ts';

/** Longest delay a Node timer accepts; longer ones would fire at once. */
const maxTimerMs = 2_147_483_647;

/** Token endpoint path (spec §4.1). */
export const tokenPath = '/v1/oauth/token';

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

type Endpoint = 'token' | 'data';

interface Exchange {
  readonly status: number;
  readonly headers: Dispatcher.ResponseData['headers'];
  readonly text: string;
}

/** A non-success status from either endpoint, before the retry policy decides what it means. */
class StatusFailureError extends Error {
  readonly endpoint: Endpoint;
  readonly status: number;
  readonly retryAfterHeader: string | undefined;
  readonly body: ErrorBody;

  constructor(endpoint: Endpoint, exchange: Exchange, scrubber: SecretScrubber) {
    super(`HTTP ${exchange.status}`);
    this.endpoint = endpoint;
    this.status = exchange.status;
    this.retryAfterHeader = headerValue(exchange.headers['retry-after']);
    this.body = readErrorBody(
      exchange.text,
      headerValue(exchange.headers['content-type']),
      (text) => scrubber.scrub(text),
    );
  }
}

/** The request never got a complete answer: connection failure or a per-attempt timeout. */
class TransportFailureError extends Error {
  readonly code: string | undefined;
  readonly phase: Exclude<TimeoutPhase, 'deadline'> | undefined;
  readonly retryable: boolean;

  constructor(code: string | undefined, cause: Error) {
    super(`transport failure (${code ?? cause.name})`, { cause });
    this.code = code;
    this.phase = timeoutPhases[code ?? ''];
    this.retryable = !nonRetryableCodes.has(code ?? '');
  }
}

const timeoutPhases: Record<string, Exclude<TimeoutPhase, 'deadline'>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** Failures that say the request itself is wrong or the client is shut: retrying cannot help. */
const nonRetryableCodes = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

/** Why a shared call was stopped from the inside. */
type StopReason = 'abandoned' | 'closed';

class CallStoppedError extends Error {
  readonly reason: StopReason;

  constructor(reason: StopReason) {
    super(`call ${reason}`);
    this.reason = reason;
  }
}

/** One HTTP operation shared by every concurrent caller of the same query. */
class SharedCall {
  readonly controller = new AbortController();
  /** Latest deadline among the callers waiting (monotonic ms): the budget for waits and retries. */
  deadlineAt: number;
  waiters = 0;
  settled = false;
  promise: Promise<InfluencersResult> = Promise.resolve({ influencers: [] });

  constructor(deadlineAt: number) {
    this.deadlineAt = deadlineAt;
  }

  join(deadlineAt: number): void {
    this.waiters += 1;
    if (deadlineAt > this.deadlineAt) this.deadlineAt = deadlineAt;
  }

  /** The last caller to leave before the answer stops the work: nobody would read it. */
  leave(): void {
    this.waiters -= 1;
    if (this.waiters === 0 && !this.settled)
      this.controller.abort(new CallStoppedError('abandoned'));
  }
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
  readonly #origin: string;
  readonly #pathPrefix: string;
  readonly #basicCredentials: string;
  readonly #authScheme: string;
  readonly #deadlineMs: number;
  readonly #connectTimeoutMs: number;
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #maxAttempts: number;
  readonly #maxRateLimitWaits: number;
  readonly #backoffBaseMs: number;
  readonly #backoffMaxMs: number;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #monotonicNow: () => number;
  readonly #dispatcher: Dispatcher;
  readonly #ownAgent: Agent | undefined;
  readonly #tokens: TokenCache;
  readonly #responses: LRUCache<string, InfluencersResult> | undefined;
  readonly #inFlight = new Map<string, SharedCall>();
  readonly #scrubber: SecretScrubber;
  readonly #lifetime = new AbortController();
  readonly #stats = { tokenRequests: 0, httpRequests: 0, cacheHits: 0, sharedInFlight: 0 };

  constructor(options: AnalyticsClientOptions) {
    const base = new URL(options.baseUrl);
    this.#origin = base.origin;
    this.#pathPrefix = base.pathname.replace(/\/+$/, '');
    this.#basicCredentials = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString(
      'base64',
    );
    this.#authScheme = options.authScheme ?? 'Bearer';
    this.#scrubber = new SecretScrubber(
      [options.clientSecret, options.clientId, this.#basicCredentials],
      [this.#authScheme],
    );
    this.#deadlineMs = options.deadlineMs ?? 600_000;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.#headersTimeoutMs = options.headersTimeoutMs ?? 300_000;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 300_000;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.#maxRateLimitWaits = Math.max(0, options.maxRateLimitWaits ?? 3);
    this.#backoffBaseMs = options.backoffBaseMs ?? 500;
    this.#backoffMaxMs = options.backoffMaxMs ?? 15_000;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#monotonicNow = options.monotonicNow ?? (() => performance.now());
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
    } else {
      this.#ownAgent = new Agent({
        connectTimeout: this.#connectTimeoutMs,
        headersTimeout: this.#headersTimeoutMs,
        bodyTimeout: this.#bodyTimeoutMs,
        connections: options.maxConnectionsPerOrigin ?? 32,
      });
      this.#dispatcher = this.#ownAgent;
    }
    this.#tokens = new TokenCache({
      fetchToken: () => this.#fetchToken(),
      tokenExpirySkewMs: options.tokenExpirySkewMs ?? 60_000,
      now: this.#now,
    });
    const responseCacheTtlMs = options.responseCacheTtlMs ?? 60_000;
    if (responseCacheTtlMs > 0) {
      const now = this.#now;
      this.#responses = new LRUCache<string, InfluencersResult>({
        max: options.responseCacheMax ?? 500,
        ttl: responseCacheTtlMs,
        ttlResolution: 0,
        perf: { now },
      });
    }
  }

  get stats(): Readonly<AnalyticsClientStats> {
    return { ...this.#stats };
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
    const cached = this.#responses?.get(key);
    if (cached !== undefined) {
      this.#stats.cacheHits += 1;
      return cached;
    }

    const deadlineAt = this.#monotonicNow() + deadlineMs;
    let call = this.#inFlight.get(key);
    // A call every waiter left is being torn down: joining it would only inherit its cancellation.
    if (call?.controller.signal.aborted) call = undefined;
    if (call) {
      this.#stats.sharedInFlight += 1;
    } else {
      call = this.#startCall(key, query, deadlineAt);
    }
    call.join(deadlineAt);
    return awaitWithin(call, deadlineMs, signal, this.#monotonicNow);
  }

  /** Stops every call in flight and releases the client's own sockets. */
  async close(): Promise<void> {
    if (this.#lifetime.signal.aborted) return;
    this.#lifetime.abort(new CallStoppedError('closed'));
    for (const call of this.#inFlight.values())
      call.controller.abort(new CallStoppedError('closed'));
    this.#inFlight.clear();
    this.#responses?.clear();
    this.#tokens.clear();
    await this.#ownAgent?.close();
  }

  #startCall(key: string, query: InfluencersQuery, deadlineAt: number): SharedCall {
    const call = new SharedCall(deadlineAt);
    this.#inFlight.set(key, call);
    call.promise = this.#run(call, query).then(
      (result) => {
        call.settled = true;
        if (this.#inFlight.get(key) === call) this.#inFlight.delete(key);
        this.#responses?.set(key, result);
        return result;
      },
      (error: unknown) => {
        call.settled = true;
        if (this.#inFlight.get(key) === call) this.#inFlight.delete(key);
        throw error;
      },
    );
    // Every waiter may have left already; the rejection must not surface as unhandled.
    call.promise.catch(() => {});
    return call;
  }

  async #run(call: SharedCall, query: InfluencersQuery): Promise<InfluencersResult> {
    const { signal } = call.controller;
    const path = influencersRequestPath(query);
    let transientFailures = 0;
    let rateLimitWaits = 0;
    let refreshedAfter401 = false;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const token = this.#tokens.peek() ?? (await abortable(this.#tokens.get(), signal));
        const exchange = await this.#send('data', 'GET', path, {
          headers: { authorization: `${this.#authScheme} ${token}`, accept: 'application/json' },
          signal,
          attempt,
        });
        if (exchange.status >= 200 && exchange.status < 300) return this.#readData(exchange);
        if (exchange.status === 401) {
          if (refreshedAfter401) throw new UnauthorizedError();
          this.#tokens.invalidate(token);
          refreshedAfter401 = true;
          this.#logger.debug(
            { path: influencersPath, attempt },
            'analytics token refused; renewing',
          );
          continue;
        }
        throw new StatusFailureError('data', exchange, this.#scrubber);
      } catch (error) {
        if (signal.aborted) throw stopError(signal.reason);
        if (error instanceof AppError) throw error;
        if (error instanceof StatusFailureError && error.status === 429) {
          const retryAfterMs = parseRetryAfter(error.retryAfterHeader, this.#now());
          const waitMs =
            retryAfterMs ??
            backoffDelayMs(rateLimitWaits, this.#backoffBaseMs, this.#backoffMaxMs, this.#random);
          if (rateLimitWaits >= this.#maxRateLimitWaits || waitMs > this.#remaining(call)) {
            throw new RateLimitedError(retryAfterMs);
          }
          rateLimitWaits += 1;
          this.#logger.warn({ path: influencersPath, attempt, waitMs }, 'analytics rate limited');
          await this.#pause(waitMs, signal);
          continue;
        }
        const transient =
          (error instanceof StatusFailureError && error.status >= 500) ||
          (error instanceof TransportFailureError && error.retryable);
        if (!transient) throw this.#finalError(error, query, transientFailures + 1);
        transientFailures += 1;
        if (transientFailures >= this.#maxAttempts) {
          throw this.#finalError(error, query, transientFailures);
        }
        const waitMs = backoffDelayMs(
          transientFailures - 1,
          this.#backoffBaseMs,
          this.#backoffMaxMs,
          this.#random,
        );
        if (waitMs >= this.#remaining(call)) {
          throw this.#finalError(error, query, transientFailures);
        }
        this.#logger.warn(
          { path: influencersPath, attempt, failure: error.message, waitMs },
          'analytics request failed; retrying',
        );
        await this.#pause(waitMs, signal);
      }
    }
  }

  /** One token exchange; the token cache makes sure only one runs at a time. */
  async #fetchToken(): Promise<IssuedToken> {
    this.#stats.tokenRequests += 1;
    const exchange = await this.#send('token', 'POST', tokenPath, {
      headers: {
        authorization: `Basic ${this.#basicCredentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      signal: this.#lifetime.signal,
      attempt: 1,
    });
    if (exchange.status === 400 || exchange.status === 401) {
      throw new CredentialsRejectedError(exchange.status);
    }
    if (exchange.status < 200 || exchange.status >= 300) {
      throw new StatusFailureError('token', exchange, this.#scrubber);
    }
    // The body holds the token: neither it nor a parser message quoting it may become a cause.
    let json: unknown;
    try {
      json = JSON.parse(exchange.text);
    } catch {
      throw new InvalidResponseError(exchange.status, 'the token response is not JSON');
    }
    const parsed = tokenResponseSchema.safeParse(json);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
      throw new InvalidResponseError(
        exchange.status,
        `the token response has no usable ${fields.join(', ') || 'fields'}`,
      );
    }
    this.#scrubber.rememberToken(parsed.data.access_token);
    return { accessToken: parsed.data.access_token, lifetimeMs: parsed.data.expires_in * 1000 };
  }

  async #send(
    endpoint: Endpoint,
    method: 'GET' | 'POST',
    path: string,
    request: {
      headers: Record<string, string>;
      body?: string;
      signal: AbortSignal;
      attempt: number;
    },
  ): Promise<Exchange> {
    if (endpoint === 'data') this.#stats.httpRequests += 1;
    const logPath = endpoint === 'data' ? influencersPath : tokenPath;
    const started = performance.now();
    try {
      const response = await this.#dispatcher.request({
        origin: this.#origin,
        path: `${this.#pathPrefix}${path}`,
        method,
        headers: request.headers,
        body: request.body ?? null,
        signal: request.signal,
        headersTimeout: this.#headersTimeoutMs,
        bodyTimeout: this.#bodyTimeoutMs,
      });
      const text = await response.body.text();
      this.#logger.debug(
        {
          method,
          path: logPath,
          status: response.statusCode,
          attempt: request.attempt,
          durationMs: Math.round(performance.now() - started),
        },
        'analytics request',
      );
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (request.signal.aborted) throw stopError(request.signal.reason);
      const failure = new TransportFailureError(errorCode(error), this.#scrubber.safeCause(error));
      this.#logger.debug(
        {
          method,
          path: logPath,
          failure: failure.message,
          attempt: request.attempt,
          durationMs: Math.round(performance.now() - started),
        },
        'analytics request failed',
      );
      throw failure;
    }
  }

  #readData(exchange: Exchange): InfluencersResult {
    // A parser message quotes the start of the body, which may be a credential cut short.
    let json: unknown;
    try {
      json = JSON.parse(exchange.text);
    } catch {
      throw new InvalidResponseError(exchange.status, 'the body is not JSON');
    }
    const parsed = parseInfluencersBody(json, exchange.status);
    if (parsed.dropped.length > 0) {
      this.#logger.warn(
        { path: influencersPath, dropped: parsed.dropped },
        'analytics response had malformed influencer items; dropped them',
      );
    }
    return freezeResult(parsed.influencers);
  }

  /** The typed error a caller sees for a failure the retry policy gave up on. */
  #finalError(error: unknown, query: InfluencersQuery, attempts: number): Error {
    if (error instanceof StatusFailureError) {
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
    if (error instanceof TransportFailureError) {
      const cause = error.cause;
      if (error.phase !== undefined) {
        return new TimeoutError(error.phase, this.#phaseTimeoutMs(error.phase), { cause });
      }
      return new NetworkError(
        `Could not reach the analytics service (${error.code ?? 'connection failed'}) after ${attempts} attempt(s)`,
        { cause },
      );
    }
    return new NetworkError('The analytics request failed unexpectedly', {
      cause: this.#scrubber.safeCause(error),
    });
  }

  /** What is left of the latest deadline among a shared call's waiters. */
  #remaining(call: SharedCall): number {
    return call.deadlineAt - this.#monotonicNow();
  }

  #phaseTimeoutMs(phase: Exclude<TimeoutPhase, 'deadline'>): number {
    if (phase === 'connect') return this.#connectTimeoutMs;
    if (phase === 'headers') return this.#headersTimeoutMs;
    return this.#bodyTimeoutMs;
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

/**
 * Waits for a shared call within this caller's own deadline and signal; the time a cancelled
 * caller waited is read on the client's monotonic clock, as every other duration is.
 */
function awaitWithin(
  call: SharedCall,
  deadlineMs: number,
  signal: AbortSignal | undefined,
  monotonicNow: () => number,
): Promise<InfluencersResult> {
  const started = monotonicNow();
  return new Promise<InfluencersResult>((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      call.leave();
      settle();
    };
    const onAbort = (): void =>
      finish(() =>
        reject(
          new TimeoutError('deadline', Math.round(monotonicNow() - started), {
            cause: signal?.reason,
          }),
        ),
      );
    const timer = setTimeout(
      () => finish(() => reject(new TimeoutError('deadline', deadlineMs))),
      deadlineMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    call.promise.then(
      (result) => finish(() => resolve(result)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
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

function stopError(reason: unknown): Error {
  if (reason instanceof CallStoppedError && reason.reason === 'closed') return closedError();
  return new NetworkError('The analytics request was cancelled');
}

function closedError(): NetworkError {
  return new NetworkError('The analytics client is closed');
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
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
