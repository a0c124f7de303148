/**
 * Answers larger than any honest one, over real sockets: a service that ignores `limit` and an
 * error page with a long trace. The client keeps the rows asked for, reads no further than its cap
 * and refuses what passes it, with its memory bounded whatever the size of the answer.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { maxAnswerBytes, maxErrorBodyBytes } from '../../src/analytics/transport.ts';
import { ResponseTooLargeError, ServiceUnavailableError } from '../../src/errors.ts';
import type { SandboxRequestRecord } from '../../src/sandbox/server.ts';
import { type Harness, harnessPerTest, lastWeek, memoryLogger, rejectionOf } from './helpers.ts';

const start = harnessPerTest();
const mib = 1024 * 1024;

/** The last data request the sandbox saw. */
function lastData(h: Harness): SandboxRequestRecord {
  const record = h.sandbox.log.filter((entry) => entry.endpoint === 'data').at(-1);
  if (record === undefined) throw new Error('the sandbox saw no data request');
  return record;
}

/** A full collection, so the memory a step leaves behind is not counted in the next. */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** The highest resident memory seen while `work` runs, sampled every few milliseconds. */
async function peakRssDuring<T>(work: Promise<T>): Promise<number> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work.catch(() => undefined);
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss());
}

describe('AnalyticsClient with a service that ignores limit', () => {
  it('keeps the first `limit` influencers of a longer answer within the cap', async () => {
    const { logger, output } = memoryLogger();
    const h = await start({ logger, responseCacheTtlMs: 0 });
    const query = { ...lastWeek(h.clock), limit: 10 };
    const honest = await h.client.getInfluencers(query);

    h.sandbox.script({ kind: 'ignores-limit', items: 2_000 });
    const trimmed = await h.client.getInfluencers(query);

    expect(trimmed).toEqual(honest);
    expect(trimmed.influencers).toHaveLength(10);
    expect(lastData(h).bodyBytesWritten).toBeGreaterThan(500_000);
    const warning = output()
      .split('\n')
      .filter((line) => line.includes('more influencers than asked for'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warning).toMatchObject([{ kept: 10, surplus: 1_990 }]);
  });

  it('keeps at most the 500 an honest answer holds when no limit was sent', async () => {
    const h = await start({ responseCacheTtlMs: 0 });
    const query = lastWeek(h.clock);
    const honest = await h.client.getInfluencers({ ...query, limit: 500 });
    expect(honest.influencers).toHaveLength(500);

    h.sandbox.script({ kind: 'ignores-limit', items: 2_000 });
    const kept = await h.client.getInfluencers(query);

    expect(lastData(h).query.limit).toBeUndefined();
    expect(kept.influencers).toEqual(honest.influencers);
  });

  it('refuses an answer over the cap after reading about the cap, its memory bounded', async () => {
    const { logger, output } = memoryLogger();
    const h = await start({ logger });
    const query = { ...lastWeek(h.clock), limit: 10 };
    await h.client.getInfluencers(query);

    // 200,000 items: about 74 MB of JSON, which the client must never hold.
    h.sandbox.script({ kind: 'ignores-limit', items: 200_000 });
    collectGarbage();
    const before = process.memoryUsage.rss();
    const refused = rejectionOf(h.client.getInfluencers({ ...query, limit: 11 }));
    const peak = await peakRssDuring(refused);
    const error = await refused;

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge).toMatchObject({ status: 200, capBytes: maxAnswerBytes });
    expect(tooLarge.bytesRead).toBeGreaterThan(maxAnswerBytes);
    expect(tooLarge.bytesRead).toBeLessThan(maxAnswerBytes + mib);
    // What the sandbox handed its socket: the client's share plus the kernel's buffers, far from
    // the whole body.
    expect(lastData(h).bodyBytesWritten).toBeGreaterThanOrEqual(tooLarge.bytesRead);
    expect(lastData(h).bodyBytesWritten).toBeLessThan(32 * mib);
    expect(peak - before).toBeLessThan(150 * mib);
    // A contract failure: retrying would only read it again.
    expect(h.dataRequests()).toBe(2);

    const [logged] = output()
      .split('\n')
      .filter((line) => line.includes('over the size cap'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toMatchObject({
      level: 40,
      path: '/v1/twitter/analytics/people/influencers',
      status: 200,
      capBytes: maxAnswerBytes,
      bytesRead: tooLarge.bytesRead,
    });
    expect(output()).not.toMatch(/Bearer|access_token|client_secret/i);

    // The connection was dropped, not left half read: the next call is answered.
    expect((await h.client.getInfluencers({ ...query, limit: 12 })).influencers).toHaveLength(12);
  });

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'ignores-limit', items: 20_000, declareLength: true });
    const error = await rejectionOf(h.client.getInfluencers({ ...lastWeek(h.clock), limit: 10 }));

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 200, capBytes: maxAnswerBytes, bytesRead: 0 });
    expect((error as ResponseTooLargeError).declaredBytes).toBeGreaterThan(maxAnswerBytes);
    expect(error.message).toMatch(
      /^The analytics service sent an answer over the 4194304-byte cap \(HTTP 200, \d+ bytes declared\); stopped after 0 bytes$/,
    );
  });
});

describe('AnalyticsClient with a token answer over its cap', () => {
  it('refuses it without sending a data request', async () => {
    const h = await start();
    h.sandbox.script({ kind: 'long-error-page', status: 200, bytes: 8 * mib, endpoint: 'token' });
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 200, capBytes: maxAnswerBytes });
    expect(h.tokenRequests()).toBe(1);
    expect(h.dataRequests()).toBe(0);
  });
});

describe('AnalyticsClient with a long error page', () => {
  it('reads only the start of the page and still treats the status as it says', async () => {
    const h = await start({ maxAttempts: 2 });
    h.sandbox.script(
      { kind: 'long-error-page', status: 503, bytes: 64 * mib },
      { kind: 'long-error-page', status: 503, bytes: 64 * mib },
    );
    const error = await rejectionOf(h.client.getInfluencers(lastWeek(h.clock)));

    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, attempts: 2 });
    expect((error.cause as Error).message).toBe('503 Service Unavailable');
    for (const record of h.sandbox.log.filter((entry) => entry.endpoint === 'data')) {
      expect(record.bodyBytesWritten).toBeGreaterThan(maxErrorBodyBytes);
      expect(record.bodyBytesWritten).toBeLessThan(32 * mib);
    }
  });
});
