import { describe, expect, it } from 'vitest';
import { UnknownDatabaseError } from '../../../../src/errors.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { actionIds } from '../../../../src/render/ids.ts';
import { encodeShareValue, renderShared } from '../../../../src/render/lookups/answer.ts';
import { shareAnswer } from '../../../../src/slack/listeners/actions/share.ts';
import {
  answerFor,
  buttonArgs,
  type ListenerWorld,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { request } from '../../../helpers/lookups.ts';
import { userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });

/** Presses Share in channel under an ephemeral answer carrying `value`. */
async function share(w: ListenerWorld, value: string) {
  const args = buttonArgs(w, { actionId: actionIds.shareAnswer, value });
  await shareAnswer(w.deps)(args);
  await w.settle();
  expect(args.ack).toHaveBeenCalledExactlyOnceWith();
  return { url: args.body.response_url, replies: w.slack.responses(args.body.response_url) };
}

describe('shareAnswer', () => {
  it('posts the answer in the channel, saying who shared it, then removes the ephemeral copy', async () => {
    const w = world();
    const asked = request('#hcsm last week');
    const { replies } = await share(w, encodeShareValue(asked));
    expect(replies.map((reply) => reply.args)).toEqual([
      {
        response_type: 'in_channel',
        replace_original: false,
        ...renderShared(await answerFor(w, asked), userId),
      },
      { delete_original: true },
    ]);
  });

  it('keeps the ephemeral copy when Slack refuses the post in the channel', async () => {
    const w = world();
    const args = buttonArgs(w, {
      actionId: actionIds.shareAnswer,
      value: encodeShareValue(request('#hcsm last week')),
    });
    // Slack takes five posts per response_url; this one has none left.
    for (let use = 0; use < 5; use += 1) {
      await w.slack.fetch(args.body.response_url, { method: 'POST', body: '{}' });
    }
    await shareAnswer(w.deps)(args);
    await w.settle();
    const posts = w.slack.responses(args.body.response_url).slice(5);
    expect(posts.map((post) => post.args.response_type)).toEqual(['in_channel']);
  });

  it('tells the person, ephemerally, when the service refuses the lookup', async () => {
    const w = world();
    const { replies } = await share(w, encodeShareValue(request('#nosuchdb last week')));
    expect(replies.map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: false,
        ...renderError(new UnknownDatabaseError('#nosuchdb')),
      },
    ]);
    expect(w.logged('could not share an answer')).toHaveLength(1);
  });

  it('tells the person when the button carries a value this app did not write', async () => {
    const w = world();
    const { replies } = await share(w, 'garbled');
    expect(replies.map((reply) => reply.args)).toEqual([
      { response_type: 'ephemeral', replace_original: false, ...renderError(undefined) },
    ]);
    expect(w.logged('share button carried an unreadable value')).toHaveLength(1);
    expect(w.asked()).toBe(0);
  });

  it('does nothing but ack a press without a response_url', async () => {
    const w = world();
    const args = buttonArgs(w, {
      actionId: actionIds.shareAnswer,
      value: encodeShareValue(request('#hcsm last week')),
      view: { id: 'V0HOME0001', type: 'home' },
    });
    await shareAnswer(w.deps)(args);
    await w.settle();
    expect(args.ack).toHaveBeenCalledOnce();
    expect(w.slack.calls).toEqual([]);
    expect(w.asked()).toBe(0);
  });
});
