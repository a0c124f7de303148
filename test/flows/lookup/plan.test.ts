import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsApi, InfluencersResult } from '../../../src/analytics/types.ts';
import {
  AccessDeniedError,
  ParseError,
  ServiceUnavailableError,
  TimeoutError,
  UnknownDatabaseError,
} from '../../../src/errors.ts';
import { LookupFlow, toQuery } from '../../../src/flows/lookup/index.ts';
import { createLogger } from '../../../src/logger.ts';
import { digestVerbs } from '../../../src/model/commands.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { leadingWord } from '../../../src/parsing/leading-word.ts';
import { renderAnswer } from '../../../src/render/answer.ts';
import { genericErrorText, renderError } from '../../../src/render/errors.ts';
import { digestVerbHint, renderHelp } from '../../../src/render/help.ts';
import {
  renderPending,
  renderStillRunning,
  renderStoppedByRestart,
  renderTimedOut,
  utcFallbackNote,
  zoneAliasNote,
} from '../../../src/render/status.ts';

const now = new Date('2026-11-21T15:00:00Z');
const result: InfluencersResult = {
  influencers: [
    {
      rank: 1,
      screenName: 'DrJane',
      displayName: 'Dr Jane',
      stakeholderCategories: [],
      metrics: { mentions: 42 },
    },
  ],
};
const request = parseLookup('#hcsm last week', { now, zone: 'Europe/Paris' }) as LookupRequest;

function flowWith(
  getInfluencers: AnalyticsApi['getInfluencers'],
  policy: { progressUpdateMs: number; timeoutMs: number; earliestDataDate?: string } = {
    progressUpdateMs: 1_000,
    timeoutMs: 5_000,
  },
) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => lines.push(line) },
  });
  return {
    flow: new LookupFlow({ analytics: { getInfluencers }, logger, policy, now: () => now }),
    lines,
  };
}

function recordingSink() {
  const seen: { kind: 'progress' | 'finish'; message: SlackMessage }[] = [];
  return {
    seen,
    sink: {
      progress: async (message: SlackMessage) => void seen.push({ kind: 'progress', message }),
      finish: async (message: SlackMessage) => void seen.push({ kind: 'finish', message }),
    },
  };
}

describe('LookupFlow.plan', () => {
  const { flow } = flowWith(async () => result);

  it.each([
    '',
    '  ',
    'help',
    'HELP',
    '?',
    'digests',
    'hi',
    'hello',
    'Hello!',
    'hey there',
    'thanks',
    'thank you',
    'good morning',
    'Help me',
    'help #hcsm',
    'help?',
    'usage',
    'version',
    'watch #hcsm top 10',
    'Watch #hcsm',
  ])('gives the usage for %j', (text) => {
    expect(flow.plan(text, { zone: 'UTC', command: '/influencers' })).toEqual({
      kind: 'help',
      message: renderHelp({ command: '/influencers' }),
    });
  });

  it.each([
    ['pause 3', 'pause', '3'],
    ['pause X', 'pause', 'X'],
    ['remove', 'remove', ''],
    ['delete 7', 'delete', '7'],
    ['run', 'run', ''],
    ['stop', 'stop', ''],
    ['Resume 12', 'resume', '12'],
    ['list', 'list', ''],
    ['settings', 'settings', ''],
    ['status', 'status', ''],
  ])('gives the usage with a digest hint for %j', (text, verb, rest) => {
    expect(flow.plan(text, { zone: 'UTC', command: '/influencers' })).toEqual({
      kind: 'help',
      message: renderHelp({
        command: '/influencers',
        hint: digestVerbHint(verb, rest, '/influencers'),
      }),
    });
  });

  it.each([...digestVerbs.keys()])('reads %s typed without digest as a digest verb', (verb) => {
    expect(leadingWord(`${verb} 7K3M9Q`)).toEqual({ kind: 'digest_verb', verb, rest: '7K3M9Q' });
  });

  it.each(['diabetes', 'diabetes last week', '"run" last week', 'goodrx yesterday', 'good'])(
    'hands %j to the parser: a plain word can be a phrase database',
    (text) => {
      expect(leadingWord(text)).toBeUndefined();
      expect(flow.plan(text, { zone: 'UTC' }).kind).not.toBe('help');
    },
  );

  it.each([
    ['who drove #hcsm last week?', ['#hcsm']],
    ['top influencers for #bcsm yesterday', ['#bcsm']],
    ['show me "breast cancer" this month', ['breast cancer']],
    ['hello, who drove #bcsm last week?', ['#bcsm']],
  ])('answers the question %j in a DM, whatever its first word', (text, databases) => {
    expect(flow.asksForUsage(text)).toBe(false);
    expect(flow.plan(text, { zone: 'UTC' })).toMatchObject({
      kind: 'lookup',
      request: { databases },
    });
  });

  it('says where digests are created when one is typed in a conversation', () => {
    const plan = flow.plan('digest #hcsm every monday at 9am', { zone: 'UTC' });
    expect(plan.kind).toBe('help');
    expect(plan.kind === 'help' ? plan.message.text : '').toBe(
      'Digests and watches are created where they post: type `/influencers digest #hcsm every monday at 9am` in the channel that should receive them, or type it in my DM to get it there. Here I answer lookups, such as `#hcsm last week`.',
    );
  });

  it('gives a hint, not a lookup, for a question after the slash command', () => {
    const plan = flow.plan('show me "breast cancer" this month', {
      zone: 'UTC',
      command: '/influencers',
    });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') {
      expect(plan.error.message).toMatch(
        /^“show me” is not part of a lookup.*Try: \/influencers "breast cancer" this month$/,
      );
    }
  });

  it('writes the DM form of an error in a DM', () => {
    const plan = flow.plan('#bcsm yestreday', { zone: 'UTC' });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') expect(plan.error.message).toMatch(/Try: #bcsm yesterday$/);
  });

  it('gives the parser error, rendered, for text it cannot read', () => {
    const plan = flow.plan('#hcsm top 500', { zone: 'UTC' });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') expect(plan.message).toEqual(renderError(plan.error));
  });

  it('refuses a window before the configured first day with data', () => {
    const { flow: strict } = flowWith(async () => result, {
      progressUpdateMs: 1_000,
      timeoutMs: 5_000,
      earliestDataDate: '2026-11-01',
    });
    const plan = strict.plan('#hcsm last month', { zone: 'UTC', command: '/influencers' });
    expect(plan.kind).toBe('invalid');
    if (plan.kind === 'invalid') {
      expect(plan.error.message).toContain('before the earliest data (2026-11-01)');
    }
    expect(strict.plan('#hcsm this month', { zone: 'UTC' }).kind).toBe('lookup');
  });

  it('says how a zone named by an abbreviation or a place was read, in the pending message', () => {
    const plan = flow.plan('#hcsm last week in EST', { zone: 'UTC', zoneFallback: true });
    expect(plan).toMatchObject({
      kind: 'lookup',
      note: `${utcFallbackNote} ${zoneAliasNote('EST', 'America/New_York')}`,
    });
    expect(zoneAliasNote('EST', 'America/New_York')).toBe('EST read as America/New_York.');
    if (plan.kind === 'lookup') {
      expect(plan.pending).toEqual(renderPending(plan.request, { now, note: plan.note ?? '' }));
    }
  });

  it("plans a lookup in the person's zone with the pending message", () => {
    expect(flow.plan('#hcsm last week', { zone: 'Europe/Paris' })).toEqual({
      kind: 'lookup',
      request,
      note: undefined,
      pending: renderPending(request, { now }),
    });
  });

  it('says so when the zone is the UTC fallback', () => {
    const plan = flow.plan('#hcsm last week', { zone: 'UTC', zoneFallback: true });
    expect(plan.kind === 'lookup' && plan.note).toBe(utcFallbackNote);
    if (plan.kind === 'lookup')
      expect(plan.pending).toEqual(renderPending(plan.request, { note: utcFallbackNote, now }));
  });
});

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
