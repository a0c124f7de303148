import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSandbox, tokenPath } from '../../src/sandbox/server.ts';
import { basic, form, influencers, requestToken, sandboxPerTest } from './support.ts';

const window = { databases: '#hcsm', start: '2026-03-01', end: '2026-03-08' };

describe('sandbox fault injection', () => {
  const ready = sandboxPerTest();

  it('answers a scripted status with a JSON body and Retry-After, then answers normally', async () => {
    const { sandbox, token } = await ready();
    sandbox.script(
      { kind: 'status', status: 429, retryAfter: '2' },
      { kind: 'status', status: 503, retryAfter: 'Wed, 11 Mar 2026 10:00:00 GMT' },
      { kind: 'status', status: 500 },
    );
    const limited = await influencers(sandbox.url, token, window);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(await limited.json()).toEqual({
      error: 'rate_limit_exceeded',
      message: 'The service answered HTTP 429 (Too Many Requests)',
    });
    const unavailable = await influencers(sandbox.url, token, window);
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('Wed, 11 Mar 2026 10:00:00 GMT');
    const failed = await influencers(sandbox.url, token, window);
    expect(failed.status).toBe(500);
    expect(failed.headers.get('retry-after')).toBeNull();
    expect(await failed.json()).toEqual({
      error: 'internal_error',
      message: 'The service answered HTTP 500 (Internal Server Error)',
    });
    expect((await influencers(sandbox.url, token, window)).status).toBe(200);
    expect(sandbox.log.map((record) => record.status)).toEqual([200, 429, 503, 500, 200]);
  });

  it('answers a revoked-token fault with a Bearer challenge while the token stays valid', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'revoked-token' });
    const revoked = await influencers(sandbox.url, token, window);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('Bearer');
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(((await revoked.json()) as { error: string }).error).toBe('invalid_token');
    expect((await influencers(sandbox.url, token, window)).status).toBe(200);
  });

  it('answers malformed JSON with status 200 and a JSON content type', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'malformed-json' });
    const response = await influencers(sandbox.url, token, window);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('answers an HTML error page', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'html-error', status: 502 });
    const response = await influencers(sandbox.url, token, window);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toContain('<h1>502 Bad Gateway</h1>');
  });

  it('answers valid JSON without an influencers array for wrong-shape', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'wrong-shape' });
    const response = await influencers(sandbox.url, token, window);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Array.isArray(body.influencers)).toBe(false);
  });

  it('delays the headers for slow-headers, then answers normally', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'slow-headers', ms: 300 });
    const started = performance.now();
    const response = await influencers(sandbox.url, token, window);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { influencers: unknown[] }).influencers).toHaveLength(10);
  });

  it('sends the headers at once and stalls mid-body for slow-body', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'slow-body', ms: 800 });
    const started = performance.now();
    const response = await influencers(sandbox.url, token, window);
    const headersAfter = performance.now() - started;
    const body = (await response.json()) as { influencers: unknown[] };
    const bodyAfter = performance.now() - started;
    expect(headersAfter).toBeLessThan(500);
    expect(bodyAfter).toBeGreaterThanOrEqual(790);
    expect(body.influencers).toHaveLength(10);
  });

  it('destroys the socket without an answer for reset', async () => {
    const { sandbox, token } = await ready();
    sandbox.script({ kind: 'reset' });
    await expect(influencers(sandbox.url, token, window)).rejects.toThrow('fetch failed');
    expect(sandbox.log.at(-1)).toMatchObject({ endpoint: 'data', status: 0 });
    expect((await influencers(sandbox.url, token, window)).status).toBe(200);
  });

  it('applies faults aimed at the token endpoint there only', async () => {
    const { sandbox } = await ready();
    sandbox.script(
      { kind: 'status', status: 503, endpoint: 'token' },
      { kind: 'revoked-token', endpoint: 'token' },
      { kind: 'wrong-shape', endpoint: 'token' },
      { kind: 'malformed-json', endpoint: 'token' },
    );
    const post = () =>
      fetch(`${sandbox.url}${tokenPath}`, {
        method: 'POST',
        headers: { ...form, authorization: basic('demo-client', 'demo-secret') },
        body: 'grant_type=client_credentials',
      });
    expect((await post()).status).toBe(503);
    const rejected = await post();
    expect(rejected.status).toBe(401);
    expect(rejected.headers.get('www-authenticate')).toBe('Basic realm="analytics"');
    expect(await (await post()).json()).toEqual({ token_type: 'bearer', status: 'ok' });
    await expect((await post()).json()).rejects.toThrow(SyntaxError);
    const token = await requestToken(sandbox.url);
    expect((await influencers(sandbox.url, token, window)).status).toBe(200);
  });
});

describe('sandbox latency', () => {
  it('adds the configured latency to data requests only, and can change it', async () => {
    const sandbox = await startSandbox({ latencyMs: 1000 });
    try {
      let started = performance.now();
      const token = await requestToken(sandbox.url);
      expect(performance.now() - started).toBeLessThan(500);
      started = performance.now();
      expect((await influencers(sandbox.url, token, window)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
      sandbox.setLatency(0);
      started = performance.now();
      await influencers(sandbox.url, token, window);
      expect(performance.now() - started).toBeLessThan(500);
      expect(() => sandbox.setLatency(-1)).toThrow('Latency must be >= 0 ms, got -1');
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox close', () => {
  it('returns promptly with a kept-alive idle connection', async () => {
    const sandbox = await startSandbox();
    const agentResponse = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${sandbox.url}/v1/unknown`, {
        headers: { connection: 'keep-alive' },
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
      request.end();
    });
    expect(agentResponse).toBe(404);
    const started = performance.now();
    await sandbox.close();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('returns promptly while a slow answer is pending, failing that request', async () => {
    const sandbox = await startSandbox();
    const token = await requestToken(sandbox.url);
    sandbox.script({ kind: 'slow-headers', ms: 10_000 });
    const pending = influencers(sandbox.url, token, window);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await sandbox.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(pending).rejects.toThrow('fetch failed');
    await sandbox.close();
  });
});
