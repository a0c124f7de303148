import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsApi, InfluencersResult } from '../../src/analytics/types.ts';
import { ServiceUnavailableError } from '../../src/errors.ts';
import {
  readWindowTool,
  type TopInfluencersInputs,
  toolLookupText,
  topInfluencersTool,
} from '../../src/flows/mcp-tools.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { renderError } from '../../src/render/errors.ts';
import { renderAnswer } from '../../src/render/lookups/answer.ts';
import { toolRefusals, toolText, toolTextLimit } from '../../src/render/lookups/mcp-tools.ts';
import { renderTimedOut, utcFallbackNote } from '../../src/render/lookups/status.ts';
import { mrkdwnToPlain } from '../../src/render/text.ts';
import { testCore } from '../helpers/core.ts';

const now = new Date('2026-11-21T15:00:00Z');
const result: InfluencersResult = {
  influencers: [
    {
      rank: 1,
      screenName: 'DrJane',
      displayName: 'Dr Jane',
      followersCount: 1200,
      stakeholderCategories: [{ name: 'Doctor' }] as never,
      metrics: { mentions: 42, impressions: 9000 },
    },
    {
      rank: 2,
      screenName: '@nurse_bob',
      displayName: 'Bob',
      stakeholderCategories: [],
      metrics: { mentions: 17 },
    },
  ],
};

function flowWith(
  getInfluencers: AnalyticsApi['getInfluencers'] = async () => result,
  timeoutMs = 5_000,
) {
  const asked: unknown[] = [];
  const flow = testCore({
    analytics: {
      getInfluencers: (query, options) => {
        asked.push(query);
        return getInfluencers(query, options);
      },
    },
    lookup: { progressUpdateMs: 1_000, timeoutMs },
    now: () => now,
  }).lookup;
  return { flow, asked };
}

function parsed(text: string, zone: string): LookupRequest {
  const request = parseLookup(text, { now, zone, conversation: true });
  if (request instanceof Error) throw request;
  return request;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('toolLookupText', () => {
  it.each<[TopInfluencersInputs, string]>([
    [{ databases: '#hcsm' }, '#hcsm'],
    [{ databases: 4711, top: 5 }, '4711 top 5'],
    [
      { databases: ['#hcsm', '"breast cancer"'], window: 'last week' },
      '#hcsm, "breast cancer" last week',
    ],
    [{ databases: '#hcsm', metric: 'impressions' }, '#hcsm by impressions'],
    [{ databases: '#hcsm', metric: 'by reach' }, '#hcsm by reach'],
    [{ databases: '#hcsm', compare: 'previous period' }, '#hcsm vs previous period'],
    [{ databases: '#hcsm', compare: 'vs last year' }, '#hcsm vs last year'],
    [{ databases: '#hcsm', top: 'top 20' }, '#hcsm top 20'],
    [
      { databases: '#hcsm', stakeholders: 'no pharma', zone: 'Boston' },
      '#hcsm no pharma in Boston',
    ],
    [{ databases: '#hcsm', zone: 'in Europe/London' }, '#hcsm in Europe/London'],
    [{ databases: '  #hcsm\u0000 ', window: null, top: true }, '#hcsm'],
  ])('reads %j as %j', (inputs, text) => {
    expect(toolLookupText(inputs)).toBe(text);
  });
});

describe('topInfluencersTool', () => {
  it('gives the rows and the DM answer’s words, in the zone it is given', async () => {
    const { flow } = flowWith();
    const outcome = await topInfluencersTool(
      flow,
      { databases: '#hcsm', window: 'last week' },
      { zone: 'America/New_York' },
    );
    if (!outcome.ok) throw new Error(outcome.error);
    const request = parsed('#hcsm last week', 'America/New_York');
    expect(outcome.content.window.zone).toBe('America/New_York');
    expect(outcome.content.rows).toEqual([
      {
        rank: 1,
        name: 'Dr Jane',
        handle: 'DrJane',
        metrics: { mentions: 42, impressions: 9000 },
        categories: ['Doctor'],
        followers: 1200,
      },
      { rank: 2, name: 'Bob', handle: 'nurse_bob', metrics: { mentions: 17 }, categories: [] },
    ]);
    expect(outcome.text).toBe(toolText(renderAnswer(request, result, { actions: false })));
    expect(outcome.text).toContain('Dr Jane');
  });

  it('says the window was read in UTC when the person’s zone could not be read', async () => {
    const { flow } = flowWith();
    const outcome = await topInfluencersTool(
      flow,
      { databases: '#hcsm' },
      { zone: 'UTC', zoneFallback: true },
    );
    expect(outcome.ok && outcome.text).toContain(utcFallbackNote);
  });

  it('answers an export with the ranking itself, and refuses a trend or one person', async () => {
    const { flow, asked } = flowWith();
    const exported = await topInfluencersTool(
      flow,
      { databases: '#hcsm', window: 'last week export' },
      { zone: 'UTC' },
    );
    expect(exported.ok).toBe(true);
    const trend = await topInfluencersTool(
      flow,
      { databases: '#hcsm', window: 'by day' },
      { zone: 'UTC' },
    );
    expect(trend).toEqual({ ok: false, error: toolRefusals.trend });
    const person = await topInfluencersTool(
      flow,
      { databases: '@DrJane in #hcsm' },
      { zone: 'UTC' },
    );
    expect(person).toEqual({ ok: false, error: toolRefusals.person });
    expect(asked).toHaveLength(1);
  });

  it('reads stakeholders and a comparison together, each from its own input', async () => {
    const { flow, asked } = flowWith();
    const outcome = await topInfluencersTool(
      flow,
      {
        databases: '#hcsm',
        window: 'last week',
        compare: 'previous period',
        stakeholders: 'doctors',
        metric: 'impressions',
        top: 5,
      },
      { zone: 'UTC' },
    );
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.content.stakeholders).toEqual({ include: ['Doctor'], exclude: [] });
    expect(outcome.content.metric).toBe('impressions');
    expect(outcome.content.window).toMatchObject({ start: '2026-11-09T00:00:00+00:00' });
    expect(outcome.content.comparison?.window).toMatchObject({
      start: '2026-11-02T00:00:00+00:00',
      end: '2026-11-09T00:00:00+00:00',
    });
    // The current window and the one compared with, each asked for doctors only.
    expect(asked).toHaveLength(2);
  });

  it.each<[TopInfluencersInputs, string]>([
    [{ databases: '#hcsm', window: 'banana' }, toolRefusals.notOfSlot('window', ['banana'])],
    [
      { databases: '#hcsm', stakeholders: 'banana' },
      toolRefusals.notOfSlot('stakeholders', ['banana']),
    ],
    [
      { databases: '#hcsm', compare: 'last year', window: 'last week doctors' },
      toolRefusals.otherSlot('window', 'stakeholders'),
    ],
    [
      { databases: '#hcsm', window: 'last week by impressions' },
      toolRefusals.otherSlot('window', 'metric'),
    ],
    [{ databases: '#hcsm last week' }, toolRefusals.otherSlot('databases', 'window')],
    [{ databases: '  ', window: 'last week' }, toolRefusals.noDatabases],
  ])(
    'refuses %j, naming the input to change, asking nothing of the service',
    async (inputs, error) => {
      const { flow, asked } = flowWith();
      expect(await topInfluencersTool(flow, inputs, { zone: 'UTC' })).toEqual({ ok: false, error });
      expect(asked).toHaveLength(0);
    },
  );

  it('gives the words a lookup gives when the service fails', async () => {
    const failure = new ServiceUnavailableError(503, 3);
    const { flow } = flowWith(async () => {
      throw failure;
    });
    const outcome = await topInfluencersTool(flow, { databases: '#hcsm' }, { zone: 'UTC' });
    expect(outcome).toEqual({ ok: false, error: mrkdwnToPlain(renderError(failure).text) });
  });

  it('stops at the lookup deadline with the timed-out words', async () => {
    vi.useFakeTimers({ now });
    const { flow } = flowWith(() => new Promise<never>(() => {}), 2_000);
    const pending = topInfluencersTool(flow, { databases: '#hcsm' }, { zone: 'UTC' });
    await vi.advanceTimersByTimeAsync(2_000);
    const request = parsed('#hcsm', 'UTC');
    expect(await pending).toEqual({
      ok: false,
      error: mrkdwnToPlain(renderTimedOut(request, { now }).text),
    });
  });
});

describe('readWindowTool', () => {
  const { flow } = flowWith();

  it('reads the last 7 days to now when the text names no window', () => {
    const outcome = readWindowTool(flow, { text: '' }, { zone: 'UTC' });
    expect(outcome.ok && outcome.content.window).toMatchObject({
      start: '2026-11-14T15:00:00+00:00',
      end: '2026-11-21T15:00:00+00:00',
      wholeDays: false,
    });
  });

  it('reads a whole day at the start of summer time (DST) as 23 hours in its zone', () => {
    const outcome = readWindowTool(
      flow,
      { text: 'Mar 29', zone: 'Europe/London' },
      { zone: 'UTC' },
    );
    expect(outcome.ok && outcome.content.window).toEqual({
      start: '2026-03-29T00:00:00+00:00',
      end: '2026-03-30T00:00:00+01:00',
      zone: 'Europe/London',
      wholeDays: true,
      words: 'Mar 29, whole day, GMT',
    });
  });

  it('lets a zone named in the text win over the caller’s', () => {
    const outcome = readWindowTool(
      flow,
      { text: 'last week in Asia/Tokyo' },
      { zone: 'Europe/Paris' },
    );
    expect(outcome.ok && outcome.content.window.zone).toBe('Asia/Tokyo');
  });

  it.each([
    ['banana', toolRefusals.notAWindow(['banana'])],
    ['last week banana', toolRefusals.notAWindow(['banana'])],
    ['last week by impressions', toolRefusals.otherSlot('text', 'metric')],
    ['last week doctors', toolRefusals.otherSlot('text', 'stakeholders')],
  ])('refuses %j, which is not a window', (text, error) => {
    expect(readWindowTool(flow, { text }, { zone: 'UTC' })).toEqual({ ok: false, error });
  });

  it('gives the parser’s words for a window it cannot read', () => {
    const outcome = readWindowTool(flow, { text: 'tomorrow' }, { zone: 'UTC' });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toMatch(/starts in the future/);
  });
});

describe('toolText', () => {
  it('keeps a tool’s text within 12,000 characters', () => {
    const long = 'word '.repeat(5_000);
    expect(toolText({ text: long, blocks: [] }).length).toBe(toolTextLimit);
  });
});
