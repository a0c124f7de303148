import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import {
  AccessDeniedError,
  BadRequestError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServiceUnavailableError,
  TimeoutError,
  UnknownDatabaseError,
} from '../../src/errors.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import { FakeClock, type Harness, harnessPerTest, lastWeek, rejectionOf } from './helpers.ts';

const start = harnessPerTest();

function dataStatuses(h: Harness): number[] {
  return h.sandbox.log
    .filter((record) => record.endpoint === 'data')
    .map((record) => record.status);
}

describe('AnalyticsClient rate limiting', () => {
  it('waits out Retry-After in seconds when it fits in the deadline', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'status', status: 429, retryAfter: '2' });
    const result = await h.client.getInfluencers(lastWeek(h.clock));
    expect(result.influencers).toHaveLength(10);
    expect(h.sleeps).toEqual([2000]);
    expect(dataStatuses(h)).toEqual([429, 200]);
  });

  it('waits out Retry-After as an HTTP-date', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'status', status: 429, retryAfter: 'Wed, 18 Mar 2026 09:30:05 GMT' });
    await h.client.getInfluencers(lastWeek(h.clock));
    expect(h.sleeps).toEqual([5000]);
  });

  it.each([
    ['seconds', '30', 30_000, 'The analytics service is rate limiting requests (retry after 30 s)'],
    [
      'an HTTP-date',
      'Wed, 18 Mar 2026 09:40:00 GMT',
      600_000,
      'The analytics service is rate limiting requests (retry after 600 s)',
    ],
  ])(
    'throws RateLimitedError when Retry-After in %s does not fit in the deadline',
    async (_form, retryAfter, retryAfterMs, message) => {
      const h = await start();
      h.sandbox.script({ kind: 'status', status: 429, retryAfter });
      const error = await rejectionOf(
        h.client.getInfluencers(lastWeek(h.clock), { deadlineMs: 10_000 }),
      );
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ retryAfterMs });
      expect(error.message).toBe(message);
      expect(h.sleeps).toEqual([]);
      expect(dataStatuses(h)).toEqual([429]);
    },
  );

  it('stops waiting after maxRateLimitWaits answers of 429', async () => {
    const h = await start({ maxRateLimitWaits: 2 });
    const limited = { kind: 'status', status: 429, retryAfter: '1' } as const;
    h.sandbox.script(limited, limited, limited, limited);
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 1000 });
    expect(h.sleeps).toEqual([1000, 1000]);
    expect(dataStatuses(h)).toEqual([429, 429, 429]);
  });

  describe('with waits that use up the deadline', () => {
    const threeMinutes = { kind: 'status', status: 429, retryAfter: '180' } as const;

    /** A client whose waits move its monotonic clock, as real waits would. */
    async function patientStart(): Promise<Harness & { elapsedMs: () => number }> {
      const startedAt = 7_200_000;
      let monotonicMs = startedAt;
      const h = await start({
        monotonicNow: () => monotonicMs,
        sleep: async (ms) => {
          h.sleeps.push(ms);
          monotonicMs += ms;
        },
      });
      return Object.assign(h, { elapsedMs: () => monotonicMs - startedAt });
    }

    it('waits out nine minutes of Retry-After within the default deadline', async () => {
      const h = await patientStart();
      h.sandbox.script(threeMinutes, threeMinutes, threeMinutes);
      const result = await h.client.getInfluencers(lastWeek(h.clock));
      expect(result.influencers).toHaveLength(10);
      expect(h.sleeps).toEqual([180_000, 180_000, 180_000]);
      expect(h.elapsedMs()).toBe(540_000);
      expect(dataStatuses(h)).toEqual([429, 429, 429, 200]);
    });

    it('gives up when the next wait no longer fits in a shorter caller deadline', async () => {
      const h = await patientStart();
      h.sandbox.script(threeMinutes, threeMinutes, threeMinutes);
      const error = await rejectionOf(
        h.client.getInfluencers(lastWeek(h.clock), { deadlineMs: 300_000 }),
      );
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error.message).toBe(
        'The analytics service is rate limiting requests (retry after 180 s)',
      );
      expect(h.sleeps).toEqual([180_000]);
      expect(dataStatuses(h)).toEqual([429, 429]);
    });
  });

  it('backs off when a 429 gives no Retry-After', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'status', status: 429 });
    await h.client.getInfluencers(lastWeek(h.clock));
    expect(h.sleeps).toEqual([250]);
  });
});

describe('AnalyticsClient retries', () => {
  it('retries a 5xx and succeeds', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'status', status: 502 });
    expect((await h.client.getInfluencers(lastWeek(h.clock))).influencers).toHaveLength(10);
    expect(dataStatuses(h)).toEqual([502, 200]);
    expect(h.sleeps).toEqual([250]);
  });

  it('gives up with ServiceUnavailableError after maxAttempts, backing off exponentially', async () => {
    const h = await start({ maxAttempts: 4 });
    const down = { kind: 'status', status: 503 } as const;
    h.sandbox.script(down, down, down, down, down);
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, attempts: 4 });
    expect(error.message).toBe('The analytics service answered HTTP 503 after 4 attempt(s)');
    expect(h.sleeps).toEqual([250, 500, 1000]);
    expect(dataStatuses(h)).toEqual([503, 503, 503, 503]);
  });

  it('retries an HTML error page from a proxy like any 5xx', async () => {
    const h = await start({ maxAttempts: 2 });
    h.sandbox.script({ kind: 'html-error', status: 502 }, { kind: 'html-error', status: 502 });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error.cause as Error).message).toBe('502 Bad Gateway');
  });

  it('retries a 5xx of the token endpoint', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'status', status: 500, endpoint: 'token' });
    expect((await h.client.getInfluencers(lastWeek(h.clock))).influencers).toHaveLength(10);
    expect(h.tokenRequests()).toBe(2);
  });

  it('does not sleep past the deadline', async () => {
    const h = await start({
      sleep: (ms, signal) => delay(ms, undefined, { signal }),
      backoffBaseMs: 5_000,
      random: () => 0.99,
    });
    h.sandbox.script({ kind: 'status', status: 503 });
    const started = performance.now();
    const error = await rejectionOf(
      h.client.getInfluencers(lastWeek(h.clock), { deadlineMs: 2_000 }),
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, attempts: 1 });
  });

  it('retries a connection reset and succeeds', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'reset' });
    expect((await h.client.getInfluencers(lastWeek(h.clock))).influencers).toHaveLength(10);
    expect(dataStatuses(h)).toEqual([0, 200]);
  });

  it('gives up with NetworkError when every attempt is reset', async () => {
    const h = await start({ maxAttempts: 3 });
    h.sandbox.script({ kind: 'reset' }, { kind: 'reset' }, { kind: 'reset' });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(
      'Could not reach the analytics service (UND_ERR_SOCKET) after 3 attempt(s)',
    );
    expect(dataStatuses(h)).toEqual([0, 0, 0]);
  });

  it('gives up with NetworkError when the service refuses connections', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const sleeps: number[] = [];
    const client = new AnalyticsClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: demoClient.id,
      clientSecret: demoClient.secret,
      maxAttempts: 2,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const error = await rejectionOf(client.getInfluencers(lastWeek(new FakeClock())));
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(
      'Could not reach the analytics service (ECONNREFUSED) after 2 attempt(s)',
    );
    expect(sleeps).toHaveLength(1);
  });
});

describe('AnalyticsClient timeouts', () => {
  it('throws TimeoutError(deadline) when the answer takes longer than the deadline', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'slow-headers', ms: 5_000 });
    const started = performance.now();
    const error = await rejectionOf(
      h.client.getInfluencers(lastWeek(h.clock), { deadlineMs: 300 }),
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'deadline', afterMs: 300 });
    expect(error.message).toBe('The analytics request timed out (deadline, after 300 ms)');
    expect(h.dataRequests()).toBe(1);
  });

  it('uses the client deadline when the call sets none', async () => {
    const h = await start({ deadlineMs: 200 });
    h.sandbox.script({ kind: 'slow-headers', ms: 5_000 });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toMatchObject({ code: 'timeout', phase: 'deadline', afterMs: 200 });
  });

  it('retries a headers timeout and reports the phase when every attempt times out', async () => {
    const h = await start({ headersTimeoutMs: 150, maxAttempts: 2 });
    h.sandbox.script({ kind: 'slow-headers', ms: 2_000 }, { kind: 'slow-headers', ms: 2_000 });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'headers', afterMs: 150 });
    expect(h.dataRequests()).toBe(2);
  });

  it('reports a body timeout phase', async () => {
    const h = await start({ bodyTimeoutMs: 150, maxAttempts: 1 });
    h.sandbox.script({ kind: 'slow-body', ms: 2_000 });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'body', afterMs: 150 });
  });

  it('recovers when a slow attempt is followed by a quick one', async () => {
    const h = await start({ headersTimeoutMs: 150 });
    h.sandbox.script({ kind: 'slow-headers', ms: 2_000 });
    expect((await h.client.getInfluencers(lastWeek(h.clock))).influencers).toHaveLength(10);
    expect(h.dataRequests()).toBe(2);
  });

  it('treats an already aborted signal as a spent deadline without sending anything', async () => {
    const h = await start();
    const error = await rejectionOf(
      h.client.getInfluencers(lastWeek(h.clock), { signal: AbortSignal.abort() }),
    );
    expect(error).toMatchObject({ code: 'timeout', phase: 'deadline' });
    expect(h.sandbox.log).toEqual([]);
  });
});

describe('AnalyticsClient invalid answers', () => {
  it.each([
    ['malformed JSON', { kind: 'malformed-json' } as const, 'the body is not JSON'],
    [
      'a body of the wrong shape',
      { kind: 'wrong-shape' } as const,
      'the body has no "influencers" array',
    ],
  ])('rejects %s with InvalidResponseError without retrying', async (_name, fault, detail) => {
    const h = await start();
    h.sandbox.script(fault);
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe(
      `The analytics service sent an invalid response (HTTP 200): ${detail}`,
    );
    expect(h.dataRequests()).toBe(1);
  });

  it.each([
    [
      'malformed JSON',
      { kind: 'malformed-json', endpoint: 'token' } as const,
      'the token response is not JSON',
    ],
    [
      'a body of the wrong shape',
      { kind: 'wrong-shape', endpoint: 'token' } as const,
      'the token response has no usable access_token, expires_in',
    ],
  ])('rejects a token answer with %s', async (_name, fault, detail) => {
    const h = await start();
    h.sandbox.script(fault);
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe(
      `The analytics service sent an invalid response (HTTP 200): ${detail}`,
    );
    expect(h.dataRequests()).toBe(0);
  });

  it('reduces an HTML error page to its title in the error', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'html-error', status: 400 });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, serviceMessage: '400 Error' });
    expect(error.message).toBe('The analytics service rejected the request (HTTP 400): 400 Error');
  });
});

describe('AnalyticsClient refusals', () => {
  it('names the unknown database of a 404', async () => {
    const h = await start();
    const error = await rejectionOf(
      h.client.getInfluencers(lastWeek(h.clock, ['#hcsm', '#nosuchtag'])),
    );
    expect(error).toBeInstanceOf(UnknownDatabaseError);
    expect(error).toMatchObject({ database: '#nosuchtag' });
    expect(error.message).toBe('Unknown database: #nosuchtag');
    expect(h.dataRequests()).toBe(1);
  });

  it('names the inaccessible database of a 403', async () => {
    const h = await start({}, { clients: [{ ...demoClient, access: ['#hcsm'] }] });
    const error = await rejectionOf(
      h.client.getInfluencers(lastWeek(h.clock, ['#hcsm', 'group:Patient Advocates'])),
    );
    expect(error).toBeInstanceOf(AccessDeniedError);
    expect(error).toMatchObject({ database: 'group:Patient Advocates' });
    expect(error.message).toBe('Access denied to database: group:Patient Advocates');
    expect(h.dataRequests()).toBe(1);
  });

  it('passes on the service message of a 400', async () => {
    const h = await start();
    const error = await rejectionOf(
      h.client.getInfluencers({ ...lastWeek(h.clock), timezone: 'Mars/Olympus' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      serviceMessage:
        'Invalid timezone "Mars/Olympus": expected an <Area>/<City> IANA zone name or UTC',
    });
    expect(h.dataRequests()).toBe(1);
  });

  it.each([
    [422, BadRequestError],
    [403, AccessDeniedError],
    [404, UnknownDatabaseError],
  ])('does not retry a %i', async (status, type) => {
    const h = await start();
    h.sandbox.script({ kind: 'status', status });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));
    expect(error).toBeInstanceOf(type);
    expect(h.dataRequests()).toBe(1);
    expect(h.sleeps).toEqual([]);
  });
});
