import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParseError, UnknownDatabaseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { renderError } from '../../src/render/errors.ts';
import { callbackIds, functionIds, shortcutIds } from '../../src/render/ids.ts';
import {
  defaultAssistantPrompts,
  renderAssistantTitle,
} from '../../src/render/lookups/assistant.ts';
import { renderHelp } from '../../src/render/lookups/help.ts';
import { rankingOf } from '../../src/render/lookups/ranking.ts';
import { renderStepSummary, stepTopOutOfRange } from '../../src/render/lookups/workflow-step.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import type { Harness } from '../helpers/harness.ts';
import {
  expectedAnswer,
  fixedNow,
  rankings,
  request,
  startLookupHarness,
  userZone,
} from '../helpers/lookups.ts';
import {
  assistantThreadStartedEvent,
  directMessageEvent,
  eventCallback,
  functionBotToken,
  functionExecutedEvent,
  globalShortcut,
  slashCommand,
  teamId,
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
      /^\*Top 5 influencers for #hcsm\*, .*ranked by impressions\nWho: [^\n]+\n1\. /,
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
    const parsed = parseLookup('#hcsm from Nov 15 to Nov 1', {
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

describe('the assistant pane over HTTP', () => {
  it('offers the default prompts in a thread opened away from any digest', async () => {
    const started = assistantThreadStartedEvent();
    await harness.send(eventCallback({ event: started.event }));
    const call = await harness.slack.waitFor(
      (c) =>
        c.method === 'assistant.threads.setSuggestedPrompts' &&
        c.args.thread_ts === started.threadTs,
    );
    expect(call.args.channel_id).toBe('D0DIRECT01');
    expect(call.args.title).toBe('Try asking');
    expect(call.args.prompts).toEqual(defaultAssistantPrompts);
  });

  it("offers the channel's digests' databases first when opened beside a channel with digests", async () => {
    const channelId = 'C0DIGESTS1';
    harness.slack.override('conversations.info', (args) => ({
      ok: true,
      channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
    }));
    await harness.send(
      slashCommand({ text: 'digest #hcsm and #bcsm every monday at 9am', channelId }),
    );
    const manager = harness.running.deps.digests.manager;
    await expect.poll(async () => (await manager.listForChannel(teamId, channelId)).length).toBe(1);

    const started = assistantThreadStartedEvent(channelId);
    await harness.send(eventCallback({ event: started.event }));
    const call = await harness.slack.waitFor(
      (c) =>
        c.method === 'assistant.threads.setSuggestedPrompts' &&
        c.args.thread_ts === started.threadTs,
    );
    const prompts = call.args.prompts as { title: string; message: string }[];
    expect(prompts).toHaveLength(4);
    expect(prompts[0]).toEqual({
      title: 'Who drove #hcsm, #bcsm last week?',
      message: 'who drove #hcsm, #bcsm last week?',
    });
    expect(prompts.slice(1)).toEqual(defaultAssistantPrompts.slice(0, 3));
  });

  it('shows a status, titles the thread, then answers in the thread with the buttons', async () => {
    const started = assistantThreadStartedEvent();
    await harness.send(eventCallback({ event: started.event }));
    const text = 'who drove #hcsm last week?';
    await harness.send(
      eventCallback({ event: directMessageEvent(text, { thread_ts: started.threadTs }) }),
    );
    const inThread = (method: string) => (c: SlackCall) =>
      c.method === method && c.args.thread_ts === started.threadTs;
    const answer = await harness.slack.waitFor(inThread('chat.postMessage'), 15_000);
    const status = harness.slack.calls.find(inThread('assistant.threads.setStatus'));
    const title = harness.slack.calls.find(inThread('assistant.threads.setTitle'));
    expect(status?.args.status).toBe('is looking up #hcsm…');
    expect(status?.at).toBeLessThanOrEqual(answer.at);
    const asked = request('#hcsm last week');
    expect(title?.args.title).toBe(renderAssistantTitle(asked, fixedNow));
    expect(answer.args.channel).toBe('D0DIRECT01');
    const expected = await expectedAnswer(harness, asked, { shareable: false });
    expect(answer.args.text).toBe(expected.text);
    expect(answer.args.blocks).toEqual(expected.blocks);
    // No "still looking" post and no chat.update: the status line stands in for them.
    expect(harness.slack.calls.filter(inThread('chat.postMessage'))).toHaveLength(1);

    await harness.send(
      eventCallback({
        event: directMessageEvent('#bcsm yesterday', { thread_ts: started.threadTs }),
      }),
    );
    await harness.slack.waitFor((c) => inThread('chat.postMessage')(c) && c !== answer, 15_000);
    expect(harness.slack.calls.filter(inThread('assistant.threads.setStatus'))).toHaveLength(2);
    expect(harness.slack.calls.filter(inThread('assistant.threads.setTitle'))).toHaveLength(1);
  });

  it('answers help in the thread without a status', async () => {
    const started = assistantThreadStartedEvent();
    await harness.send(eventCallback({ event: started.event }));
    await harness.send(
      eventCallback({ event: directMessageEvent('help', { thread_ts: started.threadTs }) }),
    );
    const answer = await harness.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === started.threadTs,
    );
    expect(answer.args.text).toBe(renderHelp().text);
    expect(
      harness.slack.calls.some(
        (c) => c.method === 'assistant.threads.setStatus' && c.args.thread_ts === started.threadTs,
      ),
    ).toBe(false);
  });
});
