/**
 * The analyst's answer through the lookup flow, against the sandbox over real sockets: compared
 * windows asked at once and shared, the ranking metric, tables and exports.
 */
import { describe, expect, it } from 'vitest';
import { ExportFailedError } from '../../../src/errors.ts';
import { type CsvFile, LookupFlow, shownInMessage } from '../../../src/flows/lookup/index.ts';
import { createLogger } from '../../../src/logger.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { parseLookup } from '../../../src/parsing/index.ts';
import { renderError } from '../../../src/render/errors.ts';
import { renderAnswer } from '../../../src/render/lookups/answer.ts';
import { renderCsv } from '../../../src/render/lookups/csv.ts';
import { harnessPerTest } from '../../analytics/helpers.ts';

const start = harnessPerTest();

async function flowAgainstSandbox(options: { responseCacheTtlMs?: number } = {}) {
  const harness = await start(options);
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => lines.push(line) },
  });
  const flow = new LookupFlow({
    analytics: harness.client,
    logger,
    policy: { progressUpdateMs: 5_000, timeoutMs: 10_000 },
    now: harness.clock.date,
  });
  const read = (text: string): LookupRequest => {
    const parsed = parseLookup(text, { now: harness.clock.date(), zone: 'UTC' });
    if (parsed instanceof Error) throw parsed;
    return parsed;
  };
  return { ...harness, flow, read, lines };
}

function recordingSink(saveExport?: (file: CsvFile) => Promise<void>) {
  const finished: SlackMessage[] = [];
  const notices: SlackMessage[] = [];
  return {
    finished,
    notices,
    sink: {
      progress: async () => {},
      finish: async (message: SlackMessage) => void finished.push(message),
      notice: async (message: SlackMessage) => void notices.push(message),
      ...(saveExport === undefined ? {} : { saveExport }),
    },
  };
}

describe('LookupFlow with a comparison', () => {
  it('asks for both windows at once and renders the answer with the previous ranking', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    const request = read('#hcsm last week vs previous period');
    const { sink, finished } = recordingSink();

    expect(await flow.run(request, sink)).toBe('answered');

    const data = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(data.map((record) => [record.query.start, record.query.end]).sort()).toEqual(
      [
        [request.compare?.start, request.compare?.end],
        [request.start, request.end],
      ].sort(),
    );
    const { current, previous } = await flow.results(request);
    if (previous === undefined) throw new Error('a compared lookup has a previous ranking');
    expect(finished).toEqual([
      renderAnswer(request, current, { shareable: false, actions: true, previous }),
    ]);
  });

  it('asks for the previous period 500 deep, so a rank then is known beyond the top N', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    const request = read('#hcsm last month vs previous period chart');
    const { current, previous } = await flow.results(request);
    if (previous === undefined) throw new Error('a compared lookup has a previous ranking');
    const asked = sandbox.log.filter((record) => record.endpoint === 'data');
    const previousCall = asked.find((record) => record.query.start === request.compare?.start);
    expect(previousCall?.query.limit).toBe('500');
    // Everyone of this month's top 10 who was in last month's top 500 has their rank then.
    const known = new Set(previous.influencers.map((person) => person.screenName.toLowerCase()));
    const shown = current.influencers.slice(0, 10);
    expect(previous.influencers.length).toBeGreaterThan(10);
    expect(shown.some((person) => known.has(person.screenName.toLowerCase()))).toBe(true);
  });

  it('does not wait for one window before asking for the other', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    await flow.result(read('#hcsm yesterday'));
    sandbox.setLatency(800);
    const timed = async (text: string) => {
      const started = performance.now();
      expect(await flow.run(read(text), recordingSink().sink)).toBe('answered');
      return performance.now() - started;
    };
    const single = await timed('#bcsm last month');
    const compared = await timed('#lcsm last month vs previous');
    // One window after the other would take a whole latency more.
    expect(compared).toBeLessThan(single + 400);
  });

  it('shares identical compared lookups in flight: two calls for many lookups', async () => {
    const { flow, read, dataRequests } = await flowAgainstSandbox();
    const request = read('#hcsm last week vs previous period');
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => flow.run(request, recordingSink().sink)),
    );
    expect(outcomes.every((outcome) => outcome === 'answered')).toBe(true);
    expect(dataRequests()).toBe(2);
    await flow.run(request, recordingSink().sink);
    expect(dataRequests()).toBe(2);
  });

  it('compares with the period of equal length just before, as vs previous period reads it', async () => {
    const { flow, read } = await flowAgainstSandbox();
    expect(flow.comparedWithPrevious(read('#hcsm last week'))).toEqual(
      read('#hcsm last week vs previous period'),
    );
  });
});

describe('LookupFlow ranking by a metric', () => {
  it('asks the sandbox for the chosen metric first and gets the ranking sorted by it', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    const request = read('#hcsm last week by impressions top 20');
    const { current } = await flow.results(request);
    const impressions = current.influencers.map((influencer) => influencer.metrics.impressions);
    expect(impressions).toEqual([...impressions].sort((a, b) => (b ?? 0) - (a ?? 0)));
    expect(current.influencers).toHaveLength(20);
    const [data] = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(data?.query).toMatchObject({
      limit: '20',
      metric: 'impressions,hsg_score,mentions,retweets,tweets,replies',
    });
  });
});

describe('LookupFlow with an export', () => {
  it('answers, then hands the whole ranking to the sink as a CSV file', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    const request = read('#hcsm last week export');
    const files: CsvFile[] = [];
    const { sink, finished } = recordingSink(async (file) => void files.push(file));

    expect(await flow.run(request, sink)).toBe('answered');

    const { current } = await flow.results(request);
    expect(current.influencers.length).toBeGreaterThan(10);
    expect(files).toEqual([renderCsv(request, current)]);
    expect(finished).toEqual([
      renderAnswer(shownInMessage(request), current, { shareable: false, actions: true }),
    ]);
    const data = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(data.map((record) => record.query.limit)).toEqual(['500']);
  });

  it('says why the file did not arrive, after the answer', async () => {
    const { flow, read, lines } = await flowAgainstSandbox();
    const refusal = new ExportFailedError('missing_scope', 'D0DM');
    const { sink, finished, notices } = recordingSink(async () => {
      throw refusal;
    });
    expect(await flow.run(read('#hcsm last week csv top 30'), sink)).toBe('answered');
    expect(finished).toHaveLength(1);
    expect(notices).toEqual([renderError(refusal)]);
    expect(lines.some((line) => line.includes('could not deliver a CSV export'))).toBe(true);
  });

  it('gives the Export button the whole ranking of the window, without the comparison', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    const request = read('#hcsm last week vs previous top 5');
    const file = await flow.exportFile(request);
    const { compare: _compare, ...window } = request;
    const whole = { ...window, top: 500, export: true };
    expect(file).toEqual(renderCsv(whole, await flow.result(whole)));
    const data = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(data.map((record) => [record.query.start, record.query.limit])).toEqual([
      [request.start, '500'],
    ]);
  });
});

describe('shownInMessage', () => {
  const now = new Date('2026-11-21T15:30:00Z');
  const read = (text: string) => parseLookup(text, { now, zone: 'UTC' }) as LookupRequest;

  it.each([
    ['#x last week', 10],
    ['#x last week top 40', 40],
    ['#x last week export', 10],
    ['#x last week export top 5', 5],
    ['#x last week export top 60', 60],
    ['#x last week export top 300', 100],
    ['#x last week table export', 100],
    ['#x last week chart categories export', 100],
  ])('shows %s with %i people in the message', (text, top) => {
    expect(shownInMessage(read(text)).top).toBe(top);
  });
});

describe('LookupFlow choosing who ranks', () => {
  it('asks for the top 500 and keeps only the doctors, saying how many of the 500 they are', async () => {
    const { flow, read, sandbox } = await flowAgainstSandbox();
    const request: LookupRequest = {
      ...read('#hcsm last week top 5'),
      stakeholders: { include: ['Doctor'], exclude: [] },
    };
    const { sink, finished } = recordingSink();

    expect(await flow.run(request, sink)).toBe('answered');

    const [data] = sandbox.log.filter((record) => record.endpoint === 'data');
    expect(data?.query.limit).toBe('500');
    const { current } = await flow.results(request);
    expect(current.influencers.length).toBeGreaterThan(0);
    expect(current.influencers.length).toBeLessThanOrEqual(5);
    for (const person of current.influencers) {
      expect(person.stakeholderCategories.map((category) => category.name)).toContain('Doctor');
    }
    const matched = current.selection?.matched ?? 0;
    expect(JSON.stringify(finished[0])).toContain(
      `Doctors among the top ${current.selection?.pool} by mentions: ${matched} · showing ${current.influencers.length}`,
    );
  });

  it('ranks the top 500 by mentions by their followers and says so', async () => {
    const { flow, read } = await flowAgainstSandbox();
    const request: LookupRequest = { ...read('#hcsm last week top 10'), orderBy: 'followers' };
    const { current } = await flow.results(request);
    const followers = current.influencers.map((person) => person.followersCount ?? -1);
    expect(followers).toEqual([...followers].sort((a, b) => b - a));
    const message = renderAnswer(request, current);
    expect(JSON.stringify(message)).toContain(
      `ranked by followers, among the top ${current.selection?.pool} by mentions`,
    );
  });

  it('exports only the people the filter keeps', async () => {
    const { flow, read } = await flowAgainstSandbox();
    const request: LookupRequest = {
      ...read('#hcsm last week'),
      stakeholders: { include: [], exclude: ['Org. Pharma', 'Org. Provider'] },
    };
    const file = await flow.exportFile(request);
    expect(file.content).not.toMatch(/Org\. Pharma|Org\. Provider/);
    expect(file.comment).toContain('Everyone but Pharma orgs and Provider orgs among the top');
  });
});
