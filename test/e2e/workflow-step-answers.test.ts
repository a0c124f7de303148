/**
 * The top_influencers workflow step over signed HTTP, the app started for real against the sandbox
 * (whose people carry categories and follower counts) and Slack faked through the `fetch` Bolt is
 * given: a trend and one person are answered as every other surface answers them, in words, and
 * the step's Who input keeps only those people.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.ts';
import type { LookupFlow } from '../../src/flows/lookup/index.ts';
import { functionIds } from '../../src/render/ids.ts';
import { renderPerson } from '../../src/render/lookups/person.ts';
import { renderTrend, trendOf } from '../../src/render/lookups/trend.ts';
import { renderStepSummary, stepSummaryOf } from '../../src/render/lookups/workflow-step.ts';
import { testCore } from '../helpers/core.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { now, request } from '../helpers/lookups.ts';
import { eventCallback, functionExecutedEvent } from '../helpers/payloads.ts';

let h: Harness;
let core: Core;
/** The lookup flow at the app's clock on a client of the test's own: what the step should say. */
let flow: LookupFlow;

beforeAll(async () => {
  h = await startHarness({
    env: { LOOKUP_TIMEOUT_MS: '10000' },
    sandbox: { now },
    overrides: { now },
  });
  core = testCore({
    sandboxUrl: h.sandbox.url,
    lookup: { progressUpdateMs: 10_000, timeoutMs: 10_000 },
    now,
  });
  flow = core.lookup;
});

afterAll(async () => {
  await core?.close(1_000);
  await h?.close();
});

interface Outputs {
  readonly summary: string;
  readonly top_handle?: string;
  readonly count: number;
}

/** Runs the step with these inputs and waits for the call that finishes it. */
async function runStep(inputs: Record<string, unknown>): Promise<SlackCall> {
  const run = functionExecutedEvent(functionIds.topInfluencers, inputs);
  expect((await h.send(eventCallback({ event: run.event }))).status).toBe(200);
  return h.slack.waitFor(
    (call) =>
      (call.method === 'functions.completeSuccess' || call.method === 'functions.completeError') &&
      call.args.function_execution_id === run.executionId,
    15_000,
  );
}

const dataRequests = (from: number) =>
  h.sandbox.log.slice(from).filter((record) => record.endpoint === 'data');

describe('the top_influencers step asked for a ranking with a Who input', () => {
  it('keeps only those people of the top 500, ranked by followers, and says so', async () => {
    const before = h.sandbox.log.length;
    const finished = await runStep({
      databases: '#hcsm',
      window: 'last month',
      top: 5,
      metric: 'followers',
      stakeholders: 'patients and caregivers, no pharma',
    });
    expect(finished.method).toBe('functions.completeSuccess');
    expect(dataRequests(before).map((record) => record.query.limit)).toEqual(['500']);
    const asked = request(
      '#hcsm last month top 5 by followers patients and caregivers, no pharma',
      'UTC',
    );
    const current = await flow.result(asked);
    expect(current.influencers).toHaveLength(5);
    for (const person of current.influencers) {
      const names = person.stakeholderCategories.map((category) => String(category?.name));
      expect(names.some((name) => name === 'Patient Advocate' || name === 'Caregiver')).toBe(true);
    }
    const outputs = finished.args.outputs as Outputs;
    expect(outputs).toEqual({
      summary: renderStepSummary(asked, current, now()),
      top_handle: current.influencers[0]?.screenName,
      count: 5,
    });
    expect(outputs.summary).toMatch(
      /^\*Top 5 influencers for #hcsm\*, .*, ranked by followers, among the top 500 by mentions\nPatient advocates and Caregivers, excluding Pharma orgs among the top 500 by mentions: \d+ · showing 5\nWho: (Patient advocates?|Caregivers?) [^\n]+\n1\. .* · [\d.]+K? followers\n/,
    );
  });
});

describe('the top_influencers step asked for a trend', () => {
  it('answers #hcsm last 8 weeks weekly with the trend in words, keeping only doctors', async () => {
    const before = h.sandbox.log.length;
    const finished = await runStep({
      databases: '#hcsm',
      window: 'last 8 weeks weekly',
      stakeholders: 'doctors',
    });
    expect(finished.method).toBe('functions.completeSuccess');

    // One whole ranking a week, filtered here: the service has no such filter.
    const weeks = dataRequests(before);
    expect(weeks).toHaveLength(8);
    expect(new Set(weeks.map((record) => record.query.limit))).toEqual(new Set(['500']));

    const asked = request('#hcsm last 8 weeks weekly doctors', 'UTC');
    const periods = await flow.trendRankings(asked);
    const { people } = trendOf(asked, periods);
    expect(people).toHaveLength(10);
    for (const { row } of people) expect(row.categories).toContain('Doctor');
    const outputs = finished.args.outputs as Outputs;
    expect(outputs).toEqual({
      summary: stepSummaryOf(renderTrend(asked, periods)),
      top_handle: people[0]?.row.screenName,
      count: 10,
    });
    expect(outputs.summary).toMatch(/^\*Weekly trend for #hcsm\*\n8 weeks, Sep 28–Nov 21/);
    expect(outputs.summary).toContain("Doctors among each week's top 500 by mentions");
    // The rank over time as a workspace without tables shows it, one line a person.
    expect(outputs.summary).toMatch(/```\nInfluencer +Sep 28 +Oct 5 .* Nov 16\n/);
    expect(outputs.summary).toContain('Who: Doctors 10');
    expect(outputs.summary.length).toBeLessThanOrEqual(3000);
  });

  it('ranks a trend by followers when the metric input says followers', async () => {
    const finished = await runStep({
      databases: '#bcsm',
      window: 'last 4 weeks by week',
      metric: 'followers',
    });
    expect(finished.method).toBe('functions.completeSuccess');
    const asked = request('#bcsm last 4 weeks by week by followers', 'UTC');
    const periods = await flow.trendRankings(asked);
    const outputs = finished.args.outputs as Outputs;
    expect(outputs.summary).toBe(stepSummaryOf(renderTrend(asked, periods)));
    expect(outputs.summary).toContain('ranked by followers, among the top 500 by mentions');
  });
});

describe('the top_influencers step asked about one person', () => {
  it('answers @handle in #hcsm last month with their rank, move and weeks in words', async () => {
    const month = request('#hcsm last month', 'UTC');
    const third = (await flow.result({ ...month, top: 3 })).influencers[2]?.screenName ?? '';
    expect(third).not.toBe('');
    const finished = await runStep({ databases: `@${third} in #hcsm`, window: 'last month' });
    expect(finished.method).toBe('functions.completeSuccess');
    const asked = request(`@${third} in #hcsm last month`, 'UTC');
    const outputs = finished.args.outputs as Outputs;
    expect(outputs).toEqual({
      summary: stepSummaryOf(renderPerson(asked, await flow.personRankings(asked))),
      top_handle: third,
      count: 1,
    });
    expect(outputs.summary).toMatch(new RegExp(`^\\*@${third} in #hcsm\\*\\nWindow: Oct 1, 2026`));
    expect(outputs.summary).toMatch(/\*#3\* of the top 500 by mentions · /);
    expect(outputs.summary).toMatch(
      /\*Rank by week\* \(ranked by mentions\)\nThe week of Sep 28: /,
    );
  });

  it('says when the person is not in the top 500, with no handle and a count of 0', async () => {
    const finished = await runStep({ databases: '@NobodyRanks in #hcsm', window: 'last month' });
    expect(finished.method).toBe('functions.completeSuccess');
    const outputs = finished.args.outputs as Outputs;
    expect(outputs.top_handle).toBeUndefined();
    expect(outputs.count).toBe(0);
    expect(outputs.summary).toContain(
      '*@NobodyRanks* is not in the top 500 by mentions of #hcsm in this window',
    );
  });

  it('fails with the parser’s words when the Who input would change whom they rank among', async () => {
    const finished = await runStep({
      databases: '@DrFerreiraI in #hcsm',
      window: 'last month',
      stakeholders: 'doctors',
    });
    expect(finished.method).toBe('functions.completeError');
    expect(finished.args.error).toMatch(/leave out “doctors”\. Try: @DrFerreiraI in #hcsm/);
  });
});
