import { describe, expect, it } from 'vitest';
import {
  requestSkewS,
  signatureMatches,
  signedHeaders,
  signingKey,
} from '../../src/http/slack-signature.ts';
import { signSlackRequest } from '../helpers/signing.ts';

const secret = 'slack-signature-secret';
const nowS = 1_750_000_000;
const body = 'command=%2Finfluencers&text=%23hcsm';

describe('signedHeaders', () => {
  it('reads both headers of a request signed within the window', () => {
    const headers = signSlackRequest(secret, body, nowS - 10);
    expect(signedHeaders(headers, nowS)).toEqual({
      signature: headers['x-slack-signature'],
      timestamp: nowS - 10,
    });
  });

  it('refuses a timestamp too far in the past or in the future', () => {
    for (const timestamp of [nowS - requestSkewS - 1, nowS + requestSkewS + 1]) {
      expect(signedHeaders(signSlackRequest(secret, body, timestamp), nowS)).toEqual({
        status: 401,
        reason: 'timestamp outside the replay window',
      });
    }
  });

  it('refuses missing or malformed headers', () => {
    expect(signedHeaders({}, nowS)).toEqual({ status: 401, reason: 'signature headers missing' });
    const headers = { ...signSlackRequest(secret, body, nowS), 'x-slack-signature': 'v1=00' };
    expect(signedHeaders(headers, nowS)).toEqual({
      status: 401,
      reason: 'signature headers malformed',
    });
  });
});

describe('signatureMatches', () => {
  const signed = signedHeaders(signSlackRequest(secret, body, nowS), nowS);
  if ('status' in signed) throw new Error('the request should be signed');

  it('accepts the body that was signed, with the secret that signed it', () => {
    expect(signatureMatches(signingKey(secret), signed, Buffer.from(body))).toBe(true);
  });

  it('refuses another body or another secret', () => {
    expect(signatureMatches(signingKey(secret), signed, Buffer.from(`${body}x`))).toBe(false);
    expect(signatureMatches(signingKey('other'), signed, Buffer.from(body))).toBe(false);
  });
});
