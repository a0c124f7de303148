/**
 * Slack's request signing, as pure checks over headers and body: `x-slack-signature` is `v0=` and
 * the HMAC-SHA256 of `v0:<timestamp>:<body>` with the app's signing secret, and
 * `x-slack-request-timestamp` must lie within five minutes of now in either direction (Bolt checks
 * only the age, so a timestamp years ahead would be accepted). `/slack/events` and the MCP
 * endpoint's Slack identity auth both read requests signed this way.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Refusal } from './refusal.ts';

/** Slack's replay window: a request timestamped further from now, either way, is refused. */
export const requestSkewS = 5 * 60;

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
