import { describe, expect, it } from 'vitest';
import { renderHelp } from '../../../../src/render/lookups/help.ts';
import { renderPending } from '../../../../src/render/lookups/status.ts';
import { appMention, directMessage } from '../../../../src/slack/listeners/events/messages.ts';
import { eventArgs, type ListenerWorld, useListenerWorld } from '../../../helpers/listener-args.ts';
import { fixedNow, request } from '../../../helpers/lookups.ts';
import { botId, directMessageEvent, mentionEvent, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });

/** Every post and update the app made, in order, as method and the fields a reader sees. */
function conversation(w: ListenerWorld) {
  return w.slack.calls
    .filter((call) => call.method === 'chat.postMessage' || call.method === 'chat.update')
    .map((call) => ({
      method: call.method,
      channel: call.args.channel,
      ...(call.args.thread_ts === undefined ? {} : { threadTs: call.args.thread_ts }),
      ...(call.args.ts === undefined ? {} : { ts: call.args.ts }),
      text: call.args.text,
    }));
}

/** The ts the fake Slack gives its first chat.postMessage. */
const firstPostTs = '1700000001.000100';
const pendingText = (text: string) => renderPending(request(text), { now: fixedNow }).text;
const answerText = expect.stringMatching(/influencers for #hcsm/);

describe('directMessage', () => {
  it('posts what is looked up in the DM, then replaces that post with the answer', async () => {
    const w = world();
    await directMessage(w.deps)(eventArgs<'message'>(w, directMessageEvent('#hcsm last week')));
    await w.settle();
    expect(conversation(w)).toEqual([
      { method: 'chat.postMessage', channel: 'D0DIRECT01', text: pendingText('#hcsm last week') },
      {
        method: 'chat.update',
        channel: 'D0DIRECT01',
        ts: firstPostTs,
        text: answerText,
      },
    ]);
  });

  it.each([
    ['en-GB', 'Nov 3'],
    ['fr-FR', 'Nov 3'],
    ['en-US', 'Mar 11'],
  ])('reads 3/11/2026 to 10/11/2026 in the Slack locale %s', async (locale, first) => {
    const w = world();
    w.slack.locales.set(userId, locale);
    const text = '#hcsm 3/11/2026 to 10/11/2026';
    await directMessage(w.deps)(eventArgs<'message'>(w, directMessageEvent(text)));
    await w.settle();
    expect(w.slack.api('users.info')).toMatchObject([{ args: { include_locale: 'true' } }]);
    expect(w.slack.api('chat.postMessage')[0]?.args.text).toContain(first);
  });

  it('asks which order 3/11/2026 to 10/11/2026 is in when the Slack locale does not say', async () => {
    const w = world();
    w.slack.locales.set(userId, 'en');
    const text = '#hcsm 3/11/2026 to 10/11/2026';
    await directMessage(w.deps)(eventArgs<'message'>(w, directMessageEvent(text)));
    await w.settle();
    const asked = String(w.slack.api('chat.postMessage')[0]?.args.text);
    expect(asked).toContain('reads two ways');
    expect(w.asked()).toBe(0);
  });

  it('answers a message typed in a DM thread in that thread', async () => {
    const w = world();
    const event = directMessageEvent('#hcsm yesterday', { thread_ts: '1700000000.000900' });
    await directMessage(w.deps)(eventArgs<'message'>(w, event));
    await w.settle();
    expect(w.slack.api('chat.postMessage')[0]?.args.thread_ts).toBe('1700000000.000900');
  });

  it('answers a greeting with the usage, in one post and without a zone', async () => {
    const w = world();
    await directMessage(w.deps)(eventArgs<'message'>(w, directMessageEvent('hi')));
    await w.settle();
    expect(conversation(w)).toEqual([
      { method: 'chat.postMessage', channel: 'D0DIRECT01', text: renderHelp().text },
    ]);
    expect(w.slack.api('users.info')).toEqual([]);
  });

  it.each([
    ['an edit', { subtype: 'message_changed' }],
    ['a deletion', { subtype: 'message_deleted' }],
    ['a bot’s post', { bot_id: botId }],
    ['a message in a channel', { channel: 'C0CHANNEL1', channel_type: 'channel' }],
    ['a message without a person', { user: undefined }],
  ])('ignores %s', async (_name, extra) => {
    const w = world();
    await directMessage(w.deps)(
      eventArgs<'message'>(w, directMessageEvent('#hcsm last week', extra)),
    );
    await w.settle();
    expect(w.slack.calls).toEqual([]);
    expect(w.asked()).toBe(0);
  });

  it('answers Slack’s redelivery of one event once', async () => {
    const w = world();
    const event = directMessageEvent('#hcsm last week');
    for (let delivery = 0; delivery < 3; delivery += 1) {
      await directMessage(w.deps)(eventArgs<'message'>(w, event, { eventId: 'Ev0SAME0001' }));
    }
    await w.settle();
    expect(w.slack.api('chat.postMessage')).toHaveLength(1);
  });

  it('logs, and throws nothing, when Slack refuses the post', async () => {
    const w = world();
    w.slack.override('chat.postMessage', () => ({ ok: false, error: 'channel_not_found' }));
    await directMessage(w.deps)(eventArgs<'message'>(w, directMessageEvent('#hcsm last week')));
    await w.settle();
    expect(w.logged('could not answer a direct message')).toEqual([
      expect.objectContaining({ channel: 'D0DIRECT01' }),
    ]);
    expect(w.asked()).toBe(0);
  });
});

describe('appMention', () => {
  it('answers in a thread under the mention, reading the text without the bot’s name', async () => {
    const w = world();
    const event = mentionEvent('#hcsm last week');
    await appMention(w.deps)(eventArgs<'app_mention'>(w, event));
    await w.settle();
    expect(conversation(w)).toEqual([
      {
        method: 'chat.postMessage',
        channel: 'C0CHANNEL1',
        threadTs: event.ts,
        text: pendingText('#hcsm last week'),
      },
      {
        method: 'chat.update',
        channel: 'C0CHANNEL1',
        ts: firstPostTs,
        text: answerText,
      },
    ]);
  });

  it('answers a mention inside a thread in that thread', async () => {
    const w = world();
    const event = mentionEvent('#hcsm yesterday', { thread_ts: '1700000000.000900' });
    await appMention(w.deps)(eventArgs<'app_mention'>(w, event));
    await w.settle();
    expect(w.slack.api('chat.postMessage')[0]?.args.thread_ts).toBe('1700000000.000900');
  });

  it.each([
    ['a bot’s mention', { bot_id: botId }],
    ['an edited mention', { subtype: 'message_changed' }],
  ])('ignores %s', async (_name, extra) => {
    const w = world();
    await appMention(w.deps)(eventArgs<'app_mention'>(w, mentionEvent('#hcsm last week', extra)));
    await w.settle();
    expect(w.slack.calls).toEqual([]);
  });

  it('answers Slack’s redelivery of one mention once', async () => {
    const w = world();
    const event = mentionEvent('#hcsm last week');
    for (let delivery = 0; delivery < 2; delivery += 1) {
      await appMention(w.deps)(eventArgs<'app_mention'>(w, event, { eventId: 'Ev0SAME0002' }));
    }
    await w.settle();
    expect(w.slack.api('chat.postMessage')).toHaveLength(1);
  });

  it('logs, and throws nothing, when Slack refuses the post', async () => {
    const w = world();
    w.slack.override('chat.postMessage', () => ({ ok: false, error: 'not_in_channel' }));
    await appMention(w.deps)(eventArgs<'app_mention'>(w, mentionEvent('#hcsm last week')));
    await w.settle();
    expect(w.logged('could not answer a mention')).toEqual([
      expect.objectContaining({ channel: 'C0CHANNEL1' }),
    ]);
  });
});
