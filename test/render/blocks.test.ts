import type { ImageElement } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Influencer } from '../../src/analytics/types.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { context, section, withoutImages, withoutNewBlocks } from '../../src/render/blocks.ts';
import { checkBlockKitLimits } from '../../src/render/limits.ts';
import { renderAnswer } from '../../src/render/lookups/answer.ts';
import { influencer, lookup, texts } from './helpers.ts';

const picture: ImageElement = {
  type: 'image',
  image_url: 'https://example.com/a.png',
  alt_text: 'Profile picture of A',
};

describe('withoutImages', () => {
  it('drops section pictures and image blocks and keeps everything else in order', () => {
    const message = {
      text: 'fallback',
      blocks: [
        section('*1.* A', picture),
        { type: 'image' as const, image_url: 'https://example.com/b.png', alt_text: 'B' },
        context('note'),
      ],
    };
    expect(withoutImages(message)).toEqual({
      text: 'fallback',
      blocks: [section('*1.* A'), context('note')],
    });
  });

  it('gives back the very message when it has no picture', () => {
    const message = { text: 'plain', blocks: [section('text'), context('note')] };
    expect(withoutImages(message)).toBe(message);
  });
});

describe('withoutNewBlocks', () => {
  const request = lookup;
  const person = (rank: number, screenName: string, metrics: Influencer['metrics']) =>
    influencer({ rank, screenName, metrics });
  const two = {
    influencers: [
      { ...person(1, 'alice', { mentions: 900, impressions: 20_000 }), displayName: 'Alice <A&B>' },
      person(2, 'bob', { mentions: 800 }),
    ],
  };
  const types = (message: SlackMessage) => message.blocks.map((block) => block.type);

  it('gives back the very message when it has neither a table nor a chart', () => {
    const message = renderAnswer(request, two, { shareable: true });
    expect(withoutNewBlocks(message)).toBe(message);
  });

  it('draws a table as aligned text in a code block, in its place', () => {
    const message = renderAnswer(request, two, { presentation: 'table' });
    const plain = withoutNewBlocks(message);
    expect(types(message)).toEqual(['header', 'context', 'data_table', 'context']);
    expect(types(plain)).toEqual(['header', 'context', 'section', 'context']);
    expect(plain.blocks[2]).toEqual(
      section(
        '*Top 2 influencers for #hcsm, ranked by mentions*\n```\n' +
          'Rank  Name         Handle  Mentions  Impressions\n' +
          '------------------------------------------------\n' +
          '   1  Alice &lt;A&amp;B&gt;  @alice       900          20K\n' +
          '   2  –            @bob         800            –\n' +
          '```',
      ),
    );
    expect(plain.text).toBe(message.text);
    expect(checkBlockKitLimits(plain)).toEqual([]);
  });

  it('draws a chart as text bars in a code block, above the list it keeps', () => {
    const plain = withoutNewBlocks(renderAnswer(request, two, { presentation: 'chart' }));
    expect(types(plain)).toEqual(['header', 'context', 'section', 'section', 'section', 'context']);
    expect(plain.blocks[2]).toEqual(
      section(
        '*Top 2 by mentions · #hcsm*\n```\n' +
          '#1 @alice  ████████████████████████ 900\n' +
          '#2 @bob    █████████████████████▍ 800\n' +
          '```',
      ),
    );
    const pie = withoutNewBlocks(renderAnswer(request, two, { presentation: 'category_chart' }));
    expect(pie.blocks[2]).toEqual(
      section(
        '*Categories in the top 2 · #hcsm*\n```\nNo category  ████████████████████████ 100% (2)\n```',
      ),
    );
  });

  it('splits a long table into sections and ends with how to get the rest', () => {
    const hundred = {
      influencers: Array.from({ length: 100 }, (_, i) => ({
        ...person(i + 1, `h${'x'.repeat(40)}${i}`, {
          hsg_score: 99.5,
          mentions: 123_456,
          retweets: 223_456,
          tweets: 323_456,
          impressions: 423_456_789,
          replies: 523_456,
        }),
        displayName: `${'N'.repeat(200)}${i}`,
        followersCount: 12_345,
      })),
    };
    const message = renderAnswer({ ...request, top: 100 }, hundred, {
      note: 'n'.repeat(900),
      previous: { influencers: [...hundred.influencers].reverse() },
      actions: true,
    });
    const plain = withoutNewBlocks(message);
    expect(checkBlockKitLimits(plain)).toEqual([]);
    const code = plain.blocks.filter(
      (block) => block.type === 'section' && block.text?.text.includes('```'),
    );
    expect(code.length).toBeGreaterThan(1);
    const shown = code
      .map((block) => (block.type === 'section' ? (block.text?.text ?? '') : ''))
      .join('\n')
      .split('\n')
      .filter((line) => /^\s+\d+ {2}/.test(line)).length;
    const table = message.blocks.find((block) => block.type === 'data_table');
    const rows = table?.type === 'data_table' ? table.rows.length - 1 : 0;
    expect(shown).toBeLessThan(rows);
    expect(texts(plain.blocks)).toContain(`…and ${rows - shown} more: Export CSV for all`);
    expect(plain.blocks.at(-1)?.type).toBe('actions');
  });

  it('reads any table: rich text cells, numbers aligned right', () => {
    const message: SlackMessage = {
      text: 'figures',
      blocks: [
        {
          type: 'data_table',
          caption: 'Figures',
          rows: [
            [
              { type: 'raw_text', text: 'What' },
              { type: 'raw_text', text: 'Count' },
            ],
            [
              {
                type: 'rich_text',
                elements: [
                  { type: 'rich_text_section', elements: [{ type: 'text', text: 'Apples' }] },
                ],
              },
              { type: 'raw_number', value: 3, text: '3' },
            ],
            [
              { type: 'raw_text', text: 'Pears' },
              { type: 'raw_number', value: 12, text: '12' },
            ],
          ],
        },
      ],
    };
    expect(withoutNewBlocks(message).blocks).toEqual([
      section('*Figures*\n```\nWhat    Count\n-------------\nApples      3\nPears      12\n```'),
    ]);
  });
});
