/**
 * The requests the sandbox saw, kept for tests to check what a client sent and how it was
 * answered. Credentials and tokens never reach a record, so a log can be printed or compared whole.
 */
import type { DecodedQuery, RequestTarget } from './query.ts';
import type { ArrivedRequest, SandboxEndpoint } from './routes.ts';

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
  /**
   * Body bytes handed to the socket for a streamed answer (the `ignores-limit` and
   * `long-error-page` faults), growing as it is written and final once the client read it all or
   * hung up. Absent for other answers.
   */
  readonly bodyBytesWritten?: number;
}

/** A record is made on arrival and completed while the request is answered. */
export type MutableRecord = {
  -readonly [K in keyof SandboxRequestRecord]: SandboxRequestRecord[K];
};

const redactedQueryKeys = new Set(['client_secret', 'access_token', 'token', 'password']);

/** Made before the request is routed, so a request that fails or is reset still shows. */
export function recordOf(
  req: ArrivedRequest,
  target: RequestTarget,
  endpoint: SandboxEndpoint | 'other',
  query: DecodedQuery,
  at: Date,
): MutableRecord {
  const authorization = req.headers.authorization;
  return {
    at,
    method: req.method ?? 'GET',
    path: target.path,
    endpoint,
    query: query.ok ? redactValues(query.values) : {},
    rawQuery: redactRawQuery(target.rawQuery),
    authScheme: authSchemeOf(authorization),
    authSchemeSent: authorization?.trim().split(/\s+/)[0] || undefined,
    status: 0,
  };
}

/** The client id shows in a token request's form only once the token route has read it. */
export function noteClientIdInBody(record: MutableRecord): void {
  if (record.authScheme === 'none') record.authScheme = 'body';
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
