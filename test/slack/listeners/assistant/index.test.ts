import type { Assistant } from '@slack/bolt';
import { describe, expect, it, vi } from 'vitest';
import {
  renderAssistantPrompts,
  renderAssistantStatus,
  renderAssistantTitle,
} from '../../../../src/render/lookups/assistant.ts';
import { renderHelp } from '../../../../src/render/lookups/help.ts';
import { register } from '../../../../src/slack/listeners/assistant/index.ts';
import {
  eventArgs,
  fakeApp,
  type ListenerWorld,
  storedDigest,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { fixedNow, request } from '../../../helpers/lookups.ts';
import {
  assistantThreadStartedEvent,
  directMessageEvent,
  teamId,
  userId,
} from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });

/**
 * The assistant pane as `register` builds it: each event goes through Bolt's own Assistant
 * middleware, whose status, prompt and title helpers call Slack through the listener's client.
 */
function pane(w: ListenerWorld) {
  const { app, registered } = fakeApp();
  register(app, w.deps);
  const assistant = registered[0]?.listener as Assistant;
  const middleware = assistant.getMiddleware();
  const deliver = async (event: Record<string, unknown>, eventId?: string) => {
    const args = eventArgs(w, event, eventId === undefined ? {} : { eventId });
    await middleware(args as unknown as Parameters<typeof middleware>[0]);
    await w.settle();
    return args;
  };
  return {
    /** The person opened the pane (beside `channel`); resolves with the new thread's ts. */
    async open(channel?: string, eventId?: string): Promise<string> {
      const started = assistantThreadStartedEvent(channel);
      await deliver(started.event, eventId);
      return started.threadTs;
    },
    /** The person typed `text` in the thread `threadTs` of the app's DM. */
    ask: (threadTs: string, text: string, extra: Record<string, unknown> = {}) =>
      deliver(directMessageEvent(text, { thread_ts: threadTs, ...extra })),
    changed: (threadTs: string, channel: string) =>
      deliver({
        type: 'assistant_thread_context_changed',
        assistant_thread: {
          user_id: userId,
          context: { channel_id: channel, team_id: teamId },
          channel_id: 'D0DIRECT01',
          thread_ts: threadTs,
        },
        event_ts: '1700000000.000800',
      }),
  };
}

/** The calls of `method` made in the thread `threadTs`. */
const inThread = (w: ListenerWorld, method: string, threadTs: string) =>
  w.slack.api(method).filter((call) => call.args.thread_ts === threadTs);

describe('assistant register', () => {
  it('adds Bolt’s Assistant, and nothing else', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    expect(registered.map(({ method }) => method)).toEqual(['assistant']);
  });
});

describe('a new assistant thread', () => {
  it('offers the default prompts when the pane opens beside no channel', async () => {
    const w = world();
    const threadTs = await pane(w).open();
    const { title, prompts } = renderAssistantPrompts([]);
    expect(inThread(w, 'assistant.threads.setSuggestedPrompts', threadTs)).toEqual([
      expect.objectContaining({
        args: { channel_id: 'D0DIRECT01', thread_ts: threadTs, title, prompts },
      }),
    ]);
  });

  it('offers the databases of the digests of the channel beside the pane first', async () => {
    const w = world();
    await storedDigest(w, { channelId: 'C0DIGESTS1', databases: ['#bcsm'] });
    const threadTs = await pane(w).open('C0DIGESTS1');
    const [offered] = inThread(w, 'assistant.threads.setSuggestedPrompts', threadTs);
    expect(offered?.args.prompts).toEqual(renderAssistantPrompts([['#bcsm']]).prompts);
  });

  it('offers prompts once for Slack’s redeliveries of the event', async () => {
    const w = world();
    const assistant = pane(w);
    await assistant.open(undefined, 'Ev0SAME0003');
    await assistant.open(undefined, 'Ev0SAME0003');
    expect(w.slack.api('assistant.threads.setSuggestedPrompts')).toHaveLength(1);
  });

  it('logs, and throws nothing, when Slack refuses the prompts', async () => {
    const w = world();
    w.slack.override('assistant.threads.setSuggestedPrompts', () => ({
      ok: false,
      error: 'invalid_arguments',
    }));
    await pane(w).open();
    expect(w.logged('could not offer prompts in a new assistant thread')).toEqual([
      expect.objectContaining({ slackError: 'invalid_arguments' }),
    ]);
  });
});

describe('a question in an assistant thread', () => {
  it('shows the status, titles the thread, then posts the answer in the thread', async () => {
    const w = world();
    const assistant = pane(w);
    const threadTs = await assistant.open();
    await assistant.ask(threadTs, '#hcsm last week');
    const asked = request('#hcsm last week');
    expect(inThread(w, 'assistant.threads.setStatus', threadTs).map((c) => c.args.status)).toEqual([
      renderAssistantStatus(asked),
    ]);
    expect(inThread(w, 'assistant.threads.setTitle', threadTs).map((c) => c.args.title)).toEqual([
      renderAssistantTitle(asked, fixedNow),
    ]);
    const posts = inThread(w, 'chat.postMessage', threadTs);
    expect(posts.map((post) => post.args.text)).toEqual([
      expect.stringMatching(/influencers for #hcsm/),
    ]);
    expect(w.slack.api('chat.update')).toEqual([]);
  });

  it('titles the thread after its first lookup only', async () => {
    const w = world();
    const assistant = pane(w);
    const threadTs = await assistant.open();
    await assistant.ask(threadTs, '#hcsm last week');
    await assistant.ask(threadTs, '#bcsm yesterday');
    expect(inThread(w, 'assistant.threads.setStatus', threadTs)).toHaveLength(2);
    expect(inThread(w, 'assistant.threads.setTitle', threadTs)).toHaveLength(1);
  });

  it('reads a follow-up with the thread’s last question, another thread keeping its own', async () => {
    const w = world();
    const runs = vi.spyOn(w.deps.flow, 'run');
    const assistant = pane(w);
    const threadTs = await assistant.open();
    await assistant.ask(threadTs, '#hcsm last month by impressions');
    await assistant.ask(threadTs, 'and for #bcsm?');
    const other = await assistant.open();
    await assistant.ask(other, 'how about #bcsm?');
    const asked = runs.mock.calls.map(([request]) => request);
    expect(asked.slice(0, 2)).toEqual([
      request('#hcsm last month by impressions'),
      request('#bcsm last month by impressions'),
    ]);
    expect(asked.slice(2)).not.toContainEqual(request('#bcsm last month by impressions'));
  });

  it('answers help with the usage, without a status', async () => {
    const w = world();
    const assistant = pane(w);
    const threadTs = await assistant.open();
    await assistant.ask(threadTs, 'help');
    expect(inThread(w, 'chat.postMessage', threadTs).map((post) => post.args.text)).toEqual([
      renderHelp().text,
    ]);
    expect(w.slack.api('assistant.threads.setStatus')).toEqual([]);
  });

  it('still answers when Slack refuses the status line', async () => {
    const w = world();
    w.slack.override('assistant.threads.setStatus', () => ({
      ok: false,
      error: 'invalid_thread_ts',
    }));
    const assistant = pane(w);
    const threadTs = await assistant.open();
    await assistant.ask(threadTs, '#hcsm last week');
    expect(w.logged('could not call assistant.threads.setStatus')).toHaveLength(1);
    expect(inThread(w, 'chat.postMessage', threadTs)).toHaveLength(1);
  });

  it('answers a thread it did not see open as a DM thread: a pending post, then the answer', async () => {
    const w = world();
    await pane(w).ask('1700000000.000900', '#hcsm last week');
    expect(w.slack.api('assistant.threads.setStatus')).toEqual([]);
    expect(inThread(w, 'chat.postMessage', '1700000000.000900')).toHaveLength(1);
    expect(w.slack.api('chat.update')).toHaveLength(1);
  });

  it('answers as the pane once the thread’s context changes', async () => {
    const w = world();
    const assistant = pane(w);
    await assistant.changed('1700000000.000900', 'C0CHANNEL1');
    await assistant.ask('1700000000.000900', '#hcsm last week');
    expect(inThread(w, 'assistant.threads.setStatus', '1700000000.000900')).toHaveLength(1);
    expect(w.slack.api('chat.update')).toEqual([]);
  });

  it('ignores the bot’s own posts in the thread', async () => {
    const w = world();
    const assistant = pane(w);
    const threadTs = await assistant.open();
    const before = w.slack.calls.length;
    await assistant.ask(threadTs, '#hcsm last week', { bot_id: 'B0BOT0001' });
    expect(w.slack.calls.slice(before)).toEqual([]);
    expect(w.asked()).toBe(0);
  });
});
