import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { TimeoutError } from '../../src/errors.ts';
import { FakeClock, lastWeek, memoryLogger, rejectionOf } from './helpers.ts';

let server: Server | undefined;
let client: AnalyticsClient | undefined;

afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  client = undefined;
});

/** A server answering every data request with `dataBody`, for bodies the sandbox never sends. */
async function cannedService(dataBody: unknown): Promise<string> {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/v1/oauth/token') {
      res.end(JSON.stringify({ access_token: 'canned-token', expires_in: 3600 }));
    } else {
      res.end(JSON.stringify(dataBody));
    }
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('AnalyticsClient with canned answers', () => {
  it('drops a malformed item, keeps the others and logs a warning', async () => {
    const baseUrl = await cannedService({
      influencers: [
        { symplurrank: 1, mentions: 9, user: { screen_name: 'first', followers: 12 }, extra: true },
        { symplurrank: 2, mentions: 7, user: { display_name: 'No handle' } },
        { symplurrank: 3, mentions: '5', tweets: null, user: { screen_name: 'third' } },
      ],
      meta: { generated_at: '2026-03-18T09:30:00Z' },
    });
    const { logger, output } = memoryLogger();
    client = new AnalyticsClient({ baseUrl, clientId: 'id', clientSecret: 'secret', logger });
    const result = await client.getInfluencers(lastWeek(new FakeClock()));
    expect(result).toEqual({
      influencers: [
        { rank: 1, screenName: 'first', stakeholderCategories: [], metrics: { mentions: 9 } },
        { rank: 3, screenName: 'third', stakeholderCategories: [], metrics: { mentions: 5 } },
      ],
    });
    const warning = output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string; dropped?: unknown })
      .find((record) => record.level === 40);
    expect(warning).toMatchObject({
      msg: 'analytics response had malformed influencer items; dropped them',
      dropped: [
        {
          index: 1,
          problems: ['user.screen_name: Invalid input: expected string, received undefined'],
        },
      ],
    });
  });
});

describe('AnalyticsClient with an injected dispatcher', () => {
  it('reports the connect phase of a connection that never opens', async () => {
    let requests = 0;
    const failing = {
      dispatch: (_options: unknown, handler: Dispatcher.DispatchHandler) => {
        requests += 1;
        const error = Object.assign(
          new Error('Connect Timeout Error (attempted address: 10.0.0.1:443)'),
          { code: 'UND_ERR_CONNECT_TIMEOUT' },
        );
        queueMicrotask(() => handler.onResponseError?.(null as never, error));
        return true;
      },
    } as unknown as Dispatcher;
    client = new AnalyticsClient({
      baseUrl: 'https://analytics.invalid',
      clientId: 'id',
      clientSecret: 'secret',
      dispatcher: failing,
      connectTimeoutMs: 2_500,
      maxAttempts: 3,
      sleep: async () => {},
    });
    const error = await rejectionOf(client.getInfluencers(lastWeek(new FakeClock())));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'connect', afterMs: 2_500 });
    expect(error.message).toBe('The analytics request timed out (connect, after 2500 ms)');
    expect((error.cause as { code?: string }).code).toBe('UND_ERR_CONNECT_TIMEOUT');
    expect(requests).toBe(3);
  });
});
