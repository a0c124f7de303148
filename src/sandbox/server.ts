/**
 * The analytics service emulated on node:http: the OAuth token endpoint and the influencers
 * endpoint, with the real service's wire format, error statuses and headers. The zero-config demo,
 * the client's tests and the benchmarks talk to it over real sockets; `script()` injects the
 * failures a production client must survive.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.ts';
import {
  type AccessPolicy,
  type CataloguePredicate,
  compileAccess,
  demoCatalogue,
  mayRead,
  predicatesOf,
  type ResolvedDatabase,
  resolveDatabase,
} from './catalogue.ts';
import { type SandboxMetric, sandboxMetrics, topInfluencers } from './data.ts';
import { formatInZone, isAcceptedZone, parseTimestamp } from './timestamps.ts';

export interface SandboxClientConfig {
  readonly id: string;
  readonly secret: string;
  /** Names/ids of predicates and groups this client may read; undefined = all in the catalogue. */
  readonly access?: readonly string[];
}

export type SandboxEndpoint = 'token' | 'data';

/** One scripted misbehaviour; `endpoint` defaults to `'data'`. */
export type Fault =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly retryAfter?: string;
      readonly endpoint?: SandboxEndpoint;
    }
  | { readonly kind: 'revoked-token'; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'malformed-json'; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'html-error'; readonly status: number; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'slow-headers'; readonly ms: number; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'slow-body'; readonly ms: number; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'wrong-shape'; readonly endpoint?: SandboxEndpoint }
  | { readonly kind: 'reset'; readonly endpoint?: SandboxEndpoint };

/** One request as the sandbox saw it. Credentials and tokens are never recorded. */
export interface SandboxRequestRecord {
  readonly at: Date;
  readonly method: string;
  readonly path: string;
  readonly endpoint: SandboxEndpoint | 'other';
  /** Decoded values; empty when the query string is not valid percent-encoding. */
  readonly query: Readonly<Record<string, string>>;
  /** Exactly as received, to check percent-encoding (secret-looking values are redacted). */
  readonly rawQuery: string;
  readonly authScheme: 'basic' | 'bearer' | 'body' | 'none' | 'other';
  /** The first word of the Authorization header as sent (`Bearer`, `Token`...), never the credential. */
  readonly authSchemeSent: string | undefined;
  /** The status sent; 0 while unanswered and for a connection reset without an answer. */
  readonly status: number;
}

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

/** The credentials the zero-config demo uses. */
export const demoClient: SandboxClientConfig = { id: 'demo-client', secret: 'demo-secret' };

export const tokenPath = '/v1/oauth/token';
export const influencersPath = '/v1/twitter/analytics/people/influencers';

const defaultLimit = 10;
const maxLimit = 500;
const maxTokenBodyBytes = 16 * 1024;
const redactedQueryKeys = new Set(['client_secret', 'access_token', 'token', 'password']);

type MutableRecord = { -readonly [K in keyof SandboxRequestRecord]: SandboxRequestRecord[K] };

interface Client {
  readonly id: string;
  readonly secret: string;
  readonly policy: AccessPolicy | undefined;
}

interface IssuedToken {
  readonly clientId: string;
  readonly expiresAtMs: number;
}

interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
  readonly contentType?: string;
}

/** Starts a sandbox on an ephemeral loopback port unless told otherwise. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const ttlSeconds = options.tokenTtlSeconds ?? 3600;
  const tokenScheme = checkedScheme(options.tokenScheme ?? 'Bearer');
  const tokenHeader = new RegExp(`^${tokenScheme} +(\\S+)\\s*$`, 'i');
  let connections = 0;
  const clients = compileClients(options.clients ?? [demoClient]);
  const tokens = new Map<string, IssuedToken>();
  const log: MutableRecord[] = [];
  const faults: Record<SandboxEndpoint, Fault[]> = { token: [], data: [] };
  const closing = new AbortController();
  let latencyMs = checkedLatency(options.latencyMs ?? 0);

  const pause = async (ms: number): Promise<void> => {
    if (ms <= 0 || closing.signal.aborted) return;
    await sleep(ms, undefined, { signal: closing.signal }).catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '/';
    const queryStart = target.indexOf('?');
    const path = queryStart === -1 ? target : target.slice(0, queryStart);
    const rawQuery = queryStart === -1 ? '' : target.slice(queryStart + 1);
    const endpoint = path === tokenPath ? 'token' : path === influencersPath ? 'data' : 'other';
    const query = decodeQuery(rawQuery);
    const record: MutableRecord = {
      at: now(),
      method: req.method ?? 'GET',
      path,
      endpoint,
      query: query.ok ? redactValues(query.values) : {},
      rawQuery: redactRawQuery(rawQuery),
      authScheme: authSchemeOf(req.headers.authorization),
      authSchemeSent: req.headers.authorization?.trim().split(/\s+/)[0] || undefined,
      status: 0,
    };
    log.push(record);

    if (endpoint === 'other') {
      send(res, record, json(404, { error: 'not_found', message: `No such endpoint: ${path}` }));
      return;
    }

    const body = endpoint === 'token' ? await readBody(req, maxTokenBodyBytes) : '';
    if (body === undefined) {
      send(res, record, json(413, { error: 'invalid_request', message: 'Request body too large' }));
      return;
    }
    if (endpoint === 'data') await pause(latencyMs);

    let slowBodyMs = 0;
    const fault = faults[endpoint].shift();
    if (fault !== undefined) {
      if (fault.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'slow-headers') await pause(fault.ms);
      else if (fault.kind === 'slow-body') slowBodyMs = fault.ms;
      else {
        send(res, record, faultAnswer(fault, endpoint));
        return;
      }
    }
    if (isGone(res)) return;

    const answer =
      endpoint === 'token' ? tokenAnswer(req, body, record) : influencersAnswer(req, query);
    if (slowBodyMs > 0) await sendSlowly(res, record, answer, slowBodyMs, pause);
    else send(res, record, answer);
  };

  const tokenAnswer = (req: IncomingMessage, body: string, record: MutableRecord): Answer => {
    if (req.method !== 'POST') {
      return json(
        405,
        { error: 'invalid_request', message: `Use POST on ${tokenPath}` },
        { allow: 'POST' },
      );
    }
    const contentType = req.headers['content-type'] ?? '';
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return json(400, {
        error: 'invalid_request',
        error_description: 'The body must be application/x-www-form-urlencoded',
      });
    }
    const form = new URLSearchParams(body);
    const bodyId = form.get('client_id');
    const bodySecret = form.get('client_secret');
    const header = req.headers.authorization;
    const basic = header === undefined ? undefined : parseBasic(header);
    if (record.authScheme === 'none' && bodyId !== null) record.authScheme = 'body';
    if (basic !== undefined && (bodyId !== null || bodySecret !== null)) {
      return json(400, {
        error: 'invalid_request',
        error_description: 'Use exactly one client authentication method',
      });
    }
    const credentials =
      basic ?? (bodyId === null ? undefined : { id: bodyId, secret: bodySecret ?? '' });
    const client =
      credentials === undefined
        ? undefined
        : clients.find(
            (candidate) =>
              candidate.id === credentials.id && sameSecret(candidate.secret, credentials.secret),
          );
    if (client === undefined) {
      return json(
        401,
        { error: 'invalid_client', error_description: 'Client authentication failed' },
        { 'www-authenticate': 'Basic realm="analytics"' },
      );
    }
    const grantType = form.get('grant_type');
    if (grantType === null || grantType === '') {
      return json(400, { error: 'invalid_request', error_description: 'Missing grant_type' });
    }
    if (grantType !== 'client_credentials') {
      return json(400, {
        error: 'unsupported_grant_type',
        error_description: 'Only grant_type=client_credentials is supported',
      });
    }
    const issuedAtMs = now().getTime();
    pruneExpired(tokens, issuedAtMs);
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, { clientId: client.id, expiresAtMs: issuedAtMs + ttlSeconds * 1000 });
    return json(
      200,
      {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: ttlSeconds,
        scope: 'analytics:read',
        issued_at: Math.floor(issuedAtMs / 1000),
      },
      { 'cache-control': 'no-store', pragma: 'no-cache' },
    );
  };

  const unauthorized = (message: string): Answer =>
    json(
      401,
      { error: 'invalid_token', message },
      {
        'www-authenticate': `${tokenScheme} realm="analytics", error="invalid_token", error_description="${message}"`,
      },
    );

  const influencersAnswer = (req: IncomingMessage, query: DecodedQuery): Answer => {
    if (req.method !== 'GET') {
      return json(
        405,
        { error: 'invalid_request', message: `Use GET on ${influencersPath}` },
        { allow: 'GET' },
      );
    }
    const header = req.headers.authorization ?? '';
    const match = tokenHeader.exec(header);
    if (match === null) return unauthorized(`Missing ${tokenScheme.toLowerCase()} access token`);
    const token = tokens.get(match[1] ?? '');
    if (token === undefined) return unauthorized('The access token is invalid or has been revoked');
    if (now().getTime() >= token.expiresAtMs) return unauthorized('The access token expired');
    const client = clients.find((candidate) => candidate.id === token.clientId);
    if (client === undefined)
      return unauthorized('The access token is invalid or has been revoked');

    if (!query.ok) return invalid(query.parameter, query.problem);
    const params = query.values;
    for (const name of query.repeated) {
      if (['databases', 'start', 'end', 'timezone', 'limit', 'metric'].includes(name)) {
        return invalid(name, `Parameter ${name} is given more than once`);
      }
    }
    for (const name of ['databases', 'start', 'end'] as const) {
      if ((params[name] ?? '').trim() === '') {
        return invalid(name, `Missing required parameter: ${name}`);
      }
    }
    const databasesValue = params.databases ?? '';
    const startValue = params.start ?? '';
    const endValue = params.end ?? '';

    const zone = params.timezone ?? 'UTC';
    if (!isAcceptedZone(zone)) {
      return invalid(
        'timezone',
        `Invalid timezone "${zone}": expected an <Area>/<City> IANA zone name or UTC`,
      );
    }

    let limit = defaultLimit;
    if (params.limit !== undefined) {
      limit = /^\d+$/.test(params.limit) ? Number(params.limit) : Number.NaN;
      if (!(limit >= 1 && limit <= maxLimit)) {
        return invalid(
          'limit',
          `Invalid limit "${params.limit}": expected an integer from 1 to ${maxLimit}`,
        );
      }
    }

    let metrics: SandboxMetric[] = ['mentions'];
    if (params.metric !== undefined) {
      const items = params.metric.split(',').map((item) => item.trim());
      const unknown = items.find((item) => !isMetric(item));
      if (unknown !== undefined) {
        return invalid(
          'metric',
          `Invalid metric "${unknown}": expected a comma-separated list of ${sandboxMetrics.join(', ')}`,
        );
      }
      metrics = items.filter(isMetric);
    }

    const clock = now();
    const start = parseTimestamp(startValue, { now: clock, zone });
    if (!start.ok) return invalid('start', `Invalid start "${startValue}": ${start.reason}`);
    const end = parseTimestamp(endValue, { now: clock, zone });
    if (!end.ok) return invalid('end', `Invalid end "${endValue}": ${end.reason}`);
    if (start.instant.getTime() >= end.instant.getTime()) {
      return invalid(
        'start',
        `Invalid date range: start (${formatInZone(start.instant, zone)}) must be before end (${formatInZone(end.instant, zone)})`,
      );
    }

    const items = databasesValue.split(',').map((item) => item.trim());
    if (items.some((item) => item === '')) {
      return invalid('databases', `Invalid databases "${databasesValue}": an item is empty`);
    }
    const resolved: ResolvedDatabase[] = [];
    for (const item of items) {
      const found = resolveDatabase(item, demoCatalogue);
      if (found === undefined) {
        return json(404, {
          error: 'unknown_database',
          message: `Unknown database: ${item}`,
          database: item,
        });
      }
      resolved.push(found);
    }
    for (const [index, found] of resolved.entries()) {
      if (!mayRead(found, client.policy)) {
        const item = items[index] ?? '';
        return json(403, {
          error: 'access_denied',
          message: `Access denied to database: ${item}`,
          database: item,
        });
      }
    }

    const predicates: CataloguePredicate[] = resolved.flatMap((found) =>
      predicatesOf(found, demoCatalogue),
    );
    const influencers = topInfluencers({
      predicates,
      start: start.instant,
      end: end.instant,
      now: clock,
      metric: metrics[0] ?? 'mentions',
      limit,
    });
    return json(200, {
      influencers,
      databases: items,
      start: formatInZone(start.instant, zone),
      end: formatInZone(end.instant, zone),
      timezone: zone,
      metric: metrics,
      limit,
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'internal_error', message: String(error) }));
    });
  });

  server.on('connection', () => {
    connections += 1;
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${host}:${address.port}`,
    get log() {
      return log;
    },
    get connections() {
      return connections;
    },
    clearLog() {
      log.length = 0;
    },
    setLatency(ms: number) {
      latencyMs = checkedLatency(ms);
    },
    script(...scripted: Fault[]) {
      for (const fault of scripted) faults[fault.endpoint ?? 'data'].push(fault);
    },
    revokeAllTokens() {
      tokens.clear();
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

function compileClients(configs: readonly SandboxClientConfig[]): Client[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const clients = configs.map((config, index) => {
    if (config.id === '' || config.secret === '') {
      problems.push(`clients[${index}]: id and secret must not be empty`);
    }
    if (ids.has(config.id)) problems.push(`clients[${index}]: duplicate client id ${config.id}`);
    ids.add(config.id);
    if (config.access === undefined)
      return { id: config.id, secret: config.secret, policy: undefined };
    const { policy, unknown } = compileAccess(config.access, demoCatalogue);
    for (const entry of unknown) {
      problems.push(`clients[${index}].access: ${entry} is not in the catalogue`);
    }
    return { id: config.id, secret: config.secret, policy };
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return clients;
}

function checkedLatency(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`Latency must be >= 0 ms, got ${ms}`);
  return ms;
}

function checkedScheme(scheme: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(scheme)) {
    throw new RangeError(`Token scheme must be one word such as Bearer, got "${scheme}"`);
  }
  return scheme;
}

function isMetric(value: string): value is SandboxMetric {
  return (sandboxMetrics as readonly string[]).includes(value);
}

type DecodedQuery =
  | {
      readonly ok: true;
      readonly values: Readonly<Record<string, string>>;
      readonly repeated: readonly string[];
    }
  | { readonly ok: false; readonly parameter: string; readonly problem: string };

/**
 * Percent-decodes a query string the way the service does: `+` stays a plus sign (the spec asks
 * for `%20`), so a client that form-encodes spaces asks for a different, unknown name.
 */
function decodeQuery(rawQuery: string): DecodedQuery {
  const values: Record<string, string> = {};
  const repeated: string[] = [];
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName);
    } catch {
      return {
        ok: false,
        parameter: rawName,
        problem: `Malformed percent-encoding in a parameter name: ${rawName}`,
      };
    }
    try {
      value = decodeURIComponent(rawValue);
    } catch {
      return {
        ok: false,
        parameter: name,
        problem: `Malformed percent-encoding in parameter ${name}: ${rawValue}`,
      };
    }
    if (Object.hasOwn(values, name)) repeated.push(name);
    values[name] = value;
  }
  return { ok: true, values, repeated };
}

function redactValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      redactedQueryKeys.has(name.toLowerCase()) ? '[redacted]' : value,
    ]),
  );
}

function redactRawQuery(rawQuery: string): string {
  return rawQuery
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // An undecodable name is kept as received.
      }
      return redactedQueryKeys.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
}

function authSchemeOf(header: string | undefined): SandboxRequestRecord['authScheme'] {
  if (header === undefined || header.trim() === '') return 'none';
  const scheme = header.trim().split(/\s+/)[0]?.toLowerCase();
  if (scheme === 'basic') return 'basic';
  if (scheme === 'bearer') return 'bearer';
  return 'other';
}

function parseBasic(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function pruneExpired(tokens: Map<string, IssuedToken>, nowMs: number): void {
  for (const [token, issued] of tokens) {
    if (issued.expiresAtMs <= nowMs) tokens.delete(token);
  }
}

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

function json(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Answer {
  return {
    status,
    headers,
    body: JSON.stringify(body),
    contentType: 'application/json; charset=utf-8',
  };
}

function invalid(parameter: string, message: string): Answer {
  return json(400, { error: 'invalid_request', message, parameter });
}

const statusErrors: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'access_denied',
  404: 'not_found',
  408: 'request_timeout',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const statusPhrases: Readonly<Record<number, string>> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function faultAnswer(fault: Fault, endpoint: SandboxEndpoint): Answer {
  switch (fault.kind) {
    case 'status':
      return json(
        fault.status,
        {
          error: statusErrors[fault.status] ?? 'error',
          message: `The service answered HTTP ${fault.status}${statusPhrases[fault.status] ? ` (${statusPhrases[fault.status]})` : ''}`,
        },
        fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
      );
    case 'revoked-token':
      return endpoint === 'token'
        ? json(
            401,
            { error: 'invalid_client', error_description: 'Client authentication failed' },
            { 'www-authenticate': 'Basic realm="analytics"' },
          )
        : json(
            401,
            { error: 'invalid_token', message: 'The access token has been revoked' },
            {
              'www-authenticate':
                'Bearer realm="analytics", error="invalid_token", error_description="The access token has been revoked"',
            },
          );
    case 'malformed-json':
      return {
        status: 200,
        body:
          endpoint === 'token'
            ? '{"access_token": "abc", "expires_in": 36'
            : '{"influencers": [{"symplurrank": 1, "mentions": 4',
        contentType: 'application/json; charset=utf-8',
      };
    case 'html-error': {
      const phrase = statusPhrases[fault.status] ?? 'Error';
      return {
        status: fault.status,
        body: `<html>\r\n<head><title>${fault.status} ${phrase}</title></head>\r\n<body>\r\n<center><h1>${fault.status} ${phrase}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
        contentType: 'text/html',
      };
    }
    case 'wrong-shape':
      return endpoint === 'token'
        ? json(200, { token_type: 'bearer', status: 'ok' })
        : json(200, { status: 'ok', data: { people: [] }, influencers_count: 0 });
    case 'slow-headers':
    case 'slow-body':
    case 'reset':
      throw new Error(`Fault ${fault.kind} is not answered by a canned response`);
  }
}

function isGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || res.socket === null || res.socket.destroyed;
}

function headersOf(answer: Answer, length: number): Record<string, string | number> {
  return {
    ...(answer.contentType === undefined ? {} : { 'content-type': answer.contentType }),
    'content-length': length,
    ...answer.headers,
  };
}

function send(res: ServerResponse, record: MutableRecord, answer: Answer): void {
  if (isGone(res)) return;
  const body = Buffer.from(answer.body);
  record.status = answer.status;
  res.writeHead(answer.status, headersOf(answer, body.length));
  res.end(body);
}

async function sendSlowly(
  res: ServerResponse,
  record: MutableRecord,
  answer: Answer,
  stallMs: number,
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  if (isGone(res)) return;
  const body = Buffer.from(answer.body);
  const half = Math.floor(body.length / 2);
  record.status = answer.status;
  res.writeHead(answer.status, headersOf(answer, body.length));
  res.flushHeaders();
  res.write(body.subarray(0, half));
  await pause(stallMs);
  if (isGone(res)) return;
  res.end(body.subarray(half));
}
