/**
 * What every request to `/slack/events` passes before Bolt's receiver sees it, cheapest first so
 * that a hostile request costs almost nothing:
 * - both signature headers, with a timestamp within five minutes of now in either direction
 *   (Bolt checks only the age, so a timestamp years ahead would be accepted);
 * - a declared length of at most 512 KB, and a body read no further than that (Bolt reads 4 MB of
 *   any request, signed or not);
 * - the signature itself, then a body Bolt can route: an object, never `null` (Bolt reads a
 *   property of whatever the body parses to, and a TypeError there used to end the process);
 * - a signature not seen before by any instance, so a captured request cannot be replayed.
 * A refused request's connection is closed once the refusal is out, the rest of its body unread.
 * A request that passes reaches the receiver with its body already read (`rawBody`), and the
 * receiver is told not to verify it again.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  RequestListener,
  ServerResponse,
} from 'node:http';
import { parse as parseForm } from 'node:querystring';
import { RefusalLog, type WindowTimer } from '../../http/refusal-log.ts';
import type { Logger } from '../../logger.ts';

/** The one endpoint Slack posts commands, events and interactivity to. */
export const slackEventsPath = '/slack/events';
/** Slack's replay window: a request timestamped further from now, either way, is refused. */
export const requestSkewS = 5 * 60;
/** Commands and interactivity payloads are a few KB; nothing Slack sends comes near this. */
export const maxBodyBytes = 512 * 1024;

/** Why a request was refused, and the status that says so. */
export interface Refusal {
  readonly status: 400 | 401 | 404 | 405 | 413 | 503;
  readonly reason: string;
}

export interface SignedHeaders {
  readonly signature: string;
  readonly timestamp: number;
}

const signatureShape = /^v0=[0-9a-f]{64}$/;
const timestampShape = /^\d{1,12}$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The signature headers, when both are present, well formed and timely; checked before any body. */
export function signedHeaders(headers: IncomingHttpHeaders, nowS: number): SignedHeaders | Refusal {
  const signature = header(headers, 'x-slack-signature');
  const timestamp = header(headers, 'x-slack-request-timestamp');
  if (signature === undefined || timestamp === undefined) {
    return { status: 401, reason: 'signature headers missing' };
  }
  if (!signatureShape.test(signature) || !timestampShape.test(timestamp)) {
    return { status: 401, reason: 'signature headers malformed' };
  }
  const seconds = Number(timestamp);
  if (Math.abs(nowS - seconds) > requestSkewS) {
    return { status: 401, reason: 'timestamp outside the replay window' };
  }
  return { signature, timestamp: seconds };
}

/** A declared body length over the limit, refused before reading a byte of it. */
export function declaredTooLarge(headers: IncomingHttpHeaders, limit: number): Refusal | undefined {
  const declared = Number(header(headers, 'content-length') ?? 0);
  return declared > limit ? { status: 413, reason: 'declared body too large' } : undefined;
}

/** The body, or undefined once it passes `limit` bytes (the rest is never read). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

/** The signing secret as a key object, made once instead of at every request. */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/** Slack's signature: `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`, compared in constant time. */
export function signatureMatches(key: KeyObject, signed: SignedHeaders, body: Buffer): boolean {
  const expected = createHmac('sha256', key)
    .update(`v0:${signed.timestamp}:`)
    .update(body)
    .digest();
  const given = Buffer.from(signed.signature.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether the receiver can route the body: form bodies (commands), form bodies whose `payload` is
 * a JSON object (interactivity), JSON objects (events). Read as the receiver reads them.
 */
export function bodyShapeProblem(
  contentType: string | undefined,
  body: Buffer,
): Refusal | undefined {
  const malformed: Refusal = { status: 400, reason: 'body is not a Slack payload' };
  try {
    if (contentType === 'application/x-www-form-urlencoded') {
      const { payload } = parseForm(body.toString('utf8'));
      if (payload === undefined) return undefined;
      return typeof payload === 'string' && isObject(JSON.parse(payload)) ? undefined : malformed;
    }
    return isObject(JSON.parse(body.toString('utf8'))) ? undefined : malformed;
  } catch {
    return malformed;
  }
}

export interface FrontDoorOptions {
  readonly signingSecret: string;
  /** Bolt's receiver: every request that passed, with its body read. */
  readonly next: RequestListener;
  /** False for a signature already handled. */
  readonly firstSignature: (signature: string) => Promise<boolean>;
  readonly logger: Logger;
  readonly nowMs?: () => number;
  /** How long refusals are counted before one line sums them up (see {@link RefusalLog}). */
  readonly refusalSummaryMs?: number;
  /** The summary window's timer (tests); default a real one that keeps no process alive. */
  readonly refusalTimer?: WindowTimer;
}

/**
 * Answers without a body and closes the connection as soon as the answer is handed to the system,
 * reading nothing more of the request. Left to itself, Node would read the rest of the body and
 * throw it away before closing: a few hundred hostile clients each sending megabytes then keep the
 * app busy reading and hold socket buffers worth tens of MB.
 */
export function refuse(
  res: ServerResponse,
  refusal: Refusal,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  // Taken now: once the answer is out, Node detaches the socket from the response.
  const socket = res.socket;
  res.writeHead(refusal.status, { ...headers, connection: 'close' });
  res.end(() => socket?.destroy());
}

/** The request listener of the app's HTTP server; see the module comment. */
export function frontDoor(options: FrontDoorOptions): RequestListener {
  const key = signingKey(options.signingSecret);
  const nowMs = options.nowMs ?? Date.now;
  const { logger } = options;
  const refusals = new RefusalLog(logger, options.refusalSummaryMs, options.refusalTimer);

  const pass = (req: IncomingMessage, res: ServerResponse) => {
    try {
      options.next(req, res);
    } catch {
      // The receiver throws for a path it does not serve.
      refuse(res, { status: 404, reason: 'no such route' });
    }
  };

  const checked = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const signed = signedHeaders(req.headers, Math.floor(nowMs() / 1000));
    if ('status' in signed) return refuseLogged(res, signed);
    const tooLarge = declaredTooLarge(req.headers, maxBodyBytes);
    if (tooLarge !== undefined) return refuseLogged(res, tooLarge);
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) return refuseLogged(res, { status: 413, reason: 'body too large' });
    if (!signatureMatches(key, signed, body)) {
      return refuseLogged(res, { status: 401, reason: 'signature does not match' });
    }
    const problem = bodyShapeProblem(req.headers['content-type'], body);
    if (problem !== undefined) return refuseLogged(res, problem);
    if (!(await options.firstSignature(signed.signature))) {
      // Already handled: an empty 200 so a sender that retries stops, and nothing runs again.
      logger.warn('refused a request already handled (a replay)');
      res.writeHead(200);
      res.end();
      return;
    }
    Object.assign(req, { rawBody: body });
    pass(req, res);
  };

  const refuseLogged = (res: ServerResponse, refusal: Refusal) => {
    refusals.record(refusal);
    refuse(res, refusal);
  };

  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST' || path !== slackEventsPath) {
      pass(req, res);
      return;
    }
    checked(req, res).catch((error: unknown) => {
      logger.warn({ err: error }, 'a request to /slack/events failed before reaching Bolt');
      refuse(res, { status: 400, reason: 'request failed' });
    });
  };
}
