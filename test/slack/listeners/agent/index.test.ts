import { describe, expect, it } from 'vitest';
import { defaultAssistantPrompts } from '../../../../src/render/lookups/assistant.ts';
import { renderHelp } from '../../../../src/render/lookups/help.ts';
import type { SlackDeps } from '../../../../src/slack/deps.ts';
import { register } from '../../../../src/slack/listeners/agent/index.ts';
import {
  eventArgs,
  fakeApp,
  type ListenerWorld,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import {
  agentSessionStoppedEvent,
  directMessageEvent,
  messagesTabOpenedEvent,
  teamId,
  userId,
} from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });
const dm = 'D0DIRECT01';

/**
 * The agent folder as `register` builds it on `deps` (an instance of the app): its middleware and
 * its event listeners, in the DM `channel`.
 */
function agent(w: ListenerWorld, deps: SlackDeps = w.deps, channel = dm) {
  const fake = fakeApp();
  register(fake.app, deps);
  const middleware = fake.registered.find((entry) => entry.method === 'use')?.listener as (
    args: unknown,
  ) => Promise<void>;
  const tabOpened = fake.listener('event', 'app_home_opened');
  const stopped = fake.listener('event', 'agent_session_stopped');
  return {
    async open(tab: 'messages' | 'home' = 'messages') {
      await tabOpened(eventArgs(w, { ...messagesTabOpenedEvent(channel), tab }));
    },
    /** Delivers a DM to the middleware; resolves with whether it let the request go on. */
    async ask(text: string, extra: Record<string, unknown> = {}) {
      const event = directMessageEvent(text, { channel, ...extra });
      const args = eventArgs(w, event);
      await middleware(args);
      await w.settle();
      return { passedOn: args.next.mock.calls.length > 0, ts: event.ts };
    },
    stop: (threadTs: string, streaming: string[] = []) =>
      stopped(eventArgs(w, agentSessionStoppedEvent(channel, threadTs, streaming))),
    /** The person renames the thread's session in Slack. */
    async rename(threadTs: string, title: string) {
      const session = w.slack.sessions.get(channel, threadTs);
      if (session !== undefined) session.title = title;
      const renamed = fake.listener('event', 'agent_session_title_changed');
      await renamed(
        eventArgs(w, {
          type: 'agent_session_title_changed',
          channel,
          user: userId,
          team_id: teamId,
          thread_ts: threadTs,
          title,
          event_ts: '1700000000.000950',
        }),
      );
    },
  };
}

/** Deps whose waits for Retry-After move the fake Slack's clock instead of real time. */
function fakeTime(w: ListenerWorld) {
  let now = 1_800_000_000_000;
  const waited: number[] = [];
  w.slack.clock = () => now;
  const deps: SlackDeps = {
    ...w.deps,
    sleep: async (ms) => {
      waited.push(ms);
      now += ms;
    },
  };
  return { deps, waited };
}

describe('the Messages tab', () => {
  it('offers prompts in the DM without a thread', async () => {
    const w = world();
    await agent(w).open();
    const [prompts] = w.slack.api('assistant.threads.setSuggestedPrompts');
    expect(prompts?.args).toMatchObject({ channel_id: dm, prompts: defaultAssistantPrompts });
    expect(prompts?.args.thread_ts).toBeUndefined();
  });

  it('ignores the Home tab, whose DM stays a plain one', async () => {
    const w = world();
    const a = agent(w);
    await a.open('home');
    expect(w.slack.api('assistant.threads.setSuggestedPrompts')).toEqual([]);
    expect((await a.ask('#hcsm yesterday')).passedOn).toBe(true);
  });
});

describe('agent messages', () => {
  it('streams the answer in the thread the message starts, and keeps it from the DM listener', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    const { passedOn, ts } = await a.ask('#hcsm yesterday');
    expect(passedOn).toBe(false);
    const [stream] = [...w.slack.streams.values()];
    expect(stream).toMatchObject({ channel: dm, threadTs: ts, stopped: true });
    expect(w.slack.api('chat.postMessage')).toEqual([]);
  });

  it('posts the usage in the thread, without streaming', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    const { ts } = await a.ask('help');
    const [post] = w.slack.api('chat.postMessage');
    expect(post?.args).toMatchObject({ channel: dm, thread_ts: ts, text: renderHelp().text });
    expect(w.slack.streams.size).toBe(0);
  });

  it('lets bot posts and edits go on to the other listeners', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    expect((await a.ask('#hcsm yesterday', { bot_id: 'B1' })).passedOn).toBe(true);
    expect((await a.ask('#hcsm yesterday', { subtype: 'message_changed' })).passedOn).toBe(true);
  });

  it('answers with a plain post when the stream cannot start, without giving up streaming', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    w.slack.override('chat.startStream', () => ({ ok: false, error: 'internal_error' }));
    await a.ask('#hcsm yesterday');
    expect(w.slack.api('chat.update')).toHaveLength(1);
    expect(w.logged('could not start a streamed answer; answering with a plain post')).toHaveLength(
      1,
    );
    await a.ask('#bcsm yesterday');
    expect(w.slack.api('chat.startStream')).toHaveLength(2);
  });

  it('posts the answer in the thread when the stream cannot be stopped', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    w.slack.override('chat.stopStream', () => ({ ok: false, error: 'message_not_found' }));
    const { ts } = await a.ask('#hcsm yesterday');
    const [post] = w.slack.api('chat.postMessage');
    expect(post?.args.thread_ts).toBe(ts);
    expect(String(post?.args.text)).toMatch(/#hcsm/);
  });

  it('ends the stream without the table block where Slack refuses it', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    w.slack.refuseNewBlocks = true;
    await a.ask('#hcsm yesterday table');
    const stops = w.slack.api('chat.stopStream');
    expect(stops).toHaveLength(2);
    const [stream] = [...w.slack.streams.values()];
    expect(stream?.stopped).toBe(true);
    expect(JSON.stringify(stream?.blocks)).not.toContain('data_table');
  });

  it('titles a thread once, after its first lookup', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    const { ts } = await a.ask('#hcsm yesterday');
    await a.ask('and for #bcsm?', { thread_ts: ts });
    expect(w.slack.sessions.get(dm, ts)?.title).toContain('#hcsm');
    expect(w.slack.api('agents.sessions.rename')).toEqual([]);
    expect(w.slack.api('assistant.threads.setTitle')).toEqual([]);
    const streams = [...w.slack.streams.values()];
    expect(streams.map((s) => s.threadTs)).toEqual([ts, ts]);
    expect(String(streams[1]?.chunks[0]?.text)).toContain('**#bcsm**');
  });
});

describe('the agent session', () => {
  it('is processing with its title while the lookup works, and active once the answer streamed', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    const { ts } = await a.ask('#hcsm yesterday');
    const [processing] = w.slack.api('agents.sessions.setStatus');
    expect(processing?.args).toMatchObject({ channel_id: dm, thread_ts: ts, status: 'processing' });
    expect(String(processing?.args.title)).toContain('#hcsm');
    const [start] = w.slack.api('chat.startStream');
    expect(processing?.at).toBeLessThanOrEqual(start?.at ?? 0);
    const [stop] = w.slack.api('chat.stopStream');
    expect(stop?.args.session_status).toBe('active');
    expect(w.slack.sessions.get(dm, ts)?.statuses).toEqual(['processing', 'active']);
    expect(w.slack.api('agents.sessions.setStatus')).toHaveLength(1);
    expect(w.slack.api('assistant.threads.setStatus')).toEqual([]);
  });

  it('renames a session Slack already had under another name', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    const threadTs = '1700000000.000500';
    w.slack.sessions.create(dm, threadTs, 'an older question');
    await a.ask('#hcsm yesterday', { thread_ts: threadTs });
    const [rename] = w.slack.api('agents.sessions.rename');
    expect(rename?.args).toMatchObject({ channel_id: dm, thread_ts: threadTs });
    expect(w.slack.sessions.get(dm, threadTs)?.title).toContain('#hcsm');
  });

  it('is set active when the stream cannot start, and the answer comes as a plain post', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    w.slack.override('chat.startStream', () => ({ ok: false, error: 'internal_error' }));
    const { ts } = await a.ask('#hcsm yesterday');
    expect(w.slack.sessions.get(dm, ts)?.statuses).toEqual(['processing', 'active']);
    const [update] = w.slack.api('chat.update');
    const [active] = w.slack.api('agents.sessions.setStatus').slice(1);
    expect(active?.at).toBeLessThanOrEqual(update?.at ?? 0);
  });

  it('is set active when the stream cannot be stopped', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    w.slack.override('chat.stopStream', () => ({ ok: false, error: 'message_not_found' }));
    const { ts } = await a.ask('#hcsm yesterday');
    expect(w.slack.api('chat.postMessage')).toHaveLength(1);
    expect(w.slack.sessions.get(dm, ts)?.statuses).toEqual(['processing', 'active']);
  });

  it.each(['feature_disabled', 'not_authorized', 'unknown_method'])(
    'gives way to the assistant status line and title where Slack answers %s, logged once',
    async (refusal) => {
      const w = world();
      const a = agent(w);
      await a.open();
      w.slack.override('agents.sessions.setStatus', () => ({ ok: false, error: refusal }));
      const { ts } = await a.ask('#hcsm yesterday');
      await a.ask('#bcsm yesterday');
      expect(w.slack.api('agents.sessions.setStatus')).toHaveLength(1);
      const statuses = w.slack.api('assistant.threads.setStatus').map((c) => c.args.status);
      expect(statuses).toEqual(['is looking up #hcsm…', '', 'is looking up #bcsm…', '']);
      const [title] = w.slack.api('assistant.threads.setTitle');
      expect(title?.args).toMatchObject({ channel_id: dm, thread_ts: ts });
      expect(w.slack.api('chat.stopStream').every((c) => c.args.session_status === undefined)).toBe(
        true,
      );
      expect(
        w.logged('Slack keeps no agent sessions here; showing the assistant status line instead'),
      ).toHaveLength(1);
    },
  );

  it('still answers when Slack fails to set the status, without a status at the stop', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    w.slack.override('agents.sessions.setStatus', () => ({ ok: false, error: 'internal_error' }));
    await a.ask('#hcsm yesterday');
    const [stream] = [...w.slack.streams.values()];
    expect(stream?.stopped).toBe(true);
    expect(w.slack.api('chat.stopStream')[0]?.args.session_status).toBeUndefined();
    expect(w.logged('could not call agents.sessions.setStatus')).toHaveLength(1);
    expect(w.slack.api('assistant.threads.setStatus')).toEqual([]);
  });
});

describe('the agent session where the workspace keeps none', () => {
  it('falls back to the status line once per workspace, in every DM', async () => {
    const w = world();
    w.slack.sessions.refusal = 'feature_disabled';
    const a = agent(w);
    await a.open();
    // The second DM's tab opened on another instance: the store says so.
    await agent(w, w.deps, 'D0DIRECT02').open();
    await a.ask('#hcsm yesterday');
    await a.ask('#bcsm yesterday', { channel: 'D0DIRECT02' });
    expect(w.slack.api('agents.sessions.setStatus')).toHaveLength(1);
    const lines = w.slack.api('assistant.threads.setStatus').map((c) => c.args.channel_id);
    expect(lines).toEqual([dm, dm, 'D0DIRECT02', 'D0DIRECT02']);
  });
});

describe('streaming under Slack’s rate tiers', () => {
  it('waits out a 429 at the stop and ends the stream once, posting nothing beside it', async () => {
    const w = world();
    const { deps, waited } = fakeTime(w);
    const a = agent(w, deps);
    await a.open();
    w.slack.rateLimit('chat.stopStream', 3, 1);
    const { ts } = await a.ask('#hcsm yesterday');
    expect(w.slack.api('chat.stopStream')).toHaveLength(2);
    const [stream] = [...w.slack.streams.values()];
    expect(stream?.stopped).toBe(true);
    expect(JSON.stringify(stream?.blocks)).toContain('#hcsm');
    expect(w.slack.api('chat.postMessage')).toEqual([]);
    expect(waited).toEqual([3_000]);
    expect(w.slack.sessions.get(dm, ts)?.statuses).toEqual(['processing', 'active']);
  });

  it('keeps its one answer when Tier 2 is spent: the stop waits for the next minute', async () => {
    const w = world();
    const { deps, waited } = fakeTime(w);
    w.slack.enforceTiers = true;
    w.slack.spendTier('chat.stopStream', 20);
    const a = agent(w, deps);
    await a.open();
    await a.ask('#hcsm yesterday');
    const [stream, ...more] = [...w.slack.streams.values()];
    expect(more).toEqual([]);
    expect(stream?.stopped).toBe(true);
    expect(w.slack.api('chat.postMessage')).toEqual([]);
    expect(waited).toEqual([60_000]);
  });

  it('answers with one plain post when Tier 2 leaves no stream to start', async () => {
    const w = world();
    const { deps } = fakeTime(w);
    w.slack.enforceTiers = true;
    w.slack.spendTier('chat.startStream', 20);
    const a = agent(w, deps);
    await a.open();
    await a.ask('#hcsm yesterday');
    expect(w.slack.streams.size).toBe(0);
    expect(w.slack.api('chat.postMessage')).toHaveLength(1);
    expect(String(w.slack.api('chat.update').at(-1)?.args.text)).toMatch(/#hcsm/);
  });
});

describe('Stop while the answer streams', () => {
  it('leaves the message Slack stopped as it is: no more appends, no second post', async () => {
    const w = world();
    const a = agent(w);
    await a.open();
    let stopping: Promise<void> | undefined;
    // The person presses Stop as the first window shows: Slack stops the stream itself.
    w.slack.override('chat.appendStream', (args) => {
      const stream = w.slack.streams.get(String(args.ts));
      if (stream !== undefined && !stream.stopped) {
        const streaming = w.slack.pressStop(stream.channel, stream.threadTs);
        stopping = a.stop(stream.threadTs, streaming);
      }
      return { ok: false, error: 'stopped_by_user' };
    });
    const { ts } = await a.ask('#hcsm yesterday');
    await stopping;
    await w.settle();
    const [stream] = [...w.slack.streams.values()];
    expect(stream?.stoppedByUser).toBe(true);
    expect(w.slack.api('chat.postMessage')).toEqual([]);
    expect(w.slack.api('chat.stopStream')).toEqual([]);
    expect(w.slack.sessions.get(dm, ts)?.statuses.at(-1)).toBe('active');
  });
});

describe('a session the person renamed', () => {
  it('keeps their title after a restart', async () => {
    const w = world();
    const threadTs = '1700000000.000700';
    // A session Slack opened under its own name, which the person then renamed.
    w.slack.sessions.create(dm, threadTs, 'New chat');
    const before = agent(w);
    await before.open();
    await before.rename(threadTs, 'Launch numbers');
    // A restart: a new instance of the app, sharing the store.
    const after = agent(w);
    await after.ask('#hcsm yesterday', { thread_ts: threadTs });
    expect(w.slack.api('agents.sessions.rename')).toEqual([]);
    expect(w.slack.sessions.get(dm, threadTs)?.title).toBe('Launch numbers');
  });
});

describe('Stop', () => {
  it('says when nothing was running, and moves the session out of processing', async () => {
    const w = world();
    await agent(w).stop('1700000000.000100');
    expect(w.logged('Stop pressed with no lookup running')).toHaveLength(1);
    const [status] = w.slack.api('agents.sessions.setStatus');
    expect(status?.args).toMatchObject({
      channel_id: dm,
      thread_ts: '1700000000.000100',
      status: 'active',
    });
  });
});
