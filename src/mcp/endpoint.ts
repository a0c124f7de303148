/**
 * `POST /mcp`, the MCP server over Streamable HTTP (stateless: every request stands alone), in
 * front of the front door. What every request passes, cheapest first, before any MCP work:
 * - neither way in configured: 404, as for any path the app does not serve;
 * - a method other than POST: 405 (a stateless server offers no event stream to GET);
 * - `Authorization: Bearer <MCP_BEARER_TOKEN>`, compared in constant time; or, with Slack identity
 *   auth on, Slack's signature exactly as on `/slack/events` (both headers, a timestamp within five
 *   minutes, `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret), and for a tool
 *   call a signature never seen before; anything else: 401;
 * - a body of at most {@link maxMcpBodyBytes} (413) that is JSON (400).
 * Slack identity auth is what Slack's Slackbot MCP client documents: requests signed like every
 * other request Slack sends an app, the person's user and team ids in `params._meta.slack`.
 */
import { createHash, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { declaredTooLarge, readBody } from '../http/body.ts';
import { type Refusal, refuse } from '../http/refusal.ts';
import { RefusalLog } from '../http/refusal-log.ts';
import { signatureMatches, signedHeaders, signingKey } from '../http/slack-signature.ts';
import type { Logger } from '../logger.ts';
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
  /** False for a signature already handled (shared with `/slack/events`, across instances). */
  readonly firstSignature: (signature: string) => Promise<boolean>;
  readonly tools: McpToolsDeps;
  readonly logger: Logger;
  readonly nowMs?: () => number;
}

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
 * A tool call: the one request that does work, so the one a signature may serve only once.
 * Slackbot's handshakes (`initialize`, `tools/list`) can be identical to the byte within a second,
 * signature included, when two people ask at once; refusing those would fail honest requests.
 */
function isToolCall(message: unknown): boolean {
  const calls = Array.isArray(message) ? message : [message];
  return calls.some(
    (call) =>
      typeof call === 'object' &&
      call !== null &&
      (call as { method?: unknown }).method === 'tools/call',
  );
}

/** The JSON-RPC error an MCP client reads from a refused request (no request id is known yet). */
function jsonRpcRefusal(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The SDK and the tools, loaded only when a way in is configured: they add about half a second
 * and 10 MB to the start of an app that would never use them.
 */
async function loadServer() {
  const [{ StreamableHTTPServerTransport }, { mcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./tools.ts'),
  ]);
  return { StreamableHTTPServerTransport, mcpServer };
}

/** The request listener that serves `/mcp` and hands everything else to `next`. */
export function mcpEndpoint(options: McpEndpointOptions): RequestListener {
  const { logger } = options;
  const nowMs = options.nowMs ?? Date.now;
  const expected = options.bearerToken === undefined ? undefined : digest(options.bearerToken);
  const key = options.signingSecret === undefined ? undefined : signingKey(options.signingSecret);
  const refusals = new RefusalLog(logger);
  // Loading starts now, so the first request does not wait for it.
  const loaded = expected === undefined && key === undefined ? undefined : loadServer();
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
    refuse(res, refusal, refusal.status === 401 ? challenge : {});
  };

  const bearer = async (
    req: IncomingMessage,
    authorization: string | undefined,
  ): Promise<Admitted | Refusal> => {
    const token = bearerOf(authorization);
    if (expected === undefined || token === undefined) {
      return { status: 401, reason: 'no accepted credentials' };
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
    if (
      admitted.signature !== undefined &&
      isToolCall(message) &&
      !(await options.firstSignature(admitted.signature))
    ) {
      refuseLogged(res, { status: 401, reason: 'signature already used (a replay)' });
      return;
    }
    const { StreamableHTTPServerTransport, mcpServer } = await (loaded ?? loadServer());
    const server = mcpServer(options.tools, admitted.caller);
    // No session id generator: stateless, so any instance can answer any request.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
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
    if (req.method !== 'POST') {
      refuse(res, { status: 405, reason: 'method not allowed' }, { allow: 'POST' });
      return;
    }
    serve(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'an MCP request failed');
      jsonRpcRefusal(res, 500, -32603, 'Internal error.');
    });
  };
}
