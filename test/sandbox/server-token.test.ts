import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  influencersPath,
  type Sandbox,
  startSandbox,
  tokenPath,
} from '../../src/sandbox/server.ts';
import { basic, form, influencers, requestToken } from './support.ts';

const window = { databases: '#hcsm', start: '2026-03-01', end: '2026-03-08' };

describe('sandbox token endpoint', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox?.url}${tokenPath}`, {
      method: 'POST',
      headers: { ...form, ...headers },
      body,
    });

  it('issues an opaque bearer token with extra fields when credentials come by HTTP Basic', async () => {
    sandbox = await startSandbox();
    const response = await post('grant_type=client_credentials', {
      authorization: basic('demo-client', 'demo-secret'),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'analytics:read' });
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(sandbox.log.at(-1)).toMatchObject({
      endpoint: 'token',
      authScheme: 'basic',
      status: 200,
    });
  });

  it('issues a token when credentials come as client_id and client_secret in the form body', async () => {
    sandbox = await startSandbox({ tokenTtlSeconds: 600 });
    const response = await post(
      'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { expires_in: number }).expires_in).toBe(600);
    expect(sandbox.log.at(-1)).toMatchObject({ authScheme: 'body', status: 200 });
  });

  it.each([
    [
      'a wrong secret',
      { authorization: basic('demo-client', 'wrong') },
      'grant_type=client_credentials',
    ],
    [
      'an unknown client',
      { authorization: basic('someone', 'demo-secret') },
      'grant_type=client_credentials',
    ],
    ['no credentials at all', {}, 'grant_type=client_credentials'],
    [
      'a wrong secret in the body',
      {},
      'grant_type=client_credentials&client_id=demo-client&client_secret=nope',
    ],
    [
      'a Basic value without a colon',
      { authorization: `Basic ${Buffer.from('demo-client').toString('base64')}` },
      'grant_type=client_credentials',
    ],
  ])('answers 401 invalid_client with a Basic challenge for %s', async (_case, headers, body) => {
    sandbox = await startSandbox();
    const response = await post(body, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="analytics"');
    expect(await response.json()).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication failed',
    });
  });

  it.each([
    ['', 400, 'invalid_request', 'Missing grant_type'],
    ['grant_type=', 400, 'invalid_request', 'Missing grant_type'],
    [
      'grant_type=password',
      400,
      'unsupported_grant_type',
      'Only grant_type=client_credentials is supported',
    ],
    [
      'grant_type=authorization_code',
      400,
      'unsupported_grant_type',
      'Only grant_type=client_credentials is supported',
    ],
  ])('answers %j with %i %s', async (body, status, error, description) => {
    sandbox = await startSandbox();
    const response = await post(body, { authorization: basic('demo-client', 'demo-secret') });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error, error_description: description });
  });

  it('refuses a body that is not form-encoded and two authentication methods at once', async () => {
    sandbox = await startSandbox();
    const asJson = await fetch(`${sandbox.url}${tokenPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: basic('demo-client', 'demo-secret'),
      },
      body: '{"grant_type":"client_credentials"}',
    });
    expect(asJson.status).toBe(400);
    expect(await asJson.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The body must be application/x-www-form-urlencoded',
    });
    const both = await post(
      'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
      {
        authorization: basic('demo-client', 'demo-secret'),
      },
    );
    expect(both.status).toBe(400);
    expect(await both.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Use exactly one client authentication method',
    });
  });

  it('answers 405 with Allow: POST to a GET', async () => {
    sandbox = await startSandbox();
    const response = await fetch(`${sandbox.url}${tokenPath}`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('expires tokens after the ttl by the injected clock', async () => {
    let clock = new Date('2026-03-10T12:00:00Z');
    sandbox = await startSandbox({ now: () => clock, tokenTtlSeconds: 3600 });
    const token = await requestToken(sandbox.url);
    clock = new Date('2026-03-10T12:59:59Z');
    expect((await influencers(sandbox.url, token, window)).status).toBe(200);
    clock = new Date('2026-03-10T13:00:00Z');
    const expired = await influencers(sandbox.url, token, window);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      'Bearer realm="analytics", error="invalid_token", error_description="The access token expired"',
    );
    expect(await expired.json()).toEqual({
      error: 'invalid_token',
      message: 'The access token expired',
    });
    const fresh = await requestToken(sandbox.url);
    expect((await influencers(sandbox.url, fresh, window)).status).toBe(200);
  });

  it('refuses revoked, unknown and missing tokens with invalid_token', async () => {
    sandbox = await startSandbox();
    const token = await requestToken(sandbox.url);
    expect((await influencers(sandbox.url, token, window)).status).toBe(200);
    sandbox.revokeAllTokens();
    const revoked = await influencers(sandbox.url, token, window);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await revoked.json()).toEqual({
      error: 'invalid_token',
      message: 'The access token is invalid or has been revoked',
    });
    expect((await influencers(sandbox.url, 'made-up', window)).status).toBe(401);
    const missing = await fetch(
      `${sandbox.url}${influencersPath}?databases=%23hcsm&start=now&end=now`,
    );
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: 'invalid_token',
      message: 'Missing bearer access token',
    });
    expect(sandbox.log.at(-1)?.authScheme).toBe('none');
    expect((await influencers(sandbox.url, await requestToken(sandbox.url), window)).status).toBe(
      200,
    );
  });

  it('checks the token before the parameters', async () => {
    sandbox = await startSandbox();
    const response = await influencers(sandbox.url, 'made-up', 'start=nonsense');
    expect(response.status).toBe(401);
  });

  it('accepts only the configured clients', async () => {
    sandbox = await startSandbox({ clients: [{ id: 'acme', secret: 's3cr:et' }] });
    expect(await requestToken(sandbox.url, 'acme', 's3cr:et')).toMatch(/\w+/);
    await expect(requestToken(sandbox.url)).rejects.toThrow('token request answered 401');
  });

  it('refuses a client configuration naming databases that do not exist', async () => {
    await expect(
      startSandbox({
        clients: [{ id: 'a', secret: 'b', access: ['#hcsm', '#nope', 'group:Nope'] }],
      }),
    ).rejects.toThrow(
      'Invalid configuration:\n  - clients[0].access: #nope is not in the catalogue\n  - clients[0].access: group:Nope is not in the catalogue',
    );
  });

  it('expects the configured scheme before the token on data requests', async () => {
    sandbox = await startSandbox({ tokenScheme: 'Token' });
    const token = await requestToken(sandbox.url);
    const search = 'databases=%23hcsm&start=2026-03-01&end=2026-03-08';
    const send = (authorization: string) =>
      fetch(`${sandbox?.url}${influencersPath}?${search}`, { headers: { authorization } });
    expect((await send(`Token ${token}`)).status).toBe(200);
    expect((await send(`token ${token}`)).status).toBe(200);
    const bearer = await send(`Bearer ${token}`);
    expect(bearer.status).toBe(401);
    expect(bearer.headers.get('www-authenticate')).toMatch(/^Token realm="analytics"/);
    expect(await bearer.json()).toEqual({
      error: 'invalid_token',
      message: 'Missing token access token',
    });
    expect(sandbox.log.map((record) => record.authSchemeSent)).toEqual([
      'Basic',
      'Token',
      'token',
      'Bearer',
    ]);
  });

  it('refuses a token scheme that is not one word', async () => {
    await expect(startSandbox({ tokenScheme: 'Bearer x' })).rejects.toThrow(
      'Token scheme must be one word such as Bearer, got "Bearer x"',
    );
  });
});

describe('sandbox connections', () => {
  it('counts the TCP connections it accepts', async () => {
    const sandbox = await startSandbox();
    try {
      expect(sandbox.connections).toBe(0);
      const open = async () => {
        const socket = connect(Number(new URL(sandbox.url).port), '127.0.0.1');
        await once(socket, 'connect');
        return socket;
      };
      const sockets = [await open(), await open()];
      await vi.waitFor(() => expect(sandbox.connections).toBe(2));
      for (const socket of sockets) socket.destroy();
    } finally {
      await sandbox.close();
    }
  });
});
