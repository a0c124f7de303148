/**
 * Trends and one person's answer through the lookup flow, against the sandbox over real sockets:
 * one question per period, each the whole ranking (the service's 500), shared between lookups
 * asking the same, and the answers and files rendered from what the sandbox sent.
 */
import { describe, expect, it } from 'vitest';
import { type CsvFile, LookupFlow } from '../../../src/flows/lookup/index.ts';
import { silentLogger } from '../../../src/logger.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { renderPerson } from '../../../src/render/lookups/person.ts';
import { renderPending } from '../../../src/render/lookups/status.ts';
import { renderTrend } from '../../../src/render/lookups/trend.ts';
import { renderTrendCsv } from '../../../src/render/lookups/trend-csv.ts';
import { recentPeriods } from '../../../src/time/periods.ts';
import { harnessPerTest } from '../../analytics/helpers.ts';

const start = harnessPerTest();
const zone = 'America/New_York';

async function flowAgainstSandbox(options: { responseCacheTtlMs?: number } = {}) {
  const harness = await start(options);
  const flow = new LookupFlow({
    analytics: harness.client,
    logger: silentLogger,
    policy: { progressUpdateMs: 5_000, timeoutMs: 10_000 },
    now: harness.clock.date,
  });
  const weekly = (count: number): LookupRequest => {
    const periods = recentPeriods('week', count, harness.clock.date(), zone);
    return {
      databases: ['#hcsm'],
      start: periods[0]?.start ?? '',
      end: periods.at(-1)?.end ?? '',
      timezone: zone,
      top: 10,
      trend: { unit: 'week' },
    };
  };
  const dataQueries = () =>
    harness.sandbox.log
      .filter((record) => record.endpoint === 'data')
      .map((record) => record.query as Record<string, string>);
  return { ...harness, flow, weekly, dataQueries };
}

function recordingSink() {
  const finished: SlackMessage[] = [];
  const files: CsvFile[] = [];
  return {
    finished,
    files,
    sink: {
      progress: async () => {},
      finish: async (message: SlackMessage) => void finished.push(message),
      saveExport: async (file: CsvFile) => void files.push(file),
    },
  };
}

describe('LookupFlow with a trend', () => {
  it('asks one whole ranking per week, at once, and answers with the trend of them', async () => {
    const { flow, weekly, dataQueries } = await flowAgainstSandbox();
    const request = weekly(8);
    const { sink, finished } = recordingSink();

    expect(await flow.run(request, sink)).toBe('answered');

    const asked = dataQueries();
    const weeks = recentPeriods('week', 8, new Date('2026-03-18T09:30:00Z'), zone);
    expect(asked.map((query) => [query.start, query.end]).sort()).toEqual(
      weeks.map((week) => [week.start, week.end]).sort(),
    );
    expect(new Set(asked.map((query) => query.limit))).toEqual(new Set(['500']));
    expect(new Set(asked.map((query) => query.metric?.split(',')[0]))).toEqual(
      new Set(['mentions']),
    );
    const rankings = await flow.trendRankings(request);
    expect(rankings.map(({ period }) => period)).toEqual(weeks);
    expect(finished).toEqual([renderTrend(request, rankings, { shareable: false, actions: true })]);
    const table = finished[0]?.blocks.find((block) => block.type === 'data_table');
    expect(table?.type === 'data_table' && table.rows.length).toBe(11);
  });

  it('sends the file of every week and person when the trend asks for an export', async () => {
    const { flow, weekly } = await flowAgainstSandbox();
    const request = { ...weekly(4), export: true };
    const { sink, files, finished } = recordingSink();

    expect(await flow.run(request, sink)).toBe('answered');

    const rankings = await flow.trendRankings(request);
    expect(files).toEqual([renderTrendCsv(request, rankings)]);
    expect(finished).toEqual([renderTrend(request, rankings, { shareable: false, actions: true })]);
    // The Export CSV button under the trend sends the same file.
    expect(await flow.exportFile(weekly(4))).toEqual(renderTrendCsv(weekly(4), rankings));
  });

  it('says what it looks up while it runs', () => {
    const request: LookupRequest = {
      databases: ['#hcsm'],
      start: '2026-01-26T00:00:00-05:00',
      end: '2026-03-18T05:30:00-04:00',
      timezone: zone,
      top: 10,
      trend: { unit: 'week' },
    };
    expect(renderPending(request).text).toBe(
      'Looking up weekly ranks of top influencers for #hcsm, Jan 26, 2026 00:00 EST to Mar 18, 2026 05:30 EDT…',
    );
  });
});

describe('LookupFlow with one person', () => {
  it('asks the window, the previous period and the last 8 weeks, and places the person', async () => {
    const { flow, weekly, dataQueries, clock } = await flowAgainstSandbox();
    const window: LookupRequest = {
      databases: ['#hcsm'],
      start: '2026-02-01T00:00:00-05:00',
      end: '2026-03-01T00:00:00-05:00',
      timezone: zone,
      top: 10,
      compare: { start: '2026-01-01T00:00:00-05:00', end: '2026-02-01T00:00:00-05:00' },
    };
    const fourth = (await flow.result({ ...window, top: 4 })).influencers[3]?.screenName ?? '';
    expect(fourth).not.toBe('');
    const before = dataQueries().length;
    const request = { ...window, person: fourth.toUpperCase() };
    const { sink, finished } = recordingSink();

    expect(await flow.run(request, sink)).toBe('answered');

    const asked = dataQueries().slice(before);
    const weeks = recentPeriods('week', 8, clock.date(), zone);
    expect(asked.map((query) => [query.start, query.end]).sort()).toEqual(
      [
        [window.start, window.end],
        [window.compare?.start, window.compare?.end],
        ...weeks.map((week) => [week.start, week.end]),
      ].sort(),
    );
    expect(new Set(asked.map((query) => query.limit))).toEqual(new Set(['500']));
    const rankings = await flow.personRankings(request);
    expect(finished).toEqual([
      renderPerson(request, rankings, { shareable: false, actions: true }),
    ]);
    const card = finished[0]?.blocks.find((block) => block.type === 'section');
    expect(card?.type === 'section' && card.text?.text).toContain(
      '*#4* of the top 500 by mentions',
    );

    // A weekly trend of the same database and metric asks nothing more: its weeks are the same.
    const again = dataQueries().length;
    expect(await flow.run(weekly(8), recordingSink().sink)).toBe('answered');
    expect(dataQueries().length).toBe(again);
  });

  it('shares its weeks in flight with a weekly trend asked at the same time, without a cache', async () => {
    const { flow, weekly, dataQueries } = await flowAgainstSandbox({ responseCacheTtlMs: 0 });
    const person: LookupRequest = { ...weekly(8), person: 'someone' };
    const { trend: _trend, ...window } = person;
    const outcomes = await Promise.all([
      flow.run(window, recordingSink().sink),
      flow.run(weekly(8), recordingSink().sink),
    ]);
    expect(outcomes).toEqual(['answered', 'answered']);
    // The person's window and previous period, and the 8 weeks both ask for.
    expect(dataQueries()).toHaveLength(10);
  });

  it('compares with the previous period when the request names no comparison', async () => {
    const { flow } = await flowAgainstSandbox();
    const request: LookupRequest = {
      databases: ['#hcsm'],
      start: '2026-03-09T00:00:00-04:00',
      end: '2026-03-16T00:00:00-04:00',
      timezone: zone,
      top: 10,
      person: 'nobody_here',
    };
    const { sink, finished } = recordingSink();
    expect(await flow.run(request, sink)).toBe('answered');
    expect(finished[0]?.text).toBe(
      '@nobody_here in #hcsm, Mar 9–Mar 15: not in the top 500 by mentions',
    );
  });
});
