/**
 * The analytics service emulated on node:http: the OAuth token endpoint and the influencers
 * endpoint, with the real service's wire format, error statuses and headers. The zero-config demo,
 * the client's tests and the benchmarks talk to it over real sockets; `script()` injects the
 * failures a production client must survive.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Answer, isGone, send, sendSlowly, sendStreamed } from './answer.ts';
import { compileClients, demoClient, type SandboxClientConfig, TokenStore } from './credentials.ts';
import { type Fault, FaultScript, faultEffect } from './faults.ts';
import { unlimitedAnswer } from './oversized.ts';
import { type DecodedQuery, decodeQuery, splitTarget } from './query.ts';
import {
  type MutableRecord,
  noteClientIdInBody,
  recordOf,
  type SandboxRequestRecord,
} from './request-log.ts';
import {
  bodyTooLarge,
  endpointOf,
  influencersAnswer,
  influencersPayload,
  maxTokenBodyBytes,
  notFound,
  type RouteContext,
  type SandboxEndpoint,
  tokenAnswer,
  tokenSchemeOf,
} from './routes.ts';

export { demoClient, type SandboxClientConfig } from './credentials.ts';
export type { Fault } from './faults.ts';
export type { SandboxRequestRecord } from './request-log.ts';
export { influencersPath, type SandboxEndpoint, tokenPath } from './routes.ts';

export interface SandboxOptions {
  readonly port?: number;
  readonly host?: string;
  /** Default: the demo client with access to the whole catalogue. */
  readonly clients?: readonly SandboxClientConfig[];
  readonly tokenTtlSeconds?: number;
  /**
   * Scheme the data endpoint expects before the access token, compared case-insensitively. Default
   * `Bearer`, as the real service; another value checks a client configured for another service.
   */
  readonly tokenScheme?: string;
  /** Added before answering every data request. */
  readonly latencyMs?: number;
  /** Clock for token expiry, relative timestamps and the edge of available data. */
  readonly now?: () => Date;
}

export interface Sandbox {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly log: readonly SandboxRequestRecord[];
  /** TCP connections accepted so far: shows whether clients keep connections alive. */
  readonly connections: number;
  clearLog(): void;
  setLatency(ms: number): void;
  /** Answer the next requests to each fault's endpoint with these faults, in order; later requests are answered normally. */
  script(...faults: Fault[]): void;
  /** Every issued token becomes invalid (401 invalid_token), as if the service revoked them. */
  revokeAllTokens(): void;
  /** Closes the listening socket and every connection, kept-alive ones included. */
  close(): Promise<void>;
}

/** What every request shares; the Sandbox methods are the only ones to change it. */
interface SandboxState {
  readonly routes: RouteContext;
  readonly log: MutableRecord[];
  readonly faults: FaultScript;
  latencyMs: number;
  /** Cut short when the sandbox closes, so close() never waits for a stall to end. */
  readonly pause: (ms: number) => Promise<void>;
}

/** Starts a sandbox on an ephemeral loopback port unless told otherwise. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const ttlSeconds = options.tokenTtlSeconds ?? 3600;
  const tokenScheme = tokenSchemeOf(options.tokenScheme ?? 'Bearer');
  const clients = compileClients(options.clients ?? [demoClient]);
  const closing = new AbortController();
  const state: SandboxState = {
    routes: { clients, tokens: new TokenStore(), ttlSeconds, tokenScheme, now },
    log: [],
    faults: new FaultScript(),
    latencyMs: checkedLatency(options.latencyMs ?? 0),
    pause: (ms) => pause(ms, closing.signal),
  };

  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => answerFailure(res, error));
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  let closed: Promise<void> | undefined;

  return {
    url: urlOf(server.address() as AddressInfo),
    get log() {
      return state.log;
    },
    get connections() {
      return connections;
    },
    clearLog() {
      state.log.length = 0;
    },
    setLatency(ms: number) {
      state.latencyMs = checkedLatency(ms);
    },
    script(...scripted: Fault[]) {
      state.faults.add(scripted);
    },
    revokeAllTokens() {
      state.routes.tokens.revokeAll();
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/**
 * Records the request first, so the log shows even those that are refused or reset; latency and
 * a scripted fault come before the route, as a slow or failing service would.
 */
async function handle(
  state: SandboxState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const target = splitTarget(req.url ?? '/');
  const endpoint = endpointOf(target.path);
  const query = decodeQuery(target.rawQuery);
  const record = recordOf(req, target, endpoint, query, state.routes.now());
  state.log.push(record);

  if (endpoint === 'other') {
    send(res, record, notFound(target.path));
    return;
  }
  const body = endpoint === 'token' ? await readBody(req, maxTokenBodyBytes) : '';
  if (body === undefined) {
    send(res, record, bodyTooLarge());
    return;
  }
  if (endpoint === 'data') await state.pause(state.latencyMs);

  const fault = state.faults.take(endpoint);
  const effect = fault === undefined ? undefined : faultEffect(fault, endpoint);
  if (effect?.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (effect?.kind === 'answer') {
    send(res, record, effect.answer);
    return;
  }
  if (effect?.kind === 'stream') {
    await sendStreamed(res, record, effect.answer);
    return;
  }
  if (effect?.kind === 'unlimited') {
    const payload = influencersPayload(state.routes, req, query, { ignoreLimit: true });
    if (!payload.ok) send(res, record, payload.answer);
    else
      await sendStreamed(
        res,
        record,
        unlimitedAnswer(payload.value, effect.items, effect.declareLength),
      );
    return;
  }
  if (effect !== undefined && effect.headersMs > 0) await state.pause(effect.headersMs);
  if (isGone(res)) return;

  const answer = routeAnswer(state.routes, req, endpoint, { body, query, record });
  const bodyMs = effect?.bodyMs ?? 0;
  if (bodyMs > 0) await sendSlowly(res, record, answer, bodyMs, state.pause);
  else send(res, record, answer);
}

function routeAnswer(
  routes: RouteContext,
  req: IncomingMessage,
  endpoint: SandboxEndpoint,
  read: { body: string; query: DecodedQuery; record: MutableRecord },
): Answer {
  if (endpoint === 'data') return influencersAnswer(routes, req, read.query);
  const outcome = tokenAnswer(routes, req, read.body);
  if (outcome.clientIdInBody) noteClientIdInBody(read.record);
  return outcome.answer;
}

/** A bug in the sandbox answers 500 like a failing service instead of leaving a client hanging. */
function answerFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: 'internal_error', message: String(error) }));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

async function pause(ms: number, closing: AbortSignal): Promise<void> {
  if (ms <= 0 || closing.aborted) return;
  await sleep(ms, undefined, { signal: closing }).catch(() => undefined);
}

function checkedLatency(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Latency must be >= 0 ms, got ${ms}`);
  return ms;
}

/** Stops reading past `limit` bytes, so an oversized body cannot fill the sandbox's memory. */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
