import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/errors.ts';
import { harnessPerTest, lastWeek, rejectionOf } from './helpers.ts';

const start = harnessPerTest();

describe('AnalyticsClient sharing and caching', () => {
  it('sends one HTTP call for identical concurrent requests', async () => {
    const { client, clock, sandbox, dataRequests } = await start({ responseCacheTtlMs: 0 });
    sandbox.setLatency(50);
    const query = lastWeek(clock);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => client.getInfluencers({ ...query, timezone: 'UTC' })).concat(
        client.getInfluencers(query),
      ),
    );
    expect(new Set(results).size).toBe(1);
    expect(dataRequests()).toBe(1);
    expect(client.stats.sharedInFlight).toBe(50);
  });

  it('answers a repeat from the cache within the TTL and asks again after it', async () => {
    const { client, clock, dataRequests } = await start({ responseCacheTtlMs: 60_000 });
    const query = lastWeek(clock);
    const first = await client.getInfluencers(query);
    clock.advance(60_000);
    expect(await client.getInfluencers(query)).toBe(first);
    expect(dataRequests()).toBe(1);
    expect(client.stats.cacheHits).toBe(1);
    clock.advance(1);
    await client.getInfluencers(query);
    expect(dataRequests()).toBe(2);
  });

  it('does not cache failures', async () => {
    const { client, clock, sandbox, dataRequests } = await start({ maxAttempts: 1 });
    sandbox.script({ kind: 'status', status: 503 });
    const query = lastWeek(clock);
    await rejectionOf(client.getInfluencers(query));
    expect((await client.getInfluencers(query)).influencers).toHaveLength(10);
    expect(dataRequests()).toBe(2);
  });

  it("keeps the shared call alive for the others when one caller's deadline passes", async () => {
    const { client, clock, sandbox, dataRequests } = await start();
    sandbox.setLatency(300);
    const query = lastWeek(clock);
    const [hasty, patient] = await Promise.allSettled([
      client.getInfluencers(query, { deadlineMs: 50 }),
      client.getInfluencers(query),
    ]);
    expect(hasty.status).toBe('rejected');
    expect(hasty.status === 'rejected' && hasty.reason).toBeInstanceOf(TimeoutError);
    expect(patient.status === 'fulfilled' && patient.value.influencers).toHaveLength(10);
    expect(dataRequests()).toBe(1);
  });

  it('keeps the shared call alive for the others when one caller aborts', async () => {
    const { client, clock, sandbox, dataRequests } = await start();
    sandbox.setLatency(200);
    const query = lastWeek(clock);
    const controller = new AbortController();
    const aborted = client.getInfluencers(query, { signal: controller.signal });
    const other = client.getInfluencers(query);
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await rejectionOf(aborted);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'deadline' });
    expect((await other).influencers).toHaveLength(10);
    expect(dataRequests()).toBe(1);
  });

  it('measures how long an aborted caller waited on the injected monotonic clock', async () => {
    let monotonicMs = 5_000_000;
    const { client, clock, sandbox } = await start({ monotonicNow: () => monotonicMs });
    sandbox.setLatency(200);
    const controller = new AbortController();
    const aborted = client.getInfluencers(lastWeek(clock), { signal: controller.signal });
    setTimeout(() => {
      monotonicMs += 42_000;
      controller.abort(new Error('user left'));
    }, 20);
    const error = await rejectionOf(aborted);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'deadline', afterMs: 42_000 });
    expect((error as Error).message).toBe(
      'The analytics request timed out (deadline, after 42000 ms)',
    );
  });

  it('starts afresh when the identical call before it was abandoned by its only caller', async () => {
    const { client, clock, sandbox, dataRequests } = await start();
    sandbox.script({ kind: 'slow-headers', ms: 1_000 });
    const query = lastWeek(clock);
    await rejectionOf(client.getInfluencers(query, { deadlineMs: 50 }));
    expect((await client.getInfluencers(query)).influencers).toHaveLength(10);
    expect(dataRequests()).toBe(2);
  });

  it('rejects calls in flight and after close', async () => {
    const { client, clock, sandbox } = await start();
    sandbox.setLatency(500);
    const pending = rejectionOf(client.getInfluencers(lastWeek(clock)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    const inFlight = await pending;
    expect(inFlight.message).toBe('The analytics client is closed');
    const after = await rejectionOf(client.getInfluencers(lastWeek(clock)));
    expect(after.message).toBe('The analytics client is closed');
  });
});
