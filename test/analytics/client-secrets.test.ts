import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { type Fault, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { FakeClock, lastWeek, memoryLogger } from './helpers.ts';

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
