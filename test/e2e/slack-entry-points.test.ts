import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParseError, UnknownDatabaseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { renderError } from '../../src/render/errors.ts';
import { callbackIds, functionIds, shortcutIds } from '../../src/render/ids.ts';
import { rankingOf } from '../../src/render/ranking.ts';
import { renderStepSummary, stepTopOutOfRange } from '../../src/render/workflow-step.ts';
import type { Harness } from '../helpers/harness.ts';
import { fixedNow, rankings, request, startLookupHarness, userZone } from '../helpers/lookups.ts';
import {
  eventCallback,
  functionBotToken,
  functionExecutedEvent,
  globalShortcut,
  userId,
} from '../helpers/payloads.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startLookupHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('the Look up influencers shortcut over HTTP', () => {
  it('opens the lookup modal with its trigger, the zone prefilled', async () => {
    const shortcut = globalShortcut(shortcutIds.lookup);
    expect((await harness.send(shortcut)).status).toBe(200);
    const open = await harness.slack.waitFor(
      (call) => call.method === 'views.open' && call.args.trigger_id === shortcut.triggerId,
    );
    const view = open.args.view as { callback_id: string };
    expect(view.callback_id).toBe(callbackIds.lookupModal);
    expect(JSON.stringify(view)).toContain(userZone);
    expect(harness.slack.api('users.info').some((call) => call.args.user === userId)).toBe(true);
  });
});

describe('the top_influencers workflow step over HTTP', () => {
  const runStep = async (inputs: Record<string, unknown>) => {
    const run = functionExecutedEvent(functionIds.topInfluencers, inputs);
    expect((await harness.send(eventCallback({ event: run.event }))).status).toBe(200);
    const finished = await harness.slack.waitFor(
      (call) =>
        (call.method === 'functions.completeSuccess' ||
          call.method === 'functions.completeError') &&
        call.args.function_execution_id === run.executionId,
      15_000,
    );
    return finished;
  };

  it('completes with the ranking as mrkdwn, the first handle and the count', async () => {
    const finished = await runStep({
      databases: '#hcsm',
      window: 'last week',
      top: 5,
      metric: 'impressions',
    });
    expect(finished.method).toBe('functions.completeSuccess');
    expect(finished.authorization).toBe(`Bearer ${functionBotToken}`);
    const asked = request('#hcsm last week top 5 by impressions', 'UTC');
    const { current } = await rankings(harness, asked);
    const ranking = rankingOf(current, 'impressions', 5);
    expect(ranking.rows.length).toBeGreaterThan(0);
    expect(finished.args.outputs).toEqual({
      summary: renderStepSummary(asked, current, fixedNow),
      top_handle: ranking.rows[0]?.handle,
      count: ranking.rows.length,
    });
    expect(String((finished.args.outputs as { summary: string }).summary)).toMatch(
      /^\*Top 5 influencers for #hcsm\*, .*ranked by impressions\n1\. /,
    );
  });

  it('reads an empty window as the last 7 days and an empty count as 10', async () => {
    const finished = await runStep({ databases: '#bcsm' });
    expect(finished.method).toBe('functions.completeSuccess');
    const asked = request('#bcsm', 'UTC');
    expect(asked.top).toBe(10);
    const { current } = await rankings(harness, asked);
    expect((finished.args.outputs as { summary: string }).summary).toBe(
      renderStepSummary(asked, current, fixedNow),
    );
  });

  it('fails with the parser’s own message when the window cannot be read', async () => {
    const parsed = parseLookup('#hcsm from Nov 15 to Nov 1 top 10', {
      now: fixedNow,
      zone: 'UTC',
      conversation: true,
    }) as ParseError;
    expect(parsed).toBeInstanceOf(Error);
    const finished = await runStep({ databases: '#hcsm', window: 'from Nov 15 to Nov 1' });
    expect(finished.method).toBe('functions.completeError');
    expect(finished.args.error).toBe(parsed.message);
  });

  it.each([0, 51, 2.5, 'many'])('fails when top is %j', async (top) => {
    const finished = await runStep({ databases: '#hcsm', top });
    expect(finished.method).toBe('functions.completeError');
    expect(finished.args.error).toBe(stepTopOutOfRange(String(top), 1, 50));
  });

  it('fails with a lookup’s words when the service refuses the database', async () => {
    const finished = await runStep({ databases: '#nosuchdb', window: 'yesterday' });
    expect(finished.method).toBe('functions.completeError');
    expect(finished.args.error).toBe(renderError(new UnknownDatabaseError('#nosuchdb')).text);
  });
});
