import { WebClient } from '@slack/web-api';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import {
  slackRetryAfterMs,
  webClientOptions,
  withRateLimitRetry,
} from '../../../src/slack/web-api/client.ts';

describe('webClientOptions', () => {
  it('rejects rate-limited calls instead of pausing every call for Retry-After', () => {
    expect(webClientOptions({}).rejectRateLimitedCalls).toBe(true);
  });

  /** A Web API answer whose metadata the client logs itself, as Slack's warnings. */
  const warningFetch: typeof fetch = async () =>
    Response.json({
      ok: true,
      response_metadata: { messages: ['[WARN] see https://proxy-user:proxy-pass@proxy.test/'] },
    });

  it("routes the client's own log lines through the given logger, URL credentials removed", async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
    const client = new WebClient('xoxb-t', webClientOptions({ fetch: warningFetch, logger }));
    await client.auth.test();
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['see https://proxy.test/']);
  });

  it('prints nothing to the console when given no logger', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
      vi.spyOn(console, name),
    );
    try {
      await new WebClient('xoxb-t', webClientOptions({ fetch: warningFetch })).auth.test();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('withRateLimitRetry', () => {
  const rateLimited = (retryAfter: number) =>
    Object.assign(new Error('rate limited'), {
      code: 'slack_webapi_rate_limited_error',
      retryAfter,
    });

  it('waits Retry-After, bounded, then tries once more', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRateLimitRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw rateLimited(20);
        return 'posted';
      },
      { maxWaitMs: 3_000, sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe('posted');
    expect(waits).toEqual([3_000]);
  });

  it('throws a second 429 and never retries other errors', async () => {
    const sleep = async () => {};
    let calls = 0;
    await expect(
      withRateLimitRetry(
        async () => {
          calls += 1;
          throw rateLimited(1);
        },
        { sleep },
      ),
    ).rejects.toThrow('rate limited');
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      withRateLimitRetry(
        async () => {
          calls += 1;
          throw new Error('channel_not_found');
        },
        { sleep },
      ),
    ).rejects.toThrow('channel_not_found');
    expect(calls).toBe(1);
  });

  it('reads Retry-After only from the rate-limited error', () => {
    expect(slackRetryAfterMs(rateLimited(2))).toBe(2_000);
    expect(slackRetryAfterMs(new Error('x'))).toBeUndefined();
  });
});

describe('withRateLimitRetry beyond its longest wait', () => {
  const rateLimited = (retryAfter: number) =>
    Object.assign(new Error('rate limited'), {
      code: 'slack_webapi_rate_limited_error',
      retryAfter,
    });

  it('throws at once with give-up, and waits the default when Slack gives no Retry-After', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    let calls = 0;
    await expect(
      withRateLimitRetry(
        async () => {
          calls += 1;
          throw rateLimited(60);
        },
        { maxWaitMs: 30_000, beyondMax: 'give-up', sleep },
      ),
    ).rejects.toThrow('rate limited');
    expect(calls).toBe(1);
    const platformLimited = Object.assign(new Error('ratelimited'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'ratelimited' },
    });
    calls = 0;
    const result = await withRateLimitRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw platformLimited;
        return 'posted';
      },
      { defaultWaitMs: 1_000, sleep },
    );
    expect(result).toBe('posted');
    expect(waits).toEqual([1_000]);
  });
});
