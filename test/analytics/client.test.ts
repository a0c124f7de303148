import { describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { metricNames } from '../../src/analytics/types.ts';
import {
  CredentialsRejectedError,
  InvalidResponseError,
  UnauthorizedError,
} from '../../src/errors.ts';
import { FakeClock, harnessPerTest, lastWeek, rejectionOf } from './helpers.ts';

const start = harnessPerTest();

describe('AnalyticsClient against the sandbox', () => {
  it('returns the top influencers of #hcsm for the last 7 days', async () => {
    const { client, clock, sandbox } = await start();
    const result = await client.getInfluencers(lastWeek(clock));

    expect(result.influencers).toHaveLength(10);
    expect(result.influencers.map((influencer) => influencer.rank)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    for (const influencer of result.influencers) {
      expect(influencer.screenName).toMatch(/^\w+$/);
      expect(influencer.metrics.mentions).toBeGreaterThan(0);
      expect(
        Object.keys(influencer.metrics).every((name) =>
          (metricNames as readonly string[]).includes(name),
        ),
      ).toBe(true);
    }
    expect(
      sandbox.log.map((record) => [
        record.method,
        record.endpoint,
        record.authScheme,
        record.status,
      ]),
    ).toEqual([
      ['POST', 'token', 'basic', 200],
      ['GET', 'data', 'bearer', 200],
    ]);
  });

  it('sends limit and the metric list, and gets the ranking sorted by its first metric', async () => {
    const { client, clock, sandbox } = await start();
    const { influencers } = await client.getInfluencers({
      ...lastWeek(clock),
      limit: 40,
      metric: ['impressions', 'mentions', 'hsg_score', 'retweets', 'tweets', 'replies'],
    });

    expect(influencers).toHaveLength(40);
    const impressions = influencers.map((influencer) => influencer.metrics.impressions ?? 0);
    expect(impressions).toEqual([...impressions].sort((a, b) => b - a));
    const data = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(data.map((record) => [record.query.limit, record.query.metric])).toEqual([
      ['40', 'impressions,mentions,hsg_score,retweets,tweets,replies'],
    ]);
  });

  it('reads the follower count the service sends for each influencer', async () => {
    const { client, clock } = await start();
    const { influencers } = await client.getInfluencers(lastWeek(clock));
    for (const influencer of influencers) {
      expect(Number.isInteger(influencer.followersCount)).toBe(true);
      expect(influencer.followersCount).toBeGreaterThan(0);
    }
  });

  it('answers a database with no activity with an empty list', async () => {
    const { client, clock } = await start();
    expect(await client.getInfluencers(lastWeek(clock, ['#quiet']))).toEqual({ influencers: [] });
  });

  it('returns results callers cannot alter', async () => {
    const { client, clock } = await start();
    const result = await client.getInfluencers(lastWeek(clock));
    expect(Object.isFrozen(result.influencers)).toBe(true);
    expect(Object.isFrozen(result.influencers[0])).toBe(true);
  });
});

describe('AnalyticsClient tokens', () => {
  it('exchanges one token for many sequential calls', async () => {
    const { client, clock, tokenRequests, dataRequests } = await start({ responseCacheTtlMs: 0 });
    for (let index = 0; index < 5; index += 1) await client.getInfluencers(lastWeek(clock));
    expect(tokenRequests()).toBe(1);
    expect(dataRequests()).toBe(5);
    expect(client.stats).toEqual({
      tokenRequests: 1,
      httpRequests: 5,
      cacheHits: 0,
      sharedInFlight: 0,
    });
  });

  it('exchanges again once expires_in minus the skew has passed, before the service refuses it', async () => {
    const { client, clock, sandbox, tokenRequests } = await start({
      responseCacheTtlMs: 0,
      tokenExpirySkewMs: 60_000,
    });
    const query = lastWeek(clock);
    await client.getInfluencers(query);
    clock.advance(3_540_000);
    await client.getInfluencers(query);
    expect(tokenRequests()).toBe(1);
    clock.advance(1);
    await client.getInfluencers(query);
    expect(tokenRequests()).toBe(2);
    expect(sandbox.log.filter((record) => record.status === 401)).toEqual([]);
  });

  it('sends exactly one token request for 1,000 concurrent calls on a cold cache', async () => {
    const { client, clock, tokenRequests, dataRequests } = await start({ responseCacheTtlMs: 0 });
    const base = lastWeek(clock);
    const startMs = Date.parse(base.start);
    const calls = Array.from({ length: 1000 }, (_, index) =>
      client.getInfluencers({
        ...base,
        start: new Date(startMs + index * 1000).toISOString().replace('.000Z', 'Z'),
      }),
    );
    const results = await Promise.all(calls);
    expect(results.every((result) => result.influencers.length === 10)).toBe(true);
    expect(tokenRequests()).toBe(1);
    expect(dataRequests()).toBe(1000);
    expect(client.stats.tokenRequests).toBe(1);
  });

  it('renews a revoked token and retries the call once', async () => {
    const { client, clock, sandbox, tokenRequests, dataRequests } = await start({
      responseCacheTtlMs: 0,
    });
    await client.getInfluencers(lastWeek(clock));
    sandbox.revokeAllTokens();
    const result = await client.getInfluencers(lastWeek(clock));
    expect(result.influencers).toHaveLength(10);
    expect(tokenRequests()).toBe(2);
    expect(dataRequests()).toBe(3);
    expect(sandbox.log.map((record) => record.status)).toEqual([200, 200, 401, 200, 200]);
  });

  it('renews a token the service considers expired although the client clock does not', async () => {
    const serviceClock = new FakeClock();
    const { client, clock, sandbox } = await start(
      { responseCacheTtlMs: 0 },
      { now: serviceClock.date },
    );
    await client.getInfluencers(lastWeek(clock));
    serviceClock.advance(3_600_000);
    const result = await client.getInfluencers(lastWeek(clock));
    expect(result.influencers).toHaveLength(10);
    expect(sandbox.log.map((record) => [record.endpoint, record.status])).toEqual([
      ['token', 200],
      ['data', 200],
      ['data', 401],
      ['token', 200],
      ['data', 200],
    ]);
  });

  it('exchanges again after half of a short lifetime, before the service refuses the token', async () => {
    const { client, clock, sandbox } = await start(
      { responseCacheTtlMs: 0 },
      { tokenTtlSeconds: 60 },
    );
    await client.getInfluencers(lastWeek(clock));
    clock.advance(30_001);
    await client.getInfluencers(lastWeek(clock));
    expect(sandbox.log.map((record) => [record.endpoint, record.status])).toEqual([
      ['token', 200],
      ['data', 200],
      ['token', 200],
      ['data', 200],
    ]);
  });

  it('gives up with UnauthorizedError after a second 401, having sent exactly 2 data requests', async () => {
    const { client, clock, sandbox, dataRequests, tokenRequests } = await start();
    sandbox.script({ kind: 'revoked-token' }, { kind: 'revoked-token' }, { kind: 'revoked-token' });
    const error = await rejectionOf(client.getInfluencers(lastWeek(clock)));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toBe(
      'The analytics service refused a freshly issued access token (HTTP 401 twice)',
    );
    expect(dataRequests()).toBe(2);
    expect(tokenRequests()).toBe(2);
  });

  it('reports rejected credentials without retrying them', async () => {
    const { client, clock, tokenRequests, dataRequests } = await start({
      clientSecret: 'wrong-secret',
    });
    const error = await rejectionOf(client.getInfluencers(lastWeek(clock)));
    expect(error).toBeInstanceOf(CredentialsRejectedError);
    expect(error).toMatchObject({ status: 401 });
    expect(error.message).toBe(
      'The analytics token endpoint rejected the client credentials (HTTP 401)',
    );
    expect(tokenRequests()).toBe(1);
    expect(dataRequests()).toBe(0);
  });

  it('retries a failed token exchange once for all callers waiting on it', async () => {
    const { client, clock, sandbox, tokenRequests } = await start({ responseCacheTtlMs: 0 });
    sandbox.script({ kind: 'status', status: 503, endpoint: 'token' });
    const query = lastWeek(clock);
    const results = await Promise.all(
      ['#hcsm', '#bcsm', '#lcsm', '#mcsm', '#meded'].map((database) =>
        client.getInfluencers({ ...query, databases: [database] }),
      ),
    );
    expect(results.every((result) => result.influencers.length > 0)).toBe(true);
    expect(tokenRequests()).toBe(2);
  });
});

describe('AnalyticsClient requests on the wire', () => {
  it('percent-encodes hashtags, spaces and groups the way the service expects', async () => {
    const { client, sandbox } = await start();
    await client.getInfluencers({
      databases: ['#hcsm', 'breast cancer', 'group:Patient Advocates'],
      start: '2026-03-11T00:00:00+01:00',
      end: '2026-03-18T00:00:00+01:00',
      timezone: 'Europe/Paris',
    });
    const data = sandbox.log.find((record) => record.endpoint === 'data');
    expect(data?.rawQuery).toBe(
      'databases=%23hcsm,breast%20cancer,group:Patient%20Advocates&start=2026-03-11T00:00:00%2B01:00&end=2026-03-18T00:00:00%2B01:00&timezone=Europe/Paris',
    );
    expect(data?.query.databases).toBe('#hcsm,breast cancer,group:Patient Advocates');
    expect(data?.status).toBe(200);
  });

  it.each([
    ['#santé', '%23sant%C3%A9'],
    ['a&b=c%d+e', 'a%26b%3Dc%25d%2Be'],
  ])('sends %j as %j so the service reads it back unchanged', async (database, encoded) => {
    const { client, clock, sandbox } = await start();
    const error = await rejectionOf(client.getInfluencers(lastWeek(clock, [database])));
    expect(error).toMatchObject({ code: 'unknown_database', database });
    const data = sandbox.log.find((record) => record.endpoint === 'data');
    expect(data?.rawQuery.startsWith(`databases=${encoded}&`)).toBe(true);
    expect(data?.query.databases).toBe(database);
  });

  it('sends limit and metric only when asked for', async () => {
    const { client, clock, sandbox } = await start();
    await client.getInfluencers(lastWeek(clock));
    const result = await client.getInfluencers({
      ...lastWeek(clock),
      limit: 3,
      metric: ['retweets', 'mentions'],
    });
    const [plain, tuned] = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(Object.keys(plain?.query ?? {})).toEqual(['databases', 'start', 'end']);
    expect(tuned?.query).toMatchObject({ limit: '3', metric: 'retweets,mentions' });
    expect(tuned?.rawQuery.endsWith('&limit=3&metric=retweets,mentions')).toBe(true);
    expect(result.influencers).toHaveLength(3);
    const retweets = result.influencers.map((influencer) => influencer.metrics.retweets ?? 0);
    expect(retweets).toEqual([...retweets].sort((a, b) => b - a));
  });

  it('sends the configured auth scheme before the token', async () => {
    const { client, clock, sandbox } = await start(
      { authScheme: 'Token', responseCacheTtlMs: 0 },
      { tokenScheme: 'Token' },
    );
    expect((await client.getInfluencers(lastWeek(clock))).influencers).toHaveLength(10);
    expect(
      sandbox.log.map((record) => [record.endpoint, record.authSchemeSent, record.status]),
    ).toEqual([
      ['token', 'Basic', 200],
      ['data', 'Token', 200],
    ]);
  });

  it('sends Bearer by default, which a service expecting another scheme refuses', async () => {
    const { client, clock, sandbox } = await start({}, { tokenScheme: 'Token' });
    const error = await rejectionOf(client.getInfluencers(lastWeek(clock)));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(
      sandbox.log
        .filter((record) => record.endpoint === 'data')
        .map((record) => record.authSchemeSent),
    ).toEqual(['Bearer', 'Bearer']);
  });

  it('honours a path prefix in the base URL', async () => {
    const { sandbox } = await start();
    const prefixed = new AnalyticsClient({
      baseUrl: `${sandbox.url}/analytics/`,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
    });
    const error = await rejectionOf(prefixed.getInfluencers(lastWeek(new FakeClock())));
    await prefixed.close();
    expect(sandbox.log.map((record) => record.path)).toEqual(['/analytics/v1/oauth/token']);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe(
      'The analytics service sent an invalid response (HTTP 404): the token endpoint answered HTTP 404 (No such endpoint: /analytics/v1/oauth/token)',
    );
  });
});
