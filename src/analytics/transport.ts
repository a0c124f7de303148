/**
 * The HTTP leg of the client: one request through undici within the per-attempt timeouts and the
 * caller's abort signal, the body read up to a cap, and every way it can go wrong turned into an
 * error the retry policy can weigh. Nothing here retries or decides what a status means.
 */
import { Agent, type Dispatcher } from 'undici';
import {
  InvalidResponseError,
  NetworkError,
  ResponseTooLargeError,
  TimeoutError,
  type TimeoutPhase,
} from '../errors.ts';
import type { Logger } from '../logger.ts';
import { influencersPath, tokenPath } from './query.ts';
import type { SecretScrubber } from './redaction.ts';
import { type ErrorBody, readErrorBody } from './responses.ts';

/**
 * The most the client reads of a success answer. The largest honest answer is 500 influencers (the
 * service's maximum `limit`) with every metric and user field: about 190 KB from the sandbox, whose
 * items carry every field public clients read. 4 MiB leaves twenty times that for longer names and
 * URLs and for fields the service may add, and still stops a service that ignores `limit` (200,000
 * items are about 74 MB) after a few MB, before memory and parse time grow with the answer.
 */
export const maxAnswerBytes = 4 * 1024 * 1024;

/**
 * The most read of an error answer. Its explanation is cut to a few hundred characters, so a
 * longer page is read only this far and kept as a prefix: the status still decides what happens.
 */
export const maxErrorBodyBytes = 64 * 1024;

/** The service's two endpoints: the same status means something different on each. */
export type Endpoint = 'token' | 'data';

/** A complete answer, whatever its status; an error answer's text may be cut at its cap. */
export interface Exchange {
  readonly status: number;
  readonly headers: Dispatcher.ResponseData['headers'];
  readonly text: string;
}

type AttemptPhase = Exclude<TimeoutPhase, 'deadline'>;

/** A non-success status from either endpoint, before the retry policy decides what it means. */
// Not an AppError: the client's retry policy weighs it, then turns it into one.
export class StatusFailureError extends Error {
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
// Not an AppError: the client's retry policy weighs it, then turns it into one.
export class TransportFailureError extends Error {
  readonly code: string | undefined;
  readonly phase: AttemptPhase | undefined;
  readonly retryable: boolean;

  constructor(code: string | undefined, cause: Error) {
    super(`transport failure (${code ?? cause.name})`, { cause });
    this.code = code;
    this.phase = timeoutPhases[code ?? ''];
    this.retryable = !nonRetryableCodes.has(code ?? '');
  }
}

const timeoutPhases: Record<string, AttemptPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** Failures that say the request itself is wrong or the client is shut: retrying cannot help. */
const nonRetryableCodes = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

/** Why the client aborted a signal of its own. */
type StopReason = 'abandoned' | 'closed';

/** The abort reason the client gives its own signals, so a stop can be told apart from a failure. */
// Not an AppError: an abort reason; stopError turns it into the caller's error.
export class CallStoppedError extends Error {
  readonly reason: StopReason;

  constructor(reason: StopReason) {
    super(`call ${reason}`);
    this.reason = reason;
  }
}

/** What a caller sees when a request was stopped from the inside rather than failed. */
export function stopError(reason: unknown): Error {
  if (reason instanceof CallStoppedError && reason.reason === 'closed') return closedError();
  return new NetworkError('The analytics request was cancelled');
}

/** What every call gets once the client is closed, whether it was in flight or came after. */
export function closedError(): NetworkError {
  return new NetworkError('The analytics client is closed');
}

/**
 * Decodes a JSON body without letting the parser's message out: it quotes the start of the body,
 * which may be a credential cut short.
 */
export function exchangeJson(exchange: Exchange, notJson: string): unknown {
  try {
    return JSON.parse(exchange.text);
  } catch {
    throw new InvalidResponseError(exchange.status, notJson);
  }
}

/** Settled once, when the client is built. */
export interface TransportOptions {
  /** Service root; a path prefix is kept. */
  readonly baseUrl: string;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly maxConnectionsPerOrigin: number;
  /** Used instead of an Agent of the transport's own, and never closed by it. */
  readonly dispatcher: Dispatcher | undefined;
  readonly logger: Logger;
  readonly scrubber: SecretScrubber;
}

/** One attempt; `signal` stops it once nobody waits for it or the client closes. */
export interface OutgoingRequest {
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Only for the log record. */
  readonly attempt: number;
}

const loggedPaths: Readonly<Record<Endpoint, string>> = { token: tokenPath, data: influencersPath };

/**
 * Sends the client's requests to the one service it talks to, on an Agent of its own unless the
 * client is handed a dispatcher. Errors it throws are already scrubbed of credentials.
 */
export class Transport {
  readonly #origin: string;
  readonly #pathPrefix: string;
  readonly #connectTimeoutMs: number;
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #dispatcher: Dispatcher;
  readonly #ownAgent: Agent | undefined;
  readonly #logger: Logger;
  readonly #scrubber: SecretScrubber;
  readonly #sent: Record<Endpoint, number> = { token: 0, data: 0 };

  constructor(options: TransportOptions) {
    const base = new URL(options.baseUrl);
    this.#origin = base.origin;
    this.#pathPrefix = base.pathname.replace(/\/+$/, '');
    this.#connectTimeoutMs = options.connectTimeoutMs;
    this.#headersTimeoutMs = options.headersTimeoutMs;
    this.#bodyTimeoutMs = options.bodyTimeoutMs;
    this.#logger = options.logger;
    this.#scrubber = options.scrubber;
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
    } else {
      this.#ownAgent = new Agent({
        connectTimeout: this.#connectTimeoutMs,
        headersTimeout: this.#headersTimeoutMs,
        bodyTimeout: this.#bodyTimeoutMs,
        connections: options.maxConnectionsPerOrigin,
      });
      this.#dispatcher = this.#ownAgent;
    }
  }

  /** Requests sent to `endpoint` so far, answered or not; for the client's stats. */
  sent(endpoint: Endpoint): number {
    return this.#sent[endpoint];
  }

  /**
   * One attempt. Resolves with any complete answer; rejects with a TransportFailureError when
   * there is none, a ResponseTooLargeError when a success answer runs past
   * {@link maxAnswerBytes}, or the caller's stop error when `signal` aborted.
   */
  async send(
    endpoint: Endpoint,
    method: 'GET' | 'POST',
    path: string,
    request: OutgoingRequest,
  ): Promise<Exchange> {
    this.#sent[endpoint] += 1;
    const started = performance.now();
    let answer: ReceivedAnswer;
    try {
      answer = await new Promise<ReceivedAnswer>((resolve, reject) => {
        const reader = new AnswerReader(request.signal, resolve, reject);
        try {
          this.#dispatcher.dispatch(
            {
              origin: this.#origin,
              path: `${this.#pathPrefix}${path}`,
              method,
              headers: request.headers,
              body: request.body ?? null,
              headersTimeout: this.#headersTimeoutMs,
              bodyTimeout: this.#bodyTimeoutMs,
            },
            reader,
          );
        } catch (error) {
          reader.onResponseError(undefined, error);
        }
      });
    } catch (error) {
      if (request.signal.aborted) throw stopError(request.signal.reason);
      const failure = new TransportFailureError(errorCode(error), this.#scrubber.safeCause(error));
      this.#logger.debug(
        {
          method,
          path: loggedPaths[endpoint],
          failure: failure.message,
          attempt: request.attempt,
          durationMs: Math.round(performance.now() - started),
        },
        'analytics request failed',
      );
      throw failure;
    }
    const { status, capBytes, bytesRead, declaredBytes } = answer;
    const record = () => ({
      method,
      path: loggedPaths[endpoint],
      status,
      attempt: request.attempt,
      durationMs: Math.round(performance.now() - started),
    });
    if (status >= 200 && status < 300 && !answer.complete) {
      this.#logger.warn(
        { ...record(), capBytes, bytesRead, declaredBytes },
        'analytics answer over the size cap; stopped reading it',
      );
      throw new ResponseTooLargeError({ status, capBytes, bytesRead, declaredBytes });
    }
    // Built only when it is written: this runs for every request.
    if (this.#logger.isLevelEnabled('debug')) this.#logger.debug(record(), 'analytics request');
    return { status, headers: answer.headers, text: decodeUtf8(answer.chunks) };
  }

  /** The typed error a caller sees once the retry policy gives up on a transport failure. */
  typedError(failure: TransportFailureError, attempts: number): TimeoutError | NetworkError {
    const cause = failure.cause;
    if (failure.phase !== undefined) {
      return new TimeoutError(failure.phase, this.#phaseTimeoutMs(failure.phase), { cause });
    }
    return new NetworkError(
      `Could not reach the analytics service (${failure.code ?? 'connection failed'}) after ${attempts} attempt(s)`,
      { cause },
    );
  }

  /** Releases the transport's own sockets; a dispatcher it was handed stays open. */
  async close(): Promise<void> {
    await this.#ownAgent?.close();
  }

  #phaseTimeoutMs(phase: AttemptPhase): number {
    if (phase === 'connect') return this.#connectTimeoutMs;
    if (phase === 'headers') return this.#headersTimeoutMs;
    return this.#bodyTimeoutMs;
  }
}

/** An answer whose body was read to its end, or no further than its cap. */
interface ReceivedAnswer {
  readonly status: number;
  readonly headers: Dispatcher.ResponseData['headers'];
  /** False when reading stopped at the cap, before the end of the body. */
  readonly complete: boolean;
  readonly capBytes: number;
  readonly bytesRead: number;
  readonly declaredBytes: number | undefined;
  /** What was kept of the body: never more than `capBytes`. */
  readonly chunks: readonly Buffer[];
}

/** Why the reader aborts a request it no longer wants; never seen by a caller. */
const notWanted = new Error('answer no longer wanted');

/**
 * Receives one answer straight from the dispatcher, keeping the body's chunks as they arrive until
 * it ends or passes its cap, whichever comes first; a declared length over the cap stops it
 * before the first byte. Stopping aborts the request, which makes undici drop the connection, so
 * the rest is never received and nothing beyond the cap is held. Reading here rather than through
 * `request()` spares every call the stream and the abort bookkeeping undici builds around a body,
 * which cost more than the rest of the client's own work.
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  readonly #signal: AbortSignal;
  readonly #resolve: (answer: ReceivedAnswer) => void;
  readonly #reject: (error: unknown) => void;
  readonly #chunks: Buffer[] = [];
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  #status = 0;
  #headers: Dispatcher.ResponseData['headers'] = {};
  #capBytes = 0;
  #declaredBytes: number | undefined;
  #bytesRead = 0;

  constructor(
    signal: AbortSignal,
    resolve: (answer: ReceivedAnswer) => void,
    reject: (error: unknown) => void,
  ) {
    this.#signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
    if (signal.aborted) this.#fail(signal.reason);
    else signal.addEventListener('abort', this.#onAbort);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Stopped while waiting for a connection: the request never leaves.
    if (this.#settled) controller.abort(notWanted);
    else this.#controller = controller;
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Dispatcher.ResponseData['headers'],
  ): void {
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = headers;
    this.#capBytes = statusCode < 300 ? maxAnswerBytes : maxErrorBodyBytes;
    this.#declaredBytes = declaredLength(headers['content-length']);
    if (this.#declaredBytes !== undefined && this.#declaredBytes > this.#capBytes) {
      this.#stop(controller);
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    const room = this.#capBytes - this.#bytesRead;
    this.#bytesRead += chunk.length;
    if (chunk.length > room) {
      this.#chunks.push(chunk.subarray(0, room));
      this.#stop(controller);
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.#finish(true);
  }

  onResponseError(_controller: unknown, error: unknown): void {
    this.#fail(error);
  }

  readonly #onAbort = (): void => {
    const reason: unknown = this.#signal.reason;
    this.#fail(reason);
    this.#controller?.abort(reason instanceof Error ? reason : new Error(String(reason)));
  };

  #stop(controller: Dispatcher.DispatchController): void {
    this.#finish(false);
    controller.abort(notWanted);
  }

  #finish(complete: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#resolve({
      status: this.#status,
      headers: this.#headers,
      complete,
      capBytes: this.#capBytes,
      bytesRead: this.#bytesRead,
      declaredBytes: this.#declaredBytes,
      chunks: this.#chunks,
    });
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#reject(error);
  }
}

/** The kept chunks as text, a leading byte order mark left out as undici's own reader does. */
function decodeUtf8(chunks: readonly Buffer[]): string {
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  return buffer.toString('utf8', bom ? 3 : 0);
}

/** A Content-Length as a number, or undefined when absent or unreadable. */
function declaredLength(value: string | string[] | undefined): number | undefined {
  const text = headerValue(value)?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
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
