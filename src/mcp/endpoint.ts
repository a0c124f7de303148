/**
 * `POST /mcp`, the MCP server over Streamable HTTP (stateless: every request stands alone), in
 * front of the front door. It speaks protocol 2026-07-28 (`server/discover`, the per-request
 * `_meta` envelope) and the 2025 revisions (`initialize`) alike, through the SDK's handler for both.
 * What every request passes, cheapest first, before any MCP work:
 * - neither way in configured: 404, as for any path the app does not serve;
 * - an `Origin` or `Host` of a site the app does not serve: 403 (see origin.ts);
 * - a method other than POST: 405 (a stateless server offers no event stream to GET);
 * - `Authorization: Bearer <MCP_BEARER_TOKEN>`, compared in constant time; or, with Slack identity
 *   auth on, Slack's signature exactly as on `/slack/events` (both headers, a timestamp within five
 *   minutes, `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret), and for a tool
 *   call a signature never seen before; anything else: 401, saying in words what is missing;
 * - a body of at most {@link maxMcpBodyBytes} (413) that is JSON (400, -32700) and one JSON-RPC
 *   message, not a batch (400, -32600), with a tool call's arguments an object (-32602; see
 *   messages.ts);
 * - a tool call waits for one of a few slots (503 when too many already wait; see tool-slots.ts),
 *   and every request for its turn: a few start per turn of the event loop.
 * Slack identity auth is what Slack's Slackbot MCP client documents: requests signed like every
 * other request Slack sends an app, the person's user and team ids in `params._meta.slack`.
 */
import { createHash, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Turns } from '../async/turns.ts';
import { declaredTooLarge, readBody } from '../http/body.ts';
import { type Refusal, refuse } from '../http/refusal.ts';
import { RefusalLog } from '../http/refusal-log.ts';
import { signatureMatches, signedHeaders, signingKey } from '../http/slack-signature.ts';
import type { Logger } from '../logger.ts';
import { isToolCall, type MessageProblem, messageProblem } from './messages.ts';
import { originGuard } from './origin.ts';
import { ToolSlots } from './tool-slots.ts';
import type { Caller, McpToolsDeps } from './tools.ts';

export const mcpPath = '/mcp';
/** A tool call is a few hundred bytes; an initialize with every capability a few KB. */
export const maxMcpBodyBytes = 64 * 1024;

export interface McpEndpointOptions {
  /** Every other request (the front door). */
  readonly next: RequestListener;
  /** `MCP_BEARER_TOKEN`; undefined: no bearer client may call. */
  readonly bearerToken?: string;
  /** The app's signing secret when Slack identity auth is on; undefined: Slackbot may not call. */
  readonly signingSecret?: string;
  /** `PUBLIC_URL`, the app's own address: the one `Host` (besides loopback) a request may name. */
  readonly publicUrl?: string;
  /** False for a signature already handled (shared with `/slack/events`, across instances). */
  readonly firstSignature: (signature: string) => Promise<boolean>;
  readonly tools: McpToolsDeps;
  readonly logger: Logger;
  readonly nowMs?: () => number;
  /** Tool calls running and waiting at once (see tool-slots.ts); tests pass their own. */
  readonly toolSlots?: ToolSlots;
  /** When each request may start (see async/turns.ts); tests pass their own. */
  readonly turns?: Pick<Turns, 'next'>;
}

/** MCP requests that start in one turn of the event loop (see async/turns.ts). */
const mcpRequestsPerTurn = 2;

/** What a tool call past the waiting room is told, and when to come back. */
const busyWords =
  'Server busy: too many tool calls are running or waiting; try again in a few seconds.';
const busyRetryAfterS = 5;

/** SHA-256 first, so that tokens of any length compare in the same time. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The token after `Bearer`, or undefined when the header is absent or another scheme. */
export function bearerOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** Who was let in, the body read, and Slack's signature when it was Slack's request. */
interface Admitted {
  readonly caller: Caller;
  readonly body: Buffer;
  readonly signature?: string;
}

/**
 * The JSON-RPC error an MCP client reads from a refused request (no request id is known yet),
 * closing the connection without reading the rest of the body, as every door refuses.
 */
function jsonRpcRefusal(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  const socket = res.socket;
  res.writeHead(status, { ...headers, 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), () =>
    socket?.destroy(),
  );
}

/** A JSON-RPC error in the request's own exchange: HTTP 200 with its id, as the SDK answers. */
function answerError(res: ServerResponse, problem: MessageProblem): void {
  const { code, message, id } = problem;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
}

/** What a 401 says: which credentials the request lacks, for the person setting the client up. */
const unauthorizedWords: Readonly<Record<string, string>> = {
  'no bearer token':
    'Unauthorized: send the header "Authorization: Bearer <token>" with the token set as MCP_BEARER_TOKEN on the server.',
  'another scheme':
    'Unauthorized: the Authorization header must read "Bearer <token>"; another scheme was sent.',
  'bearer token does not match':
    'Unauthorized: the bearer token does not match the one this server was given (MCP_BEARER_TOKEN).',
  'no bearer clients':
    'Unauthorized: this server serves only requests signed by Slack (Slack identity auth); no bearer token is set up.',
  'signature headers missing':
    'Unauthorized: a Slack-signed request needs both X-Slack-Signature and X-Slack-Request-Timestamp.',
  'signature headers malformed':
    "Unauthorized: X-Slack-Signature or X-Slack-Request-Timestamp is not in Slack's format.",
  'timestamp outside the replay window':
    "Unauthorized: X-Slack-Request-Timestamp is more than five minutes from the server's clock.",
  'signature does not match':
    "Unauthorized: the Slack signature does not match this app's signing secret.",
  'signature already used (a replay)':
    'Unauthorized: this signed tool call was already served; a signature serves once.',
};

/** Headers a `Request` must not be given again: they describe the connection, not the message. */
const hopByHop = new Set(['connection', 'content-length', 'keep-alive', 'transfer-encoding']);

/** The request as the SDK's web-standard handler reads it, with the body already read. */
function webRequest(req: IncomingMessage, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || hopByHop.has(name)) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  return new Request(`http://localhost${req.url ?? mcpPath}`, {
    method: 'POST',
    headers,
    body: new Uint8Array(body),
    signal,
  });
}

/** Writes the handler's answer, a JSON body or an event stream, to the Node response. */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
}

/**
 * The SDK's handler for both protocol eras, and the tools, loaded only when a way in is
 * configured: they add about half a second and 10 MB to the start of an app that would never use
 * them. One handler per kind of caller, each making a fresh server for every request.
 */
async function loadHandlers(tools: McpToolsDeps, logger: Logger) {
  const [{ createMcpHandler }, { mcpServer }] = await Promise.all([
    import('@modelcontextprotocol/server'),
    import('./tools.ts'),
  ]);
  const handlerFor = (caller: Caller) =>
    createMcpHandler(() => mcpServer(tools, caller), {
      onerror: (error) => logger.debug({ err: error }, 'the MCP handler refused a request'),
    });
  return { bearer: handlerFor({ kind: 'bearer' }), slack: handlerFor({ kind: 'slack' }) };
}

/** The request listener that serves `/mcp` and hands everything else to `next`. */
export function mcpEndpoint(options: McpEndpointOptions): RequestListener {
  const { logger } = options;
  const nowMs = options.nowMs ?? Date.now;
  const expected = options.bearerToken === undefined ? undefined : digest(options.bearerToken);
  const key = options.signingSecret === undefined ? undefined : signingKey(options.signingSecret);
  const foreign = originGuard({
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
  });
  const refusals = new RefusalLog(logger);
  const slots = options.toolSlots ?? new ToolSlots();
  const turns = options.turns ?? new Turns(mcpRequestsPerTurn);
  const load = () => loadHandlers(options.tools, logger);
  // Loading starts now, so the first request does not wait for it.
  const loaded = expected === undefined && key === undefined ? undefined : load();
  loaded?.catch(() => {});
  const challenge: Record<string, string> =
    expected === undefined ? {} : { 'www-authenticate': 'Bearer' };

  const boundedBody = async (req: IncomingMessage): Promise<Buffer | Refusal> => {
    const tooLarge = declaredTooLarge(req.headers, maxMcpBodyBytes);
    if (tooLarge !== undefined) return tooLarge;
    return (await readBody(req, maxMcpBodyBytes)) ?? { status: 413, reason: 'body too large' };
  };

  const refuseLogged = (res: ServerResponse, refusal: Refusal) => {
    refusals.record({ status: refusal.status, reason: `mcp: ${refusal.reason}` });
    if (refusal.status !== 401) {
      refuse(res, refusal);
      return;
    }
    const words = unauthorizedWords[refusal.reason] ?? `Unauthorized: ${refusal.reason}.`;
    jsonRpcRefusal(res, 401, -32001, words, challenge);
  };

  const bearer = async (
    req: IncomingMessage,
    authorization: string | undefined,
  ): Promise<Admitted | Refusal> => {
    if (expected === undefined) return { status: 401, reason: 'no bearer clients' };
    const token = bearerOf(authorization);
    if (token === undefined) {
      const reason = authorization === undefined ? 'no bearer token' : 'another scheme';
      return { status: 401, reason };
    }
    if (!timingSafeEqual(digest(token), expected)) {
      return { status: 401, reason: 'bearer token does not match' };
    }
    const body = await boundedBody(req);
    return 'status' in body ? body : { caller: { kind: 'bearer' }, body };
  };

  const slackSigned = async (
    req: IncomingMessage,
    secretKey: KeyObject,
  ): Promise<Admitted | Refusal> => {
    const signed = signedHeaders(req.headers, Math.floor(nowMs() / 1000));
    if ('status' in signed) return signed;
    const body = await boundedBody(req);
    if ('status' in body) return body;
    if (!signatureMatches(secretKey, signed, body)) {
      return { status: 401, reason: 'signature does not match' };
    }
    return { caller: { kind: 'slack' }, body, signature: signed.signature };
  };

  /**
   * The caller and the body, or the refusal: a request carrying Slack's signature is Slack's to
   * prove, any other must carry the bearer token. The body is read only once a way in is claimed.
   */
  const admit = (req: IncomingMessage): Promise<Admitted | Refusal> =>
    key !== undefined && req.headers['x-slack-signature'] !== undefined
      ? slackSigned(req, key)
      : bearer(req, req.headers.authorization);

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const admitted = await admit(req);
    if ('status' in admitted) {
      refuseLogged(res, admitted);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(admitted.body.toString('utf8'));
    } catch {
      jsonRpcRefusal(res, 400, -32700, 'Parse error: the body is not JSON.');
      return;
    }
    const problem = messageProblem(message);
    if (problem !== undefined) {
      if (problem.inBand) {
        answerError(res, problem);
        return;
      }
      refusals.record({ status: 400, reason: 'mcp: not one JSON-RPC message' });
      jsonRpcRefusal(res, 400, problem.code, problem.message);
      return;
    }
    // A tool call does work, so its signature serves once. Slackbot's handshakes (`initialize`,
    // `tools/list`) can be identical to the byte, signature included, when two people ask at once.
    if (
      admitted.signature !== undefined &&
      isToolCall(message) &&
      !(await options.firstSignature(admitted.signature))
    ) {
      refuseLogged(res, { status: 401, reason: 'signature already used (a replay)' });
      return;
    }
    const handlers = await (loaded ?? load());
    // A client that goes away cancels its tool call, or its wait for a slot.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const slot = isToolCall(message) ? await slots.acquire(gone.signal) : undefined;
    if (slot?.kind === 'cancelled') return;
    if (slot?.kind === 'busy') {
      refusals.record({ status: 503, reason: 'mcp: too many tool calls' });
      jsonRpcRefusal(res, 503, -32000, busyWords, { 'retry-after': String(busyRetryAfterS) });
      return;
    }
    try {
      // A few MCP requests start per turn of the event loop, with whatever I/O came meanwhile in
      // between: a flood of cheap calls cannot hold up the acks Slack waits 3 seconds for.
      await turns.next();
      if (gone.signal.aborted) return;
      const response = await handlers[admitted.caller.kind].fetch(
        webRequest(req, admitted.body, gone.signal),
        { parsedBody: message },
      );
      // The slot is held until the answer is written: serializing a large one is part of its cost.
      await sendResponse(res, response);
    } finally {
      slot?.release();
    }
  };

  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== mcpPath) {
      options.next(req, res);
      return;
    }
    if (expected === undefined && key === undefined) {
      refuse(res, { status: 404, reason: 'no such route' });
      return;
    }
    const refused = foreign({ origin: req.headers.origin, host: req.headers.host });
    if (refused !== undefined) {
      refusals.record({ status: 403, reason: 'mcp: foreign Origin or Host' });
      jsonRpcRefusal(res, 403, -32000, refused.reason);
      return;
    }
    if (req.method !== 'POST') {
      refuse(res, { status: 405, reason: 'method not allowed' }, { allow: 'POST' });
      return;
    }
    serve(req, res).catch((error: unknown) => {
      if (res.destroyed) return;
      logger.error({ err: error }, 'an MCP request failed');
      jsonRpcRefusal(res, 500, -32603, 'Internal error.');
    });
  };
}
