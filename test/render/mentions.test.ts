import { describe, expect, it } from 'vitest';
import { channelMention, isSlackId, userMention } from '../../src/render/mentions.ts';

describe('isSlackId', () => {
  it.each([
    ['C0123', true],
    ['U42', true],
    ['c0123', false],
    ['U', false],
    ['U1>|<!channel', false],
    ['', false],
    [undefined, false],
  ] as const)('reads %j as an id: %s', (id, expected) => {
    expect(isSlackId(id)).toBe(expected);
  });
});

describe('channelMention and userMention', () => {
  it('mention a valid id and give the words for anything else', () => {
    expect(channelMention('C0123', 'that channel')).toBe('<#C0123>');
    expect(channelMention('C1><!here', 'that channel')).toBe('that channel');
    expect(userMention('U42', 'someone')).toBe('<@U42>');
    expect(userMention(undefined, 'someone')).toBe('someone');
  });
});
