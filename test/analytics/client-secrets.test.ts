import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { type Fault, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { FakeClock, lastWeek, memoryLogger, rejectionOf } from './helpers.ts';

const clientId = 'slack-bot-client';
const clientSecret = 'Sup3r-S3cret-Value_9f2c';
const basicValue = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');

/** Every string an error exposes: messages, stacks and own properties, down the cause chain. */
function errorText(error: unknown, depth = 0): string {
  if (depth > 8 || error === undefined || error === null) return '';
  if (!(error instanceof Error)) return String(error);
  const own = Object.entries(error)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : safeJson(value)}`)
    .join(' ');
  return `${error.message}\n${error.stack ?? ''}\n${own}\n${errorText(error.cause, depth + 1)}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

let sandbox: Sandbox | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await sandbox?.close();
  await agent?.close();
  sandbox = undefined;
  agent = undefined;
});

describe('AnalyticsClient secrets', () => {
  it('keeps the client secret, the Basic value and every token out of logs and errors', async () => {
    const clock = new FakeClock();
    sandbox = await startSandbox({
      now: clock.date,
      clients: [{ id: clientId, secret: clientSecret, access: ['#hcsm', '#bcsm'] }],
    });
    const { logger, output } = memoryLogger();
    const tokens = new Set<string>();
    agent = new Agent({ headersTimeout: 150, bodyTimeout: 150 });
    const dispatcher: Dispatcher = agent.compose((dispatch) => (options, handler) => {
      const headers = options.headers as Record<string, string> | undefined;
      const authorization = headers?.authorization ?? '';
      if (authorization.startsWith('Bearer ')) tokens.add(authorization.slice('Bearer '.length));
      return dispatch(options, handler);
    });
    const client = new AnalyticsClient({
      baseUrl: sandbox.url,
      clientId,
      clientSecret,
      logger,
      dispatcher,
      headersTimeoutMs: 150,
      bodyTimeoutMs: 150,
      maxAttempts: 2,
      responseCacheTtlMs: 0,
      now: clock.now,
      sleep: async () => {},
    });
    const query = lastWeek(clock);
    const errors: unknown[] = [];
    const attempt = async (
      faults: Fault[],
      overrides: Partial<typeof query> = {},
      deadlineMs?: number,
    ) => {
      sandbox?.script(...faults);
      try {
        await client.getInfluencers({ ...query, ...overrides }, deadlineMs ? { deadlineMs } : {});
      } catch (error) {
        errors.push(error);
      }
    };

    await attempt([]);
    await attempt([{ kind: 'revoked-token' }]);
    await attempt([{ kind: 'revoked-token' }, { kind: 'revoked-token' }]);
    await attempt([{ kind: 'status', status: 429, retryAfter: '3600' }]);
    await attempt([
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    ]);
    await attempt([
      { kind: 'html-error', status: 502 },
      { kind: 'html-error', status: 500 },
    ]);
    await attempt([{ kind: 'reset' }, { kind: 'reset' }]);
    await attempt([
      { kind: 'slow-headers', ms: 1500 },
      { kind: 'slow-headers', ms: 1500 },
    ]);
    await attempt([
      { kind: 'slow-body', ms: 1500 },
      { kind: 'slow-body', ms: 1500 },
    ]);
    await attempt([{ kind: 'slow-headers', ms: 1500 }], {}, 100);
    await attempt([{ kind: 'malformed-json' }]);
    await attempt([{ kind: 'wrong-shape' }]);
    await attempt([{ kind: 'html-error', status: 400 }]);
    await attempt([], { databases: ['#nosuchtag'] });
    await attempt([], { databases: ['group:Oncology'] });
    await attempt([], { timezone: 'Mars/Olympus' });
    sandbox.revokeAllTokens();
    await attempt([{ kind: 'malformed-json', endpoint: 'token' }]);
    await attempt([{ kind: 'wrong-shape', endpoint: 'token' }]);
    await attempt([
      { kind: 'status', status: 500, endpoint: 'token' },
      { kind: 'status', status: 500, endpoint: 'token' },
    ]);
    await attempt([
      { kind: 'reset', endpoint: 'token' },
      { kind: 'reset', endpoint: 'token' },
    ]);
    await attempt([{ kind: 'revoked-token', endpoint: 'token' }]);
    await client.close();

    const codes = errors.map((error) => (error as { code?: string }).code);
    expect(codes).toEqual([
      'unauthorized',
      'rate_limited',
      'service_unavailable',
      'service_unavailable',
      'network',
      'timeout',
      'timeout',
      'timeout',
      'invalid_response',
      'invalid_response',
      'bad_request',
      'unknown_database',
      'access_denied',
      'bad_request',
      'invalid_response',
      'invalid_response',
      'service_unavailable',
      'network',
      'credentials_rejected',
    ]);
    expect(tokens.size).toBeGreaterThanOrEqual(3);

    const logs = output();
    const records = logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      records.some(
        (record) => record.level === 20 && record.status === 200 && record.attempt === 1,
      ),
    ).toBe(true);
    expect(records.every((record) => !('headers' in record))).toBe(true);
    const exposed = `${logs}\n${errors.map((error) => errorText(error)).join('\n')}`;
    const secrets = [clientSecret, basicValue, ...tokens];
    const leaked = secrets.flatMap((secret, index) => (exposed.includes(secret) ? [index] : []));
    expect(leaked, 'indexes of leaked secrets (0 secret, 1 Basic value, then tokens)').toEqual([]);
  });
});

const echoClientId = 'hcsm bot/client';
const echoSecret = 'S3cr3t+Val/ue=Zq9';
const echoToken = 'tok_ABC+def/GHI=jkl.0123456789';
const echoBasic = Buffer.from(`${echoClientId}:${echoSecret}`).toString('base64');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const formEncoded = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);

/** Each form in which a careless service could send a credential back. */
const echoedForms: Readonly<Record<string, string>> = {
  'raw secret': echoSecret,
  'percent-encoded secret': encodeURIComponent(echoSecret),
  'form-decoded secret': echoSecret.replaceAll('+', ' '),
  'base64 secret': base64(echoSecret),
  'raw client id': echoClientId,
  'percent-encoded client id': encodeURIComponent(echoClientId),
  'form-encoded client id': formEncoded(echoClientId),
  'decoded Basic value': `${echoClientId}:${echoSecret}`,
  'Basic value': echoBasic,
  'raw token': echoToken,
  'percent-encoded token': encodeURIComponent(echoToken),
};

/** Every form at once, as a service quoting the whole request would. */
function everyForm(authorization: string): string {
  return [
    `client_id=${formEncoded(echoClientId)}&client_secret=${formEncoded(echoSecret)}`,
    `authorization: ${authorization}`,
    ...Object.entries(echoedForms).map(([name, form]) => `${name} ${form}`),
  ].join(' ; ');
}

type EchoStyle = {
  readonly name: string;
  readonly contentType: string;
  body(auth: string): string;
};

/** Every way an echo is wrapped: JSON fields, HTML, plain text, and long texts that get cut. */
const echoStyles: readonly EchoStyle[] = [
  {
    name: 'JSON message',
    contentType: 'application/json',
    body: (auth) => JSON.stringify({ error: 'invalid_request', message: everyForm(auth) }),
  },
  {
    name: 'JSON error_description',
    contentType: 'application/json',
    body: (auth) => JSON.stringify({ error: 'invalid_client', error_description: everyForm(auth) }),
  },
  {
    name: 'HTML page',
    contentType: 'text/html',
    body: (auth) =>
      `<html><head><title>Error ${everyForm(auth)}</title></head><body><p>${everyForm(auth)}</p></body></html>`,
  },
  { name: 'plain text', contentType: 'text/plain', body: everyForm },
  {
    name: 'JSON message after 250 characters',
    contentType: 'application/json',
    body: (auth) => JSON.stringify({ message: `${'x'.repeat(250)} ${everyForm(auth)}` }),
  },
  ...Object.entries(echoedForms).map(([name, form]) => ({
    name: `JSON message cut 11 characters into the ${name}`,
    contentType: 'application/json',
    body: () => JSON.stringify({ message: `${'x'.repeat(187)} ${form} and more words` }),
  })),
];

type EchoFailure = number | 'malformed' | 'reset';

interface EchoState {
  style: EchoStyle;
  /** Whether the token endpoint already issued the token it later echoes. */
  issued: boolean;
}

/**
 * A service that fails `endpoint` with `failure`, echoing credentials as `state.style` says. A
 * failing token endpoint first issues a token and has it refused, so the failure happens on the
 * renewal and the echo can include a token the client really holds.
 */
async function echoingService(
  endpoint: 'token' | 'data',
  failure: EchoFailure,
  state: EchoState,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const isToken = req.url === '/v1/oauth/token';
      res.setHeader('content-type', 'application/json');
      if (isToken && (endpoint === 'data' || !state.issued)) {
        state.issued = true;
        res.end(JSON.stringify({ access_token: echoToken, expires_in: 3600 }));
        return;
      }
      if (!isToken && endpoint === 'token') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: 'invalid_token' }));
        return;
      }
      const { contentType, body } = state.style;
      const text = body(req.headers.authorization ?? '');
      if (failure === 'reset') {
        res.writeHead(200, { 'content-type': contentType, 'content-length': text.length * 4 });
        res.write(text);
        setTimeout(() => res.socket?.destroy(), 5);
        return;
      }
      if (failure === 'malformed') {
        res.writeHead(200);
        res.end(`{"access_token": "${echoToken}", "influencers": [ ${text}`);
        return;
      }
      res.writeHead(failure, {
        'content-type': contentType,
        ...(failure === 429 ? { 'retry-after': '0' } : {}),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('AnalyticsClient secrets echoed by the service', () => {
  it.each<[string, 'token' | 'data', EchoFailure, string]>([
    ['token 400', 'token', 400, 'credentials_rejected'],
    ['token 401', 'token', 401, 'credentials_rejected'],
    ['token 403', 'token', 403, 'invalid_response'],
    ['token 500', 'token', 500, 'service_unavailable'],
    ['token malformed JSON', 'token', 'malformed', 'invalid_response'],
    ['token reset after part of the body', 'token', 'reset', 'network'],
    ['data 400', 'data', 400, 'bad_request'],
    ['data 401', 'data', 401, 'unauthorized'],
    ['data 403', 'data', 403, 'access_denied'],
    ['data 404', 'data', 404, 'unknown_database'],
    ['data 422', 'data', 422, 'bad_request'],
    ['data 429', 'data', 429, 'rate_limited'],
    ['data 500', 'data', 500, 'service_unavailable'],
    ['data malformed JSON', 'data', 'malformed', 'invalid_response'],
    ['data reset after part of the body', 'data', 'reset', 'network'],
  ])(
    'keeps every form of every credential out of errors and trace logs on a %s',
    async (_name, endpoint, failure, code) => {
      const state: EchoState = { style: echoStyles[0] as EchoStyle, issued: false };
      const service = await echoingService(endpoint, failure, state);
      const { logger, output } = memoryLogger();
      const exposed: string[] = [];
      try {
        for (const current of echoStyles) {
          state.style = current;
          state.issued = false;
          const client = new AnalyticsClient({
            baseUrl: service.url,
            clientId: echoClientId,
            clientSecret: echoSecret,
            logger,
            maxAttempts: 2,
            responseCacheTtlMs: 0,
            sleep: async () => {},
          });
          const error = await rejectionOf(client.getInfluencers(lastWeek(new FakeClock())));
          await client.close();
          expect({ style: current.name, code: (error as { code?: string }).code }).toEqual({
            style: current.name,
            code,
          });
          exposed.push(errorText(error));
        }
      } finally {
        await service.close();
      }
      exposed.push(output());
      const text = exposed.join('\n');
      const leaked = Object.entries(echoedForms).flatMap(([name, form]) =>
        text.includes(form.slice(0, 8)) ? [name] : [],
      );
      expect(leaked, 'forms whose first 8 characters were exposed').toEqual([]);
      expect(text).not.toMatch(/(Bearer|Basic)\s+(?!\[redacted\])[A-Za-z0-9+/]/);
    },
  );

  it('still says what the service said around the credentials it removed', async () => {
    const state: EchoState = { style: echoStyles[0] as EchoStyle, issued: false };
    const service = await echoingService('data', 400, state);
    const client = new AnalyticsClient({
      baseUrl: service.url,
      clientId: echoClientId,
      clientSecret: echoSecret,
    });
    try {
      const error = await rejectionOf(client.getInfluencers(lastWeek(new FakeClock())));
      expect(error.message).toBe(
        'The analytics service rejected the request (HTTP 400): client_id=[redacted]&client_secret=[redacted] ; authorization: Bearer [redacted] ; raw secret [redacted] ; percent-encoded secret [redacted] ; form-decoded secret [redacted] ; base64 secret [redacted…',
      );
    } finally {
      await client.close();
      await service.close();
    }
  });
});
