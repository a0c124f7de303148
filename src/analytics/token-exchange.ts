/**
 * The client-credentials exchange (spec §4.1): the one request that carries the client secret and
 * the one answer that carries a token. The token is handed to the scrubber before it is returned,
 * so no later log record or error can show it.
 */
import { CredentialsRejectedError, InvalidResponseError } from '../errors.ts';
import { tokenPath } from './query.ts';
import type { SecretScrubber } from './redaction.ts';
import { tokenResponseSchema } from './schema.ts';
import type { IssuedToken } from './token-cache.ts';
import { exchangeJson, StatusFailureError, type Transport } from './transport.ts';

/**
 * One exchange, for the token cache to call whenever it holds no usable token; the cache makes
 * sure only one runs at a time. Bad credentials reject at once; a failed exchange rejects with
 * a StatusFailureError or TransportFailureError for the caller's retry policy.
 */
export async function exchangeToken(
  transport: Transport,
  basicCredentials: string,
  scrubber: SecretScrubber,
  signal: AbortSignal,
): Promise<IssuedToken> {
  const exchange = await transport.send('token', 'POST', tokenPath, {
    headers: {
      authorization: `Basic ${basicCredentials}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
    signal,
    attempt: 1,
  });
  if (exchange.status === 400 || exchange.status === 401) {
    throw new CredentialsRejectedError(exchange.status);
  }
  if (exchange.status < 200 || exchange.status >= 300) {
    throw new StatusFailureError('token', exchange, scrubber);
  }
  // The body holds the token: neither it nor a parser message quoting it may become a cause.
  const parsed = tokenResponseSchema.safeParse(
    exchangeJson(exchange, 'the token response is not JSON'),
  );
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
    throw new InvalidResponseError(
      exchange.status,
      `the token response has no usable ${fields.join(', ') || 'fields'}`,
    );
  }
  scrubber.rememberToken(parsed.data.access_token);
  return { accessToken: parsed.data.access_token, lifetimeMs: parsed.data.expires_in * 1000 };
}
