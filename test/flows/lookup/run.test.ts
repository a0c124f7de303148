import { describe, expect, it, vi } from 'vitest';
import {
  AccessDeniedError,
  ParseError,
  ServiceUnavailableError,
  TimeoutError,
  UnknownDatabaseError,
} from '../../../src/errors.ts';
import { toQuery } from '../../../src/flows/lookup/index.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { genericErrorText, renderError } from '../../../src/render/errors.ts';
import { renderAnswer } from '../../../src/render/lookups/answer.ts';
import {
  renderStillRunning,
  renderStoppedByRestart,
  renderTimedOut,
} from '../../../src/render/lookups/status.ts';
import { flowWith, now, recordingSink, request, result } from './helpers.ts';

describe('LookupFlow.run', () => {
  it('asks the service for the parsed request and finishes with the answer', async () => {
    const getInfluencers = vi.fn(async () => result);
    const { flow } = flowWith(getInfluencers);
    const { sink, seen } = recordingSink();
    expect(await flow.run(request, sink, { shareable: true })).toBe('answered');
    expect(getInfluencers).toHaveBeenCalledWith(
      toQuery(request),
      expect.objectContaining({ deadlineMs: 5_000 }),
    );
    expect(toQuery(request)).toEqual({
      databases: ['#hcsm'],
      start: request.start,
      end: request.end,
      timezone: 'Europe/Paris',
      limit: 10,
      // No metric chosen: the default is asked for by name, so "ranked by mentions" holds.
      metric: ['mentions', 'hsg_score', 'retweets', 'tweets', 'impressions', 'replies'],
    });
    expect(seen).toEqual([
      {
        kind: 'finish',
        message: renderAnswer(request, result, { shareable: true, actions: true }),
      },
    ]);
  });

  it('asks for the chosen metric first, then the others the answer shows', () => {
    const byReach = parseLookup('#hcsm last week by reach top 20', { now, zone: 'UTC' });
    expect(toQuery(byReach as LookupRequest)).toMatchObject({
      limit: 20,
      metric: ['impressions', 'hsg_score', 'mentions', 'retweets', 'tweets', 'replies'],
    });
  });

  it('sends one still-running update before a slow answer', async () => {
    vi.useFakeTimers({ now: now.getTime() });
    try {
      const { flow } = flowWith(
        () => new Promise((resolve) => setTimeout(() => resolve(result), 2_500)),
      );
      const { sink, seen } = recordingSink();
      const done = flow.run(request, sink);
      await vi.advanceTimersByTimeAsync(2_500);
      expect(await done).toBe('answered');
      expect(seen.map((entry) => entry.kind)).toEqual(['progress', 'finish']);
      expect(seen[0]?.message).toEqual(renderStillRunning(request, 1_000, { now }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops at the final timeout with the timed-out message', async () => {
    vi.useFakeTimers({ now: now.getTime() });
    try {
      const { flow } = flowWith(() => new Promise(() => {}));
      const { sink, seen } = recordingSink();
      const done = flow.run(request, sink);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await done).toBe('timed_out');
      expect(seen.at(-1)).toEqual({ kind: 'finish', message: renderTimedOut(request, { now }) });
      expect(seen).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("treats the client's own deadline as the final timeout", async () => {
    const { flow } = flowWith(async () => {
      throw new TimeoutError('deadline', 5_000);
    });
    const { sink, seen } = recordingSink();
    expect(await flow.run(request, sink)).toBe('timed_out');
    expect(seen[0]?.message).toEqual(renderTimedOut(request, { now }));
  });

  it('ends early saying the app restarted when its signal aborts (shutdown)', async () => {
    const controller = new AbortController();
    const { flow } = flowWith(() => new Promise(() => {}));
    const { sink, seen } = recordingSink();
    const done = flow.run(request, sink, { signal: controller.signal });
    controller.abort();
    expect(await done).toBe('stopped');
    expect(seen[0]?.message).toEqual(renderStoppedByRestart(request, { now }));
    expect(seen[0]?.message.text).toMatch(
      /^The app restarted before your answer was ready; ask again in a minute\./,
    );
  });

  it.each([
    ['an unknown database', new UnknownDatabaseError('#nosuchdb')],
    ['a database the account may not read', new AccessDeniedError('#secret')],
    ['a parse error from the service side', new ParseError('bad_time', 'Bad time.', 'x')],
  ])("logs %s at info, without a stack: it is the person's mistake", async (_name, error) => {
    const { flow, lines } = flowWith(async () => {
      throw error;
    });
    const { sink, seen } = recordingSink();
    expect(await flow.run(request, sink)).toBe('failed');
    expect(seen[0]?.message).toEqual(renderError(error));
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 30,
        code: error.code,
        msg: `lookup refused: ${error.code}`,
      }),
    ]);
    expect(logged[0]).not.toHaveProperty('err');
  });

  it('keeps service trouble at warn with its cause', async () => {
    const { flow, lines } = flowWith(async () => {
      throw new ServiceUnavailableError(503, 4);
    });
    await flow.run(request, recordingSink().sink);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged[0]).toMatchObject({ level: 40, msg: 'lookup failed' });
    expect(logged[0]).toHaveProperty('err');
  });

  it("renders an app error with the renderer's words", async () => {
    const error = new ServiceUnavailableError(503, 4);
    const { flow, lines } = flowWith(async () => {
      throw error;
    });
    const { sink, seen } = recordingSink();
    expect(await flow.run(request, sink)).toBe('failed');
    expect(seen[0]?.message).toEqual(renderError(error));
    expect(lines.join('')).toContain('"code":"service_unavailable"');
  });

  it('gives one generic message for an unexpected error and logs its cause', async () => {
    const { flow, lines } = flowWith(async () => {
      throw new TypeError('boom in a dependency');
    });
    const { sink, seen } = recordingSink();
    expect(await flow.run(request, sink)).toBe('failed');
    expect(seen[0]?.message.text).toBe(genericErrorText);
    const logged = lines.map(
      (line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } },
    );
    expect(logged.find((line) => line.msg === 'lookup failed unexpectedly')?.err?.message).toBe(
      'boom in a dependency',
    );
  });
});
