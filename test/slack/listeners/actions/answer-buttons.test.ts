import { describe, expect, it } from 'vitest';
import { ExportFailedError, type ParseError } from '../../../../src/errors.ts';
import type { LookupRequest } from '../../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../../src/model/message.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { encodeShareValue, renderShared } from '../../../../src/render/lookups/answer.ts';
import {
  answerButton,
  answerPlace,
  exportButton,
  exportPlace,
} from '../../../../src/slack/listeners/actions/answer-buttons.ts';
import type { SlackCall } from '../../../helpers/fake-slack.ts';
import {
  answerFor,
  buttonArgs,
  type ListenerWorld,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { request } from '../../../helpers/lookups.ts';
import type { ButtonOptions } from '../../../helpers/payloads.ts';
import { userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });

const message = { text: 'Top 10 influencers for #hcsm', blocks: [] };

describe('answerPlace', () => {
  it('reads an ephemeral answer as reachable only through its response_url', () => {
    expect(
      answerPlace({
        container: {
          message_ts: '1700000000.000100',
          channel_id: 'C0CHANNEL1',
          is_ephemeral: true,
        },
        channel: { id: 'C0CHANNEL1' },
      }),
    ).toEqual({
      ephemeral: true,
      channel: 'C0CHANNEL1',
      ts: undefined,
      threadTs: undefined,
      sharedBy: undefined,
    });
  });

  it('reads a mention answer in its thread', () => {
    expect(
      answerPlace({
        container: {
          message_ts: '1700000002.000200',
          channel_id: 'C0CHANNEL1',
          is_ephemeral: false,
        },
        channel: { id: 'C0CHANNEL1' },
        message: { ts: '1700000002.000200', thread_ts: '1700000001.000100', text: message.text },
      }),
    ).toEqual({
      ephemeral: false,
      channel: 'C0CHANNEL1',
      ts: '1700000002.000200',
      threadTs: '1700000001.000100',
      sharedBy: undefined,
    });
  });

  it('reads who shared an answer from the text the Share button gives it', () => {
    const shared = renderShared(message, 'U0SHARER1');
    expect(
      answerPlace({
        container: { message_ts: '1700000003.000100', channel_id: 'C0CHANNEL1' },
        message: { ts: '1700000003.000100', text: shared.text },
      }).sharedBy,
    ).toBe('U0SHARER1');
  });
});

describe('exportPlace', () => {
  const base = {
    ephemeral: false,
    ts: '1700000003.000100',
    threadTs: undefined,
    sharedBy: undefined,
  };

  it.each([
    [
      'an ephemeral answer',
      { ...base, ephemeral: true, channel: 'C0CHANNEL1', ts: undefined },
      { channel: 'U0PERSON1' },
    ],
    ['a DM answer', { ...base, channel: 'D0DIRECT01' }, { channel: 'D0DIRECT01' }],
    [
      'a DM answer in a thread',
      { ...base, channel: 'D0DIRECT01', threadTs: '1700000001.000100' },
      { channel: 'D0DIRECT01', threadTs: '1700000001.000100' },
    ],
    [
      'a shared answer',
      { ...base, channel: 'C0CHANNEL1' },
      { channel: 'C0CHANNEL1', threadTs: '1700000003.000100' },
    ],
    [
      'a mention answer',
      { ...base, channel: 'C0CHANNEL1', threadTs: '1700000001.000100' },
      { channel: 'C0CHANNEL1', threadTs: '1700000001.000100' },
    ],
  ])('sends the export of %s where its reader finds it', (_name, place, expected) => {
    expect(exportPlace(place, 'U0PERSON1')).toEqual(expected);
  });
});

/** The message a Slack call sent, as the renderer makes it. */
function sent(call: SlackCall | undefined): SlackMessage {
  return { text: String(call?.args.text), blocks: call?.args.blocks as SlackMessage['blocks'] };
}

/** A button carrying `asked`, under the app's post at `ts` in `channel` (not ephemeral). */
function under(
  asked: LookupRequest,
  ts: string,
  channel: string,
  text?: string,
): Omit<ButtonOptions, 'actionId'> {
  return {
    value: encodeShareValue(asked),
    container: { type: 'message', message_ts: ts, channel_id: channel, is_ephemeral: false },
    ...(text === undefined ? {} : { message: { ts, text } }),
  };
}

/** Presses a button and waits for what it left running. */
async function press(
  w: ListenerWorld,
  listener: (args: ReturnType<typeof buttonArgs>) => Promise<void>,
  options: ButtonOptions,
) {
  const args = buttonArgs(w, options);
  await listener(args);
  await w.settle();
  expect(args.ack).toHaveBeenCalledExactlyOnceWith();
  return { args, replies: w.slack.responses(args.body.response_url) };
}

describe('answerButton', () => {
  it('replaces an ephemeral answer with its comparison through response_url', async () => {
    const w = world();
    const asked = request('#bcsm last week');
    const { replies } = await press(w, answerButton(w.deps, 'compare'), {
      actionId: 'answer_compare',
      value: encodeShareValue(asked),
    });
    expect(replies).toHaveLength(1);
    expect(replies[0]?.args).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    const compared = w.deps.flow.comparedWithPrevious(asked) as LookupRequest;
    expect(sent(replies[0])).toEqual(await answerFor(w, compared, { shareable: true }));
  });

  it('asks what an Add as a database button carries, as it is', async () => {
    const w = world();
    const asked = request('#bcsm, conversation last week');
    const { replies } = await press(w, answerButton(w.deps, 'asked'), {
      actionId: 'answer_add_database',
      value: encodeShareValue(asked),
    });
    expect(replies).toHaveLength(1);
    expect(sent(replies[0])).toEqual(await answerFor(w, asked, { shareable: true }));
  });

  it('changes a DM answer in place with chat.update', async () => {
    const w = world();
    const asked = request('#hcsm yesterday');
    const ts = '1700000200.000100';
    const { replies } = await press(w, answerButton(w.deps, 'table'), {
      actionId: 'answer_table',
      ...under(asked, ts, 'D0DIRECT01'),
    });
    expect(replies).toEqual([]);
    const [update, ...more] = w.slack.api('chat.update');
    expect(more).toEqual([]);
    expect(update?.args).toMatchObject({ channel: 'D0DIRECT01', ts });
    expect(sent(update)).toEqual(await answerFor(w, asked, { presentation: 'table' }));
  });

  it('keeps who shared an answer when it changes a shared answer', async () => {
    const w = world();
    const asked = request('#hcsm last week');
    const shared = renderShared(await answerFor(w, asked), 'U0SHARER1');
    await press(w, answerButton(w.deps, 'chart'), {
      actionId: 'answer_chart',
      ...under(asked, '1700000300.000100', 'C0CHANNEL1', shared.text),
    });
    const [update] = w.slack.api('chat.update');
    expect(sent(update)).toEqual(
      renderShared(await answerFor(w, asked, { presentation: 'chart' }), 'U0SHARER1'),
    );
  });

  it('replaces the answer through response_url when chat.update cannot reach it', async () => {
    const w = world();
    w.slack.override('chat.update', () => ({ ok: false, error: 'message_not_found' }));
    const asked = request('#hcsm yesterday');
    const { replies } = await press(w, answerButton(w.deps, 'chart'), {
      actionId: 'answer_chart',
      ...under(asked, '1700000400.000100', 'D0DIRECT01'),
    });
    expect(replies).toHaveLength(1);
    expect(replies[0]?.args).toMatchObject({ replace_original: true });
    expect(replies[0]?.args.response_type).toBeUndefined();
    expect(sent(replies[0])).toEqual(await answerFor(w, asked, { presentation: 'chart' }));
  });

  it('tells the person, and leaves the answer, when the lookup fails', async () => {
    const w = world();
    const asked = request('#nosuchdb last week');
    const { replies } = await press(w, answerButton(w.deps, 'table'), {
      actionId: 'answer_table',
      ...under(asked, '1700000500.000100', 'D0DIRECT01'),
    });
    expect(w.slack.api('chat.update')).toEqual([]);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.args).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: expect.stringContaining('#nosuchdb'),
    });
  });

  it('tells the person why a window cannot be compared, and looks nothing up', async () => {
    const w = world();
    const asked = request('#hcsm from 2006-03-21 to 2006-03-28');
    const refusal = w.deps.flow.comparedWithPrevious(asked) as ParseError;
    expect(refusal).toBeInstanceOf(Error);
    const { replies } = await press(w, answerButton(w.deps, 'compare'), {
      actionId: 'answer_compare',
      value: encodeShareValue(asked),
    });
    expect(replies.map((reply) => reply.args)).toEqual([
      { response_type: 'ephemeral', replace_original: false, ...renderError(refusal) },
    ]);
    expect(w.asked()).toBe(0);
  });

  it('tells the person when the button carries a value this app did not write', async () => {
    const w = world();
    const { replies } = await press(w, answerButton(w.deps, 'compare'), {
      actionId: 'answer_compare',
      value: 'not-a-request',
    });
    expect(replies.map((reply) => reply.args)).toEqual([
      { response_type: 'ephemeral', replace_original: false, ...renderError(undefined) },
    ]);
    expect(w.logged('an answer button carried an unreadable value')).toHaveLength(1);
    expect(w.asked()).toBe(0);
  });
});

describe('exportButton', () => {
  it('sends the whole ranking of an ephemeral answer to the person’s DM', async () => {
    const w = world();
    await press(w, exportButton(w.deps), {
      actionId: 'answer_export',
      value: encodeShareValue(request('#hcsm yesterday')),
    });
    expect(w.slack.api('conversations.open')[0]?.args.users).toBe(userId);
    expect(w.slack.files()).toEqual([
      expect.objectContaining({ channel: `D${userId.slice(1)}`, threadTs: undefined }),
    ]);
    const [file] = w.slack.files();
    const whole = await w.deps.flow.exportFile(request('#hcsm yesterday'));
    expect(file?.bytes.toString('utf8')).toBe(whole.content);
  });

  it('sends the file of an answer in a channel into its thread', async () => {
    const w = world();
    const ts = '1700000600.000100';
    await press(w, exportButton(w.deps), {
      actionId: 'answer_export',
      ...under(request('#bcsm last week'), ts, 'C0CHANNEL1'),
    });
    expect(w.slack.files()).toEqual([
      expect.objectContaining({ channel: 'C0CHANNEL1', threadTs: ts }),
    ]);
  });

  it('tells the person why, when Slack refuses the upload', async () => {
    const w = world();
    w.slack.override('files.getUploadURLExternal', () => ({
      ok: false,
      error: 'missing_scope',
      needed: 'files:write',
    }));
    const { replies } = await press(w, exportButton(w.deps), {
      actionId: 'answer_export',
      value: encodeShareValue(request('#hcsm yesterday')),
    });
    expect(replies.map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: false,
        ...renderError(new ExportFailedError('missing_scope')),
      },
    ]);
    expect(w.logged('could not send a CSV export')).toHaveLength(1);
  });
});
