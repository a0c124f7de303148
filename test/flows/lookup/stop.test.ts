import { describe, expect, it } from 'vitest';
import { SharedCalls } from '../../../src/analytics/shared-calls.ts';
import type { InfluencersResult } from '../../../src/analytics/types.ts';
import { UnknownDatabaseError } from '../../../src/errors.ts';
import { LookupFlow, stoppedByPerson } from '../../../src/flows/lookup/index.ts';
import type { WindowWatch } from '../../../src/flows/window-watch.ts';
import { createLogger } from '../../../src/logger.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { renderStoppedByPerson } from '../../../src/render/lookups/status.ts';

const now = new Date('2026-11-21T15:00:00Z');
const result: InfluencersResult = {
  influencers: [
    {
      rank: 1,
      screenName: 'DrJane',
      displayName: 'Dr Jane',
      stakeholderCategories: [],
      metrics: {},
    },
    {
      rank: 2,
      screenName: 'NurseAl',
      displayName: 'Nurse Al',
      stakeholderCategories: [],
      metrics: {},
    },
  ],
};

function requestOf(text: string): LookupRequest {
  return parseLookup(text, { now, zone: 'Europe/Paris' }) as LookupRequest;
}

/**
 * A flow whose analytics shares identical calls through the client's own SharedCalls, each call
 * held until the test answers it; `aborted` lists the calls stopped because nobody waited.
 */
function sharingFlow() {
  const calls = new SharedCalls<InfluencersResult>({
    cacheTtlMs: 0,
    cacheMax: 10,
    now: () => 1_000,
    monotonicNow: () => performance.now(),
  });
  const started: string[] = [];
  const aborted: string[] = [];
  const answers = new Map<string, () => void>();
  const lines: string[] = [];
  const flow = new LookupFlow({
    analytics: {
      getInfluencers: (query, options = {}) =>
        calls.share(JSON.stringify(query), options.deadlineMs ?? 5_000, options.signal, (call) => {
          const key = `${query.databases.join(',')} ${query.start}`;
          started.push(key);
          call.signal.addEventListener('abort', () => aborted.push(key));
          return new Promise((resolve) => answers.set(key, () => resolve(result)));
        }),
    },
    logger: createLogger({ level: 'debug', destination: { write: (line) => lines.push(line) } }),
    policy: { progressUpdateMs: 60_000, timeoutMs: 5_000 },
    now: () => now,
  });
  return { flow, started, aborted, answers, lines };
}

function finished() {
  const messages: SlackMessage[] = [];
  return {
    messages,
    sink: { progress: async () => {}, finish: async (m: SlackMessage) => void messages.push(m) },
  };
}

describe('LookupFlow stopped by the person', () => {
  it('ends at once saying it was stopped, and stops the call nobody else waits for', async () => {
    const { flow, started, aborted, lines } = sharingFlow();
    const request = requestOf('#hcsm last week');
    const stop = new AbortController();
    const { sink, messages } = finished();
    const done = flow.run(request, sink, { signal: stop.signal });
    await expect.poll(() => started.length).toBe(1);
    stop.abort(stoppedByPerson);
    expect(await done).toBe('stopped');
    expect(messages).toEqual([renderStoppedByPerson(request, { now })]);
    expect(messages[0]?.text).toMatch(/^Stopped: you pressed Stop, so the lookup was cancelled\./);
    expect(aborted).toEqual(started);
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'lookup stopped by the person' }),
    );
  });

  it('leaves a call shared with another lookup running, and that lookup is answered', async () => {
    const { flow, started, aborted, answers } = sharingFlow();
    const request = requestOf('#hcsm last week');
    const stop = new AbortController();
    const first = finished();
    const second = finished();
    const stopped = flow.run(request, first.sink, { signal: stop.signal });
    const kept = flow.run(request, second.sink);
    await expect.poll(() => started.length).toBe(1);
    stop.abort(stoppedByPerson);
    expect(await stopped).toBe('stopped');
    expect(aborted).toEqual([]);
    for (const answer of answers.values()) answer();
    expect(await kept).toBe('answered');
    expect(second.messages[0]?.text).not.toMatch(/^Stopped/);
  });

  it('says the app restarted when the signal aborts for any other reason', async () => {
    const { flow, started } = sharingFlow();
    const stop = new AbortController();
    const { sink, messages } = finished();
    const done = flow.run(requestOf('#bcsm yesterday'), sink, { signal: stop.signal });
    await expect.poll(() => started.length).toBe(1);
    stop.abort(new Error('shutting down'));
    expect(await done).toBe('stopped');
    expect(messages[0]?.text).toMatch(/^The app restarted/);
  });
});

describe('LookupFlow watched window by window', () => {
  function recordingWatch() {
    const events: string[] = [];
    const watch: WindowWatch = {
      asked: (asked) => {
        events.push(`asked ${asked.start}`);
        return {
          answered: (rows) => void events.push(`answered ${asked.start} ${rows}`),
          failed: (error) => void events.push(`failed ${asked.start} ${(error as Error).name}`),
        };
      },
    };
    return { events, watch };
  }

  it('hears one window for a ranking, with its row count', async () => {
    const { flow, answers } = sharingFlow();
    const request = requestOf('#hcsm last week');
    const { events, watch } = recordingWatch();
    const done = flow.run(request, finished().sink, { watch });
    await expect.poll(() => answers.size).toBe(1);
    for (const answer of answers.values()) answer();
    expect(await done).toBe('answered');
    expect(events).toEqual([`asked ${request.start}`, `answered ${request.start} 2`]);
  });

  it('hears both windows of a comparison', async () => {
    const { flow, answers } = sharingFlow();
    const request = requestOf('#hcsm last week vs previous period');
    const { events, watch } = recordingWatch();
    const done = flow.run(request, finished().sink, { watch });
    await expect.poll(() => answers.size).toBe(2);
    for (const answer of answers.values()) answer();
    await done;
    expect(events.filter((event) => event.startsWith('answered'))).toHaveLength(2);
    expect(events).toContain(`asked ${request.compare?.start}`);
  });

  it('hears a window fail with its error', async () => {
    const lines: string[] = [];
    const flow = new LookupFlow({
      analytics: {
        getInfluencers: async () => {
          throw new UnknownDatabaseError('#nosuchdb');
        },
      },
      logger: createLogger({ level: 'debug', destination: { write: (l) => lines.push(l) } }),
      policy: { progressUpdateMs: 60_000, timeoutMs: 5_000 },
      now: () => now,
    });
    const request = requestOf('#nosuchdb yesterday');
    const { events, watch } = recordingWatch();
    expect(await flow.run(request, finished().sink, { watch })).toBe('failed');
    expect(events).toEqual([
      `asked ${request.start}`,
      `failed ${request.start} UnknownDatabaseError`,
    ]);
  });
});
