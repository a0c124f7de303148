/**
 * What every request to `/slack/events` passes before Bolt's receiver sees it, cheapest first so
 * that a hostile request costs almost nothing:
 * - both signature headers, with a timestamp within five minutes of now in either direction
 *   (Bolt checks only the age, so a timestamp years ahead would be accepted);
 * - a declared length of at most 512 KB, and a body read no further than that (Bolt reads 4 MB of
 *   any request, signed or not);
 * - the signature itself, then a body Bolt can route: an object, never `null` (Bolt reads a
 *   property of whatever the body parses to, and a TypeError there used to end the process);
 * - a signature this instance has not seen, so a captured request cannot be replayed here; whether
 *   another instance has seen it the store answers on the side, and the request's work waits for
 *   that answer while its ack does not (see `sighted-receiver.ts`).
 * A refused request's connection is closed once the refusal is out, the rest of its body unread.
 * A request that passes reaches the receiver with its body already read (`rawBody`), and the
 * receiver is told not to verify it again. The checks themselves are `http/`'s, shared with `/mcp`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import { declaredTooLarge, readBody } from '../../http/body.ts';
import { type Refusal, refuse } from '../../http/refusal.ts';
import { RefusalLog, type WindowTimer } from '../../http/refusal-log.ts';
import { signatureMatches, signedHeaders, signingKey } from '../../http/slack-signature.ts';
import type { Logger } from '../../logger.ts';
import type { SightedRequest } from './sighted-receiver.ts';

/** The one endpoint Slack posts commands, events and interactivity to. */
export const slackEventsPath = '/slack/events';
/** Commands and interactivity payloads are a few KB; nothing Slack sends comes near this. */
export const maxBodyBytes = 512 * 1024;

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
  /**
   * Undefined for a signature this instance has handled; else whether no instance has, which the
   * request carries to the receiver (`SeenRequests.sightSignature`).
   */
  readonly sight: (signature: string) => Promise<boolean> | undefined;
  readonly logger: Logger;
  readonly nowMs?: () => number;
  /** How long refusals are counted before one line sums them up (see {@link RefusalLog}). */
  readonly refusalSummaryMs?: number;
  /** The summary window's timer (tests); default a real one that keeps no process alive. */
  readonly refusalTimer?: WindowTimer;
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
    const firstSighting = options.sight(signed.signature);
    if (firstSighting === undefined) {
      // Already handled: an empty 200 so a sender that retries stops, and nothing runs again.
      logger.warn('refused a request already handled (a replay)');
      res.writeHead(200);
      res.end();
      return;
    }
    Object.assign(req, { rawBody: body, firstSighting } satisfies Partial<SightedRequest>);
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
