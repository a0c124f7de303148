import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccessDeniedError } from '../../src/errors.ts';
import { type LookupRequest, parseLookup } from '../../src/parsing/index.ts';
import { renderError } from '../../src/render/errors.ts';
import {
  renderSessionTitle,
  renderUnderstood,
  renderWindowRows,
} from '../../src/render/lookups/agent.ts';
import { defaultAssistantPrompts } from '../../src/render/lookups/assistant.ts';
import type { FakeStream, SlackCall } from '../helpers/fake-slack.ts';
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
  agentSessionStoppedEvent,
  directMessageEvent,
  eventCallback,
  messagesTabOpenedEvent,
  slashCommand,
  teamId,
  userId,
} from '../helpers/payloads.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startLookupHarness();
});

afterEach(() => {
  harness.slack.refuseStreaming = undefined;
});

afterAll(async () => {
  await harness?.close();
});

/** Opens the Messages tab of `channel` and waits until its prompts are set. */
async function openTab(channel: string): Promise<SlackCall> {
  await harness.send(eventCallback({ event: messagesTabOpenedEvent(channel) }));
  return harness.slack.waitFor(
    (c) => c.method === 'assistant.threads.setSuggestedPrompts' && c.args.channel_id === channel,
  );
}

/** Types `text` in the DM `channel` (in a thread when given) and returns the message's ts. */
async function ask(channel: string, text: string, threadTs?: string): Promise<string> {
  const event = directMessageEvent(text, {
    channel,
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
  });
  await harness.send(eventCallback({ event }));
  return event.ts;
}

/** The stream of the thread, once Slack stopped it. */
async function stoppedStream(channel: string, threadTs: string): Promise<FakeStream> {
  await harness.slack.waitFor(
    (c) => c.method === 'chat.stopStream' && c.args.channel === channel,
    15_000,
  );
  const stream = [...harness.slack.streams.values()].find(
    (s) => s.channel === channel && s.threadTs === threadTs && s.stopped,
  );
  if (stream === undefined) throw new Error(`no stopped stream in ${channel}:${threadTs}`);
  return stream;
}

/** The agent session calls of the thread, in order. */
function sessionCalls(channel: string, threadTs: string): SlackCall[] {
  return harness.slack
    .api('agents.sessions.setStatus')
    .filter((c) => c.args.channel_id === channel && c.args.thread_ts === threadTs);
}

/**
 * What Slack does when Stop is clicked, before it sends `agent_session_stopped`: it stops the
 * thread's streams itself. The ts of those it stopped.
 */
function slackStopsStreams(channel: string, threadTs: string): string[] {
  return harness.slack.pressStop(channel, threadTs);
}

function tasks(stream: FakeStream): Record<string, unknown>[] {
  return stream.chunks.filter((chunk) => chunk.type === 'task_update');
}

/** A request read as a DM reads it, at the harness's clock in the fake Slack's zone. */
function conversationRequest(text: string): LookupRequest {
  const parsed = parseLookup(text, { now: fixedNow, zone: userZone, conversation: true });
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

describe('the Messages tab over HTTP', () => {
  it('offers the default prompts without a thread when the tab opens', async () => {
    const prompts = await openTab('D0AGENT001');
    expect(prompts.args.thread_ts).toBeUndefined();
    expect(prompts.args.title).toBe('Try asking');
    expect(prompts.args.prompts).toEqual(defaultAssistantPrompts);
  });

  it("offers the person's digests' databases first", async () => {
    const channelId = 'C0AGENTDIG';
    harness.slack.override('conversations.info', (args) => ({
      ok: true,
      channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
    }));
    await harness.send(slashCommand({ text: 'digest #bcsm every monday at 9am', channelId }));
    const manager = harness.running.deps.digests.manager;
    await expect.poll(async () => (await manager.listForCreator(teamId, userId)).length).toBe(1);
    const prompts = (await openTab('D0AGENT002')).args.prompts as { message: string }[];
    expect(prompts).toHaveLength(4);
    expect(prompts[0]?.message).toBe('who drove #bcsm last week?');
  });
});

describe('a streamed answer in an agent conversation', () => {
  it('starts with what was understood, shows the window as a task, then stops with the answer', async () => {
    const channel = 'D0AGENT003';
    await openTab(channel);
    const text = 'who drove #hcsm last week?';
    const ts = await ask(channel, text);
    const stream = await stoppedStream(channel, ts);
    const asked = conversationRequest(text);

    const [first, ...rest] = stream.chunks;
    expect(first).toEqual({ type: 'markdown_text', text: renderUnderstood(asked, fixedNow) });
    expect(first?.text).toContain('**#hcsm**');
    expect(first?.text).toContain('America/New_York');
    const { current } = await rankings(harness, asked);
    expect(tasks(stream)).toEqual([
      expect.objectContaining({ id: 'window-1', status: 'in_progress' }),
      expect.objectContaining({
        id: 'window-1',
        status: 'complete',
        output: renderWindowRows(current.influencers.length),
      }),
    ]);
    expect(rest.every((chunk) => chunk.type === 'task_update')).toBe(true);
    const expected = await expectedAnswer(harness, asked, { shareable: false });
    expect(stream.blocks).toEqual(expected.blocks);

    const started = harness.slack.calls.find(
      (c) => c.method === 'chat.startStream' && c.args.channel === channel,
    );
    expect(started?.args).toMatchObject({
      thread_ts: ts,
      recipient_user_id: userId,
      recipient_team_id: teamId,
    });
    // The session is processing, named after the question, from before the stream starts.
    const [processing, ...more] = sessionCalls(channel, ts);
    expect(processing?.args).toMatchObject({
      status: 'processing',
      title: renderSessionTitle(asked, fixedNow),
    });
    expect(processing?.at).toBeLessThanOrEqual(started?.at ?? 0);
    expect(more).toEqual([]);
    expect(harness.slack.sessions.get(channel, ts)).toMatchObject({
      title: renderSessionTitle(asked, fixedNow),
      statuses: ['processing', 'active'],
    });
    expect(harness.slack.api('assistant.threads.setStatus')).toEqual([]);
    // Appends land before the stop: no task is left spinning.
    const appends = harness.slack
      .api('chat.appendStream')
      .filter((c) => c.args.channel === channel);
    const stop = harness.slack.api('chat.stopStream').find((c) => c.args.channel === channel);
    expect(appends.every((c) => c.at <= (stop?.at ?? 0))).toBe(true);
    expect(stop?.args.session_status).toBe('active');
    expect(harness.slack.api('chat.postMessage').filter((c) => c.args.channel === channel)).toEqual(
      [],
    );
  });

  it('shows one task per window asked when the lookup compares', async () => {
    const channel = 'D0AGENT004';
    await openTab(channel);
    const ts = await ask(channel, '#hcsm last week vs previous period');
    const stream = await stoppedStream(channel, ts);
    const done = tasks(stream).filter((task) => task.status === 'complete');
    expect(done.map((task) => task.id).sort()).toEqual(['window-1', 'window-2']);
    expect(done.every((task) => /ranked$/.test(String(task.output)))).toBe(true);
  });

  it('stops the lookup when the person presses Stop, and says so', async () => {
    const channel = 'D0AGENT005';
    await openTab(channel);
    harness.sandbox.script({ kind: 'slow-headers', ms: 8_000 });
    const ts = await ask(channel, '#bcsm yesterday');
    await harness.slack.waitFor(
      (c) =>
        c.method === 'chat.appendStream' &&
        c.args.channel === channel &&
        JSON.stringify(c.args.chunks).includes('in_progress'),
    );
    const started = Date.now();
    await harness.send(eventCallback({ event: agentSessionStoppedEvent(channel, ts) }));
    const stream = await stoppedStream(channel, ts);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(JSON.stringify(stream.blocks)).toContain('Stopped: you pressed Stop');
    expect(tasks(stream).at(-1)).toMatchObject({
      id: 'window-1',
      status: 'error',
      output: 'stopped before the service answered',
    });
    expect(harness.logs.some((line) => line.includes('lookup stopped by the person'))).toBe(true);
    expect(harness.slack.sessions.get(channel, ts)?.statuses).toEqual(['processing', 'active']);
  });

  it('leaves processing after Stop when Slack already stopped the stream, posting nothing beside it', async () => {
    const channel = 'D0AGENT009';
    await openTab(channel);
    harness.sandbox.script({ kind: 'slow-headers', ms: 8_000 });
    const ts = await ask(channel, '#bcsm yesterday');
    await harness.slack.waitFor(
      (c) =>
        c.method === 'chat.appendStream' &&
        c.args.channel === channel &&
        JSON.stringify(c.args.chunks).includes('in_progress'),
    );
    const stopped = slackStopsStreams(channel, ts);
    expect(stopped).toHaveLength(1);
    await harness.send(eventCallback({ event: agentSessionStoppedEvent(channel, ts, stopped) }));
    await expect
      .poll(() => harness.slack.sessions.get(channel, ts)?.statuses)
      .toEqual(['processing', 'active']);
    expect(harness.logs.some((line) => line.includes('Slack stopped the streamed answer'))).toBe(
      true,
    );
    expect(harness.slack.api('chat.postMessage').filter((c) => c.args.channel === channel)).toEqual(
      [],
    );
    expect(harness.slack.streams.get(stopped[0] ?? '')?.stoppedByUser).toBe(true);
  });

  it('leaves processing when the lookup fails, the failure in the stream', async () => {
    const channel = 'D0AGENT010';
    await openTab(channel);
    const ts = await ask(channel, '"breast cancer" last week');
    const stream = await stoppedStream(channel, ts);
    expect(stream.blocks).toEqual(renderError(new AccessDeniedError('breast cancer')).blocks);
    const stop = harness.slack.api('chat.stopStream').find((c) => c.args.channel === channel);
    expect(stop?.args.session_status).toBe('active');
    expect(harness.slack.sessions.get(channel, ts)?.statuses).toEqual(['processing', 'active']);
  });
});

describe('where Slack refuses to stream', () => {
  it.each(['channel_type_not_supported', 'messages_tab_disabled'] as const)(
    'answers with a plain post as today after %s, logged once',
    async (refusal) => {
      const channel = refusal === 'messages_tab_disabled' ? 'D0AGENT006' : 'D0AGENT007';
      harness.slack.refuseStreaming = refusal;
      await openTab(channel);
      const answered = async (text: string) => {
        await ask(channel, text);
        const asked = conversationRequest(text);
        const expected = await expectedAnswer(harness, asked, { shareable: false });
        const update = await harness.slack.waitFor(
          (c) =>
            c.method === 'chat.update' &&
            c.args.channel === channel &&
            c.args.text === expected.text,
          15_000,
        );
        expect(update.args.blocks).toEqual(expected.blocks);
      };
      await answered('#hcsm yesterday');
      await answered('#bcsm yesterday');
      const starts = harness.slack
        .api('chat.startStream')
        .filter((c) => c.args.channel === channel);
      expect(starts).toHaveLength(1);
      const refusals = harness.logs.filter(
        (line) => line.includes(refusal) && line.includes(channel),
      );
      expect(refusals).toHaveLength(1);
      const posts = harness.slack.api('chat.postMessage').filter((c) => c.args.channel === channel);
      expect(posts).toHaveLength(2);
    },
  );
});

describe('a follow-up in a thread', () => {
  it('keeps the window and options of the thread’s previous question', async () => {
    const channel = 'D0AGENT008';
    await openTab(channel);
    const ts = await ask(channel, '#hcsm last month by impressions');
    await stoppedStream(channel, ts);
    await ask(channel, 'and for #bcsm?', ts);
    await expect
      .poll(
        () =>
          [...harness.slack.streams.values()].filter((s) => s.channel === channel && s.stopped)
            .length,
        { timeout: 15_000 },
      )
      .toBe(2);
    const [, second] = [...harness.slack.streams.values()].filter((s) => s.channel === channel);
    const asked = request('#bcsm last month by impressions');
    expect(second?.threadTs).toBe(ts);
    expect(second?.chunks[0]).toEqual({
      type: 'markdown_text',
      text: renderUnderstood(asked, fixedNow),
    });
    const expected = await expectedAnswer(harness, asked, { shareable: false });
    expect(second?.blocks).toEqual(expected.blocks);
    // The session keeps the first question's title and works once per question.
    expect(harness.slack.sessions.get(channel, ts)).toMatchObject({
      title: renderSessionTitle(request('#hcsm last month by impressions'), fixedNow),
      statuses: ['processing', 'active', 'processing', 'active'],
    });
    expect(harness.slack.api('agents.sessions.rename')).toEqual([]);
  });
});

describe('a DM outside the agent experience', () => {
  it('is answered as today: a pending post replaced by the answer, nothing streamed', async () => {
    const channel = 'D0PLAINDM1';
    const text = '#hcsm yesterday';
    await ask(channel, text);
    const asked = conversationRequest(text);
    const expected = await expectedAnswer(harness, asked, { shareable: false });
    await harness.slack.waitFor(
      (c) =>
        c.method === 'chat.update' && c.args.channel === channel && c.args.text === expected.text,
      15_000,
    );
    expect(harness.slack.api('chat.startStream').some((c) => c.args.channel === channel)).toBe(
      false,
    );
  });
});
