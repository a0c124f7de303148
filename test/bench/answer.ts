/**
 * What drawing the analyst's answer costs: the time to render one compared answer with a chart,
 * the top ten listed and a 100-row table (and its fallback without the new blocks), and a weekly
 * trend of eight periods (each the service's whole ranking of 500, as the trend asks it) with its
 * ten people's table and line chart, beside the plain top-ten list rendered in the same run as
 * the baseline. Every render also checks the whole message against Block Kit's limits, as it does
 * in production. Then what asking for it costs the analytics service: the calls 1,000 identical
 * compared lookups make at once, cold and cached.
 */
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { Influencer, InfluencersResult } from '../../src/analytics/types.ts';
import { LookupFlow } from '../../src/flows/lookup/index.ts';
import { silentLogger } from '../../src/logger.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import { metricNames } from '../../src/model/metrics.ts';
import { stakeholderCategoryNames } from '../../src/model/stakeholders.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { withoutNewBlocks } from '../../src/render/blocks.ts';
import { renderAnswer } from '../../src/render/lookups/answer.ts';
import { renderTrend } from '../../src/render/lookups/trend.ts';
import { demoClient, startSandbox } from '../../src/sandbox/server.ts';
import { recentPeriods } from '../../src/time/periods.ts';

/** The figure the answer is held to: a compared 100-row answer with a chart, per render. */
const targetMs = 5;
const measureMs = 1_500;
const warmUpRenders = 300;

/** Eight of the service's categories, as the rankings drawn here have always used. */
const categories = stakeholderCategoryNames.slice(0, 8);

/**
 * A realistic ranking of `count` people: names and handles of ordinary length, a picture, one to
 * three categories, every metric and a follower count; `shift` moves everyone down the ranking
 * and changes the figures, so a previous period differs from this one.
 */
function ranking(count: number, shift: number): InfluencersResult {
  const influencers: Influencer[] = Array.from({ length: count }, (_, i) => {
    const id = (i + shift) % (count + 7);
    const metrics = Object.fromEntries(
      metricNames.map((name, n) => [name, ((id * 7919 + n * 104_729) % 250_000) / (n + 1)]),
    );
    return {
      rank: i + 1,
      screenName: `hcsm_voice_${id}`,
      displayName: `Dr. Person Number ${id} (MD, PhD)`,
      profileImageUrl: `https://pbs.twimg.com/profile_images/${id}/photo_normal.jpg`,
      hsgScore: 40 + (id % 60),
      followersCount: 500 + id * 1_311,
      stakeholderCategories: Array.from({ length: 1 + (id % 3) }, (_, c) => ({
        id: c,
        name: categories[(id + c) % categories.length] as string,
      })),
      metrics,
    };
  });
  return { influencers };
}

const week: LookupRequest = {
  databases: ['#hcsm', 'breast cancer'],
  start: '2026-11-16T00:00:00-05:00',
  end: '2026-11-23T00:00:00-05:00',
  timezone: 'America/New_York',
  top: 10,
};

/** Mean and 99th percentile of one render, in milliseconds, over `measureMs` of renders. */
function timePerRender(render: () => unknown): { mean: number; p99: number; renders: number } {
  for (let i = 0; i < warmUpRenders; i++) render();
  const times: number[] = [];
  const started = performance.now();
  while (performance.now() - started < measureMs) {
    const before = performance.now();
    render();
    times.push(performance.now() - before);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? 0;
  return { mean, p99, renders: times.length };
}

function line(label: string, figures: { mean: number; p99: number; renders: number }): void {
  console.log(
    `${label.padEnd(52)} mean ${figures.mean.toFixed(3).padStart(7)} ms  p99 ${figures.p99
      .toFixed(3)
      .padStart(7)} ms  (${figures.renders.toLocaleString('en-US')} renders)`,
  );
}

/** Rendering: the compared 100-row answer with a chart, beside the plain list. */
function renderFigures(): void {
  const topTen = ranking(10, 0);
  const hundred = ranking(100, 0);
  const previous = ranking(100, 13);
  const compared: LookupRequest = {
    ...week,
    top: 100,
    metric: 'impressions',
    presentation: 'chart',
    compare: { start: '2026-11-09T00:00:00-05:00', end: '2026-11-16T00:00:00-05:00' },
  };
  const rich = () => renderAnswer(compared, hundred, { previous, actions: true, shareable: true });
  const sample = rich();
  const types = sample.blocks.map((block) => block.type);
  const table = sample.blocks.find((block) => block.type === 'data_table');
  console.log(
    `compared answer: ${types.length} blocks (${types.filter((type) => type === 'section').length} sections, ` +
      `${types.includes('data_visualization') ? 'a chart' : 'no chart'}, ` +
      `a table of ${table?.type === 'data_table' ? table.rows.length - 1 : 0} rows)`,
  );

  const baseline = timePerRender(() => renderAnswer(week, topTen, { shareable: true }));
  line('baseline: plain top-10 list', baseline);
  const answer = timePerRender(rich);
  line('compared, chart + top-10 list + 100-row table', answer);
  const fallback = timePerRender(() => withoutNewBlocks(rich()));
  line('the same, then withoutNewBlocks (invalid_blocks)', fallback);
  console.log(
    `ratio compared / baseline: ${(answer.mean / baseline.mean).toFixed(1)}x; ` +
      `target < ${targetMs} ms per answer: ${answer.mean < targetMs ? 'met' : 'NOT met'}`,
  );
  trendFigures(baseline);
}

/**
 * Rendering a weekly trend: eight weeks, each the service's whole ranking (500 people, shifted
 * from week to week so ranks move), ten people in the table and five in the line chart.
 */
function trendFigures(baseline: { mean: number }): void {
  const now = new Date('2026-11-21T15:00:00Z');
  const periods = recentPeriods('week', 8, now, week.timezone);
  const rankings = periods.map((period, index) => ({ period, result: ranking(500, index * 3) }));
  const trend: LookupRequest = {
    ...week,
    start: periods[0]?.start ?? week.start,
    end: periods.at(-1)?.end ?? week.end,
    trend: { unit: 'week' },
  };
  const render = () => renderTrend(trend, rankings, { actions: true, shareable: true });
  const sample = render();
  const table = sample.blocks.find((block) => block.type === 'data_table');
  const chart = sample.blocks.find((block) => block.type === 'data_visualization');
  console.log(
    `weekly trend: ${periods.length} periods of 500, a table of ${table?.type === 'data_table' ? table.rows.length - 1 : 0} people, ` +
      `${chart === undefined ? 'no chart' : 'a line chart'}`,
  );
  const figures = timePerRender(render);
  line('trend: 8 weeks, 10 people, table + line chart', figures);
  line(
    'the same, then withoutNewBlocks (invalid_blocks)',
    timePerRender(() => withoutNewBlocks(render())),
  );
  console.log(
    `ratio trend / baseline: ${(figures.mean / baseline.mean).toFixed(1)}x; ` +
      `target < ${targetMs} ms per trend: ${figures.mean < targetMs ? 'met' : 'NOT met'}`,
  );
}

/** Identical compared lookups sent at once. */
const comparedLookups = 1_000;

/**
 * Analytics calls made for `comparedLookups` identical compared lookups run at once through the
 * lookup flow and the real client against the sandbox (each asks for its window and for the one
 * it is compared with), then for the same again within the response cache's lifetime. The
 * baseline is what a client without sharing would send: two calls a lookup.
 */
async function analyticsCallFigures(): Promise<void> {
  const now = new Date('2026-11-21T15:00:00Z');
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', now: () => now });
  const client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 60_000,
  });
  try {
    const flow = new LookupFlow({
      analytics: client,
      logger: silentLogger,
      policy: { progressUpdateMs: 60_000, timeoutMs: 60_000 },
      now: () => now,
    });
    const request = parseLookup('#hcsm last week vs previous period', { now, zone: 'UTC' });
    if (request instanceof Error) throw request;
    const sink = { progress: async () => {}, finish: async () => {} };
    const round = async (): Promise<{ calls: number; ms: number }> => {
      const before = client.stats.httpRequests;
      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: comparedLookups }, () => flow.run(request, sink)),
      );
      if (outcomes.some((outcome) => outcome !== 'answered')) {
        throw new Error(
          `a compared lookup did not answer: ${outcomes.find((o) => o !== 'answered')}`,
        );
      }
      return { calls: client.stats.httpRequests - before, ms: performance.now() - started };
    };
    const cold = await round();
    const repeat = await round();
    const label = `${comparedLookups.toLocaleString('en-US')} identical compared lookups at once`;
    console.log(
      `${`analytics calls, ${label}, cold cache`.padEnd(72)} ${String(cold.calls).padStart(5)}   target 2   (${cold.ms.toFixed(0)} ms)`,
    );
    console.log(
      `${'the same again within the cache lifetime'.padEnd(72)} ${String(repeat.calls).padStart(5)}   target 0   (${repeat.ms.toFixed(0)} ms)`,
    );
    console.log(
      `${'baseline: two calls a lookup, nothing shared'.padEnd(72)} ${String(2 * comparedLookups).padStart(5)}`,
    );
  } finally {
    await client.close();
    await sandbox.close();
  }
}

export async function run(): Promise<void> {
  renderFigures();
  await analyticsCallFigures();
}
