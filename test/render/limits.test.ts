import type { AnyBlock, KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { defined } from '../../src/model/defined.ts';
import {
  assertWithinBlockKitLimits,
  blockKitLimits,
  checkBlockKitLimits,
} from '../../src/render/limits.ts';

const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
const context = (count: number, text = 'x'): KnownBlock => ({
  type: 'context',
  elements: Array.from({ length: count }, () => ({ type: 'mrkdwn' as const, text })),
});
const button = (text: string, value?: string): KnownBlock => ({
  type: 'actions',
  elements: [
    {
      type: 'button',
      action_id: 'a',
      text: { type: 'plain_text', text },
      ...defined({ value }),
    },
  ],
});

describe('checkBlockKitLimits', () => {
  it('accepts a message within every limit', () => {
    expect(checkBlockKitLimits({ text: 'hi', blocks: [section('hello'), context(10)] })).toEqual(
      [],
    );
  });

  it.each<[string, readonly AnyBlock[], string]>([
    ['too many blocks', Array.from({ length: 51 }, () => section('x')), 'blocks: 51 > 50'],
    ['a long section', [section('x'.repeat(3001))], 'blocks[0].text: 3001 > 3000'],
    ['an empty section', [section(' ')], 'blocks[0].text: empty'],
    [
      'a long header',
      [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
      'blocks[0].text: 151 > 150',
    ],
    [
      'a mrkdwn header',
      [{ type: 'header', text: { type: 'mrkdwn', text: 'h' } as never }],
      'blocks[0].text: must be plain_text',
    ],
    [
      'eleven fields',
      [
        {
          type: 'section',
          fields: Array.from({ length: 11 }, () => ({ type: 'mrkdwn' as const, text: 'f' })),
        },
      ],
      'blocks[0].fields: 11 > 10',
    ],
    [
      'a long field',
      [{ type: 'section', fields: [{ type: 'mrkdwn', text: 'f'.repeat(2001) }] }],
      'blocks[0].fields[0]: 2001 > 2000',
    ],
    ['eleven context elements', [context(11)], 'blocks[0].elements: 11 > 10'],
    ['a long button label', [button('b'.repeat(76))], 'blocks[0].elements[0].text: 76 > 75'],
    [
      'a long button value',
      [button('ok', 'v'.repeat(2001))],
      'blocks[0].elements[0].value: 2001 > 2000',
    ],
    [
      'an image without alt text',
      [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 't' },
          accessory: { type: 'image', image_url: 'https://a.b/c.png', alt_text: '' },
        },
      ],
      'blocks[0].accessory.alt_text: empty',
    ],
    [
      'too much text in all',
      Array.from({ length: 5 }, () => section('x'.repeat(2500))),
      'block text: 12500 > 12000',
    ],
  ])('reports %s', (_case, blocks, problem) => {
    expect(checkBlockKitLimits({ text: 'fallback', blocks })).toContain(problem);
  });

  it('requires a notification text on messages', () => {
    expect(checkBlockKitLimits({ text: ' ', blocks: [] })).toEqual(['text: empty']);
    expect(checkBlockKitLimits({ text: 't'.repeat(3001), blocks: [] })).toEqual([
      'text: 3001 > 3000',
    ]);
  });

  it('allows 100 blocks in a view and checks its title', () => {
    const blocks = Array.from({ length: 100 }, () => section('x'.repeat(200)));
    expect(checkBlockKitLimits({ blocks }, 'view')).toEqual([]);
    expect(
      checkBlockKitLimits(
        { blocks, title: { type: 'plain_text', text: 'A title far too long for it' } },
        'view',
      ),
    ).toEqual(['title: 27 > 24']);
  });

  it('names the broken limits when asserting', () => {
    expect(() => assertWithinBlockKitLimits({ text: '', blocks: [] })).toThrow(
      'Rendered message breaks Block Kit limits: text: empty',
    );
  });

  it('keeps the documented numbers', () => {
    expect(blockKitLimits).toMatchObject({
      messageBlocks: 50,
      sectionText: 3000,
      sectionFields: 10,
      fieldText: 2000,
      headerText: 150,
      contextElements: 10,
      messageBlockText: 12_000,
    });
  });
});
