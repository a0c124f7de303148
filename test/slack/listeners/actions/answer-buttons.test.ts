import { describe, expect, it } from 'vitest';
import { renderShared } from '../../../../src/render/answer.ts';
import {
  answerPlace,
  exportPlace,
} from '../../../../src/slack/listeners/actions/answer-buttons.ts';

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
