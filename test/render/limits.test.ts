import type { AnyBlock, KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { defined } from '../../src/model/defined.ts';
import {
  assertWithinBlockKitLimits,
  blockKitLimits,
  blockTextLength,
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

describe('checkBlockKitLimits on tables and charts', () => {
  const text = (value: string) => ({ type: 'raw_text', text: value });
  const number = (value: number) => ({ type: 'raw_number', value, text: String(value) });
  const table = (overrides: Record<string, unknown> = {}): AnyBlock =>
    ({
      type: 'data_table',
      caption: 'Top',
      page_size: 10,
      rows: [
        [text('Rank'), text('Name')],
        [number(1), text('Alice')],
      ],
      ...overrides,
    }) as AnyBlock;
  const series = (name: string, labels: readonly string[]) => ({
    name,
    data: labels.map((label) => ({ label, value: 1 })),
  });
  const bars = (chart: Record<string, unknown> = {}, title = 'Top 10 by mentions'): AnyBlock =>
    ({
      type: 'data_visualization',
      title,
      chart: {
        type: 'bar',
        series: [series('This period', ['a', 'b'])],
        axis_config: { categories: ['a', 'b'], x_label: 'Influencer', y_label: 'Mentions' },
        ...chart,
      },
    }) as AnyBlock;
  const pie = (segments: number): AnyBlock =>
    ({
      type: 'data_visualization',
      title: 'Categories',
      chart: {
        type: 'pie',
        segments: Array.from({ length: segments }, (_, i) => ({ label: `c${i}`, value: i + 1 })),
      },
    }) as AnyBlock;
  const problems = (...blocks: AnyBlock[]) => checkBlockKitLimits({ text: 'fallback', blocks });

  it('accepts a table and a chart within their limits, and counts their text', () => {
    expect(problems(table(), bars(), pie(6))).toEqual([]);
    expect(
      problems(
        table({ caption: 'c'.repeat(200) }),
        ...Array.from({ length: 5 }, () => section('x'.repeat(2380))),
      ),
    ).toEqual(['block text: 12114 > 12000']);
  });

  it.each<[string, AnyBlock, string]>([
    ['a table without caption', table({ caption: ' ' }), 'blocks[0].caption: empty'],
    [
      'a table of one row',
      table({ rows: [[text('Rank')]] }),
      'blocks[0].rows: 1 < 2 (a header and a row)',
    ],
    [
      'a table of 102 rows',
      table({ rows: Array.from({ length: 102 }, () => [text('x')]) }),
      'blocks[0].rows: 102 > 101',
    ],
    [
      'a table of 21 columns',
      table({
        rows: [
          Array.from({ length: 21 }, () => text('h')),
          Array.from({ length: 21 }, () => text('x')),
        ],
      }),
      'blocks[0].rows[0]: 21 > 20',
    ],
    [
      'rows of unequal length',
      table({ rows: [[text('a'), text('b')], [text('x')]] }),
      'blocks[0].rows[1]: 1 cells, not 2',
    ],
    [
      'rich text in the header',
      table({ rows: [[{ type: 'rich_text', elements: [] }], [text('x')]] }),
      'blocks[0].rows[0][0]: rich_text in the header',
    ],
    [
      'an empty cell',
      table({ rows: [[text('a')], [text('')]] }),
      'blocks[0].rows[1][0].text: empty',
    ],
    [
      'a number that is not one',
      table({ rows: [[text('a')], [{ type: 'raw_number', value: Number.NaN, text: 'NaN' }]] }),
      'blocks[0].rows[1][0].value: not a finite number',
    ],
    ['a page of 101 rows', table({ page_size: 101 }), 'blocks[0].page_size: 101 is not 1-100'],
    [
      'too many characters in the cells',
      table({ rows: [[text('a')], ...Array.from({ length: 100 }, () => [text('x'.repeat(96))])] }),
      'blocks[0] cell text: 9601 > 9500',
    ],
    ['a long chart title', bars({}, 't'.repeat(51)), 'blocks[0].title: 51 > 50'],
    ['a pie of seven slices', pie(7), 'blocks[0].chart.segments: 7 > 6'],
    [
      'seven series',
      bars({ series: Array.from({ length: 7 }, (_, i) => series(`s${i}`, ['a', 'b'])) }),
      'blocks[0].chart.series: 7 > 6',
    ],
    [
      'two series of one name',
      bars({ series: [series('s', ['a', 'b']), series('s', ['a', 'b'])] }),
      'blocks[0].chart.series[1].name: "s" twice',
    ],
    [
      'a series that misses a category',
      bars({ series: [series('s', ['a'])] }),
      'blocks[0].chart.series[0].data: 1 points for 2 categories',
    ],
    [
      'a point off its category',
      bars({ series: [series('s', ['a', 'c'])] }),
      'blocks[0].chart.series[0].data[1].label: not its category',
    ],
    [
      'a long category',
      bars({
        series: [series('s', ['a'.repeat(21)])],
        axis_config: { categories: ['a'.repeat(21)] },
      }),
      'blocks[0].chart.axis_config.categories[0]: 21 > 20',
    ],
    [
      'an unknown chart',
      bars({ type: 'radar' }),
      'blocks[0].chart.type: radar is not pie, bar, line or area',
    ],
  ])('reports %s', (_case, block, problem) => {
    expect(problems(block)).toContain(problem);
  });

  it('allows two charts in a message, not three', () => {
    expect(problems(bars(), pie(2))).toEqual([]);
    expect(problems(bars(), pie(2), pie(3))).toEqual(['data_visualization blocks: 3 > 2']);
  });

  it('counts a block as the message budget does', () => {
    expect(blockTextLength(table())).toBe('Top'.length + 'RankName1Alice'.length);
    expect(blockTextLength(section('hello'))).toBe(5);
  });
});
