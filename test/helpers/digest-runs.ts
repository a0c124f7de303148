/**
 * What the end-to-end suites that run digests slot by slot against the sandbox share: a clock that
 * starts on Saturday 21 November 2026, 15:00 UTC and moves with real time, and the app on it
 * against a sandbox that answers as if the coming hours and days were past, so each slot's
 * question has data.
 */
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { type Harness, startHarness } from './harness.ts';

const startedAt = new Date('2026-11-21T15:00:00Z').getTime();
const realStart = Date.now();
export const now = () => new Date(startedAt + (Date.now() - realStart));
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface DigestRuns {
  readonly harness: Harness;
  readonly store: Database;
  /** A client of the test's own, without a cache, to ask the sandbox what a run asked. */
  readonly sandboxClient: AnalyticsClient;
  close(): Promise<void>;
}

/**
 * The app on {@link now}, no response cache, its digest runner fast between retries and posts;
 * conversations.info says every channel is public with the bot in it, and a `D…` id a DM.
 */
export async function startDigestRuns(): Promise<DigestRuns> {
  const harness = await startHarness({
    env: { RESPONSE_CACHE_TTL_MS: '0' },
    sandbox: { now: () => new Date('2027-01-01T00:00:00Z') },
    overrides: {
      now,
      digests: {
        clock: { now, sleep: realSleep },
        runnerOptions: { backoffMs: 5, channelIntervalMs: 0 },
      },
    },
  });
  harness.slack.override('conversations.info', (args) => {
    const id = String(args.channel);
    return {
      ok: true,
      channel: id.startsWith('D')
        ? { id, is_im: true }
        : { id, is_channel: true, is_private: false, is_member: true },
    };
  });
  const sandboxClient = new AnalyticsClient({
    baseUrl: harness.sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
  return {
    harness,
    store: harness.running.digests.database,
    sandboxClient,
    async close() {
      await sandboxClient.close();
      await harness.close();
    },
  };
}
