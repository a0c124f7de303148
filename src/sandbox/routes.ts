/**
 * The two endpoints of the analytics service, from a request to its answer, with the real
 * service's wire format, error statuses and headers. Nothing here touches a socket.
 */
import type { IncomingMessage } from 'node:http';
import { type Answer, type Checked, json, refused } from './answer.ts';
import {
  type CataloguePredicate,
  demoCatalogue,
  mayRead,
  predicatesOf,
  type ResolvedDatabase,
  resolveDatabase,
} from './catalogue.ts';
import { type Client, findClient, type TokenStore } from './credentials.ts';
import { topInfluencers, type WireInfluencer } from './data.ts';
import { influencersRequest } from './influencers-params.ts';
import type { DecodedQuery } from './query.ts';
import { formatInZone } from './timestamps.ts';

export type SandboxEndpoint = 'token' | 'data';

export const tokenPath = '/v1/oauth/token';
export const influencersPath = '/v1/twitter/analytics/people/influencers';

/** The token endpoint reads a form body; the sandbox refuses a larger one before reading on. */
export const maxTokenBodyBytes = 16 * 1024;

export type ArrivedRequest = Pick<IncomingMessage, 'method' | 'headers'>;

export interface TokenScheme {
  readonly name: string;
  readonly header: RegExp;
}

export interface RouteContext {
  readonly clients: readonly Client[];
  readonly tokens: TokenStore;
  readonly ttlSeconds: number;
  readonly tokenScheme: TokenScheme;
  readonly now: () => Date;
}

export interface TokenOutcome {
  readonly answer: Answer;
  /** The form named a client: the request log shows credentials sent in the body. */
  readonly clientIdInBody: boolean;
}

export function endpointOf(path: string): SandboxEndpoint | 'other' {
  return path === tokenPath ? 'token' : path === influencersPath ? 'data' : 'other';
}

/** Checked at start: the scheme goes into a pattern and a challenge, so it must be one word. */
export function tokenSchemeOf(name: string): TokenScheme {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) {
    throw new RangeError(`Token scheme must be one word such as Bearer, got "${name}"`);
  }
  return { name, header: new RegExp(`^${name} +(\\S+)\\s*$`, 'i') };
}

export function notFound(path: string): Answer {
  return json(404, { error: 'not_found', message: `No such endpoint: ${path}` });
}

export function bodyTooLarge(): Answer {
  return json(413, { error: 'invalid_request', message: 'Request body too large' });
}

/**
 * Only the client_credentials grant, with the client authenticated by HTTP Basic or by the form,
 * never both.
 */
export function tokenAnswer(
  context: RouteContext,
  req: ArrivedRequest,
  body: string,
): TokenOutcome {
  if (req.method !== 'POST') {
    return {
      answer: json(
        405,
        { error: 'invalid_request', message: `Use POST on ${tokenPath}` },
        { allow: 'POST' },
      ),
      clientIdInBody: false,
    };
  }
  const contentType = req.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return {
      answer: json(400, {
        error: 'invalid_request',
        error_description: 'The body must be application/x-www-form-urlencoded',
      }),
      clientIdInBody: false,
    };
  }
  const form = new URLSearchParams(body);
  return {
    answer: grantAnswer(context, req.headers.authorization, form),
    clientIdInBody: form.get('client_id') !== null,
  };
}

function grantAnswer(
  context: RouteContext,
  authorization: string | undefined,
  form: URLSearchParams,
): Answer {
  const bodyId = form.get('client_id');
  const bodySecret = form.get('client_secret');
  const basic = authorization === undefined ? undefined : parseBasic(authorization);
  if (basic !== undefined && (bodyId !== null || bodySecret !== null)) {
    return json(400, {
      error: 'invalid_request',
      error_description: 'Use exactly one client authentication method',
    });
  }
  const credentials =
    basic ?? (bodyId === null ? undefined : { id: bodyId, secret: bodySecret ?? '' });
  const client = credentials === undefined ? undefined : findClient(context.clients, credentials);
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
  const issuedAtMs = context.now().getTime();
  const accessToken = context.tokens.issue(client.id, issuedAtMs, context.ttlSeconds);
  return json(
    200,
    {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: context.ttlSeconds,
      scope: 'analytics:read',
      issued_at: Math.floor(issuedAtMs / 1000),
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

function parseBasic(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The body of a 200 from the influencers endpoint, before it is written out. */
export interface InfluencersPayload {
  readonly influencers: readonly WireInfluencer[];
  readonly databases: readonly string[];
  readonly start: string;
  readonly end: string;
  readonly timezone: string;
  readonly metric: readonly string[];
  readonly limit: number;
}

/** A bad token is refused before the query is read, so a caller without access learns nothing. */
export function influencersAnswer(
  context: RouteContext,
  req: ArrivedRequest,
  query: DecodedQuery,
): Answer {
  const payload = influencersPayload(context, req, query);
  return payload.ok ? json(200, payload.value) : payload.answer;
}

/**
 * The influencers endpoint up to the body it would send. `ignoreLimit` ranks every active account
 * whatever `limit` says, as a service that ignores the parameter would (the payload still echoes it).
 */
export function influencersPayload(
  context: RouteContext,
  req: ArrivedRequest,
  query: DecodedQuery,
  options: { readonly ignoreLimit?: boolean } = {},
): Checked<InfluencersPayload> {
  if (req.method !== 'GET') {
    return refused(
      json(
        405,
        { error: 'invalid_request', message: `Use GET on ${influencersPath}` },
        { allow: 'GET' },
      ),
    );
  }
  const client = bearerClient(context, req.headers.authorization ?? '');
  if (!client.ok) return client;
  const request = influencersRequest(query, context.now);
  if (!request.ok) return request;
  const databases = readableDatabases(request.value.databases, client.value.policy);
  if (!databases.ok) return databases;

  const { start, end, zone, limit, metrics, clock } = request.value;
  const predicates: CataloguePredicate[] = databases.value.flatMap((found) =>
    predicatesOf(found, demoCatalogue),
  );
  const influencers = topInfluencers({
    predicates,
    start,
    end,
    now: clock,
    metrics,
    limit: options.ignoreLimit ? Number.POSITIVE_INFINITY : limit,
  });
  return {
    ok: true,
    value: {
      influencers,
      databases: request.value.databases,
      start: formatInZone(start, zone),
      end: formatInZone(end, zone),
      timezone: zone,
      metric: metrics,
      limit,
    },
  };
}

function bearerClient(context: RouteContext, header: string): Checked<Client> {
  const { tokenScheme } = context;
  const match = tokenScheme.header.exec(header);
  if (match === null) {
    return unauthorized(tokenScheme, `Missing ${tokenScheme.name.toLowerCase()} access token`);
  }
  const token = context.tokens.get(match[1] ?? '');
  if (token === undefined) {
    return unauthorized(tokenScheme, 'The access token is invalid or has been revoked');
  }
  if (context.now().getTime() >= token.expiresAtMs) {
    return unauthorized(tokenScheme, 'The access token expired');
  }
  const client = context.clients.find((candidate) => candidate.id === token.clientId);
  if (client === undefined) {
    return unauthorized(tokenScheme, 'The access token is invalid or has been revoked');
  }
  return { ok: true, value: client };
}

function unauthorized(scheme: TokenScheme, message: string): Checked<never> {
  return refused(
    json(
      401,
      { error: 'invalid_token', message },
      {
        'www-authenticate': `${scheme.name} realm="analytics", error="invalid_token", error_description="${message}"`,
      },
    ),
  );
}

/** Resolves every name before checking access: an unknown name is a 404 before any 403. */
function readableDatabases(
  items: readonly string[],
  policy: Client['policy'],
): Checked<ResolvedDatabase[]> {
  const resolved: ResolvedDatabase[] = [];
  for (const item of items) {
    const found = resolveDatabase(item, demoCatalogue);
    if (found === undefined) {
      return refused(
        json(404, {
          error: 'unknown_database',
          message: `Unknown database: ${item}`,
          database: item,
        }),
      );
    }
    resolved.push(found);
  }
  for (const [index, found] of resolved.entries()) {
    if (!mayRead(found, policy)) {
      const item = items[index] ?? '';
      return refused(
        json(403, {
          error: 'access_denied',
          message: `Access denied to database: ${item}`,
          database: item,
        }),
      );
    }
  }
  return { ok: true, value: resolved };
}
