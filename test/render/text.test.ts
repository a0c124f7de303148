import { describe, expect, it } from 'vitest';
import type { Influencer, InfluencersResult } from '../../src/analytics/types.ts';
import { UnknownDatabaseError } from '../../src/errors.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import { renderError } from '../../src/render/errors.ts';
import { renderAnswer } from '../../src/render/lookups/answer.ts';
import { mrkdwnToPlain, toPlainText } from '../../src/render/text.ts';
import { bar, chartText, tableText } from '../../src/render/text-figures.ts';

const request: LookupRequest = {
  databases: ['#hcsm', 'breast cancer'],
  start: '2026-11-14T00:00:00-05:00',
  end: '2026-11-21T00:00:00-05:00',
  timezone: 'America/New_York',
  top: 10,
};

describe('mrkdwnToPlain', () => {
  it("writes a date Slack draws in each reader's zone in the reader's zone when it is known", () => {
    const token = 'next <!date^1794632400^{date_short_pretty} {time}|Nov 14, 2026 00:00 EST>';
    expect(mrkdwnToPlain(token, { zone: 'Asia/Tokyo' })).toBe('next Nov 14, 2026 14:00 GMT+9');
    expect(mrkdwnToPlain(token)).toBe('next Nov 14, 2026 00:00 EST');
  });

  it.each([
    [
      '<!date^1794632400^{date_short_pretty} {time}|Nov 14, 2026 00:00 EST>',
      'Nov 14, 2026 00:00 EST',
    ],
    ['<https://x.com/jane|@jane>', '@jane (https://x.com/jane)'],
    ['<https://example.com>', 'https://example.com'],
    ['<https://example.com|https://example.com>', 'https://example.com'],
    ['<@U123>', '@U123'],
    ['<@U123|jane>', '@jane'],
    ['<#C123|general>', '#general'],
    ['<!channel>', '@channel'],
    ['<!subteam^S1|@oncall>', '@oncall'],
    ['*1. Jane* and _this_ and ~that~', '1. Jane and this and that'],
    ['jane_doe_x and 2*3*4', 'jane_doe_x and 2*3*4'],
    ['&lt;!channel&gt; &amp;amp;', '<!channel> &amp;'],
    ['keep `code`', 'keep `code`'],
    ['`cron "0 9 * * 1"` and *bold*', '`cron "0 9 * * 1"` and bold'],
    ['`a_b_` then _c_ and `&lt;x&gt;`', '`a_b_` then c and `<x>`'],
    ['The schedule "*/5 * * * *" runs', 'The schedule "*/5 * * * *" runs'],
    [
      'Try: /influencers digest #hcsm cron "0 9 * * 1"',
      'Try: /influencers digest #hcsm cron "0 9 * * 1"',
    ],
    ['a * b * c and _ d _', 'a * b * c and _ d _'],
    [':warning: :white_check_mark: :bulb:', '⚠️ ✅ 💡'],
    [':not_an_emoji: and 09:00:00', ':not_an_emoji: and 09:00:00'],
    ['`:warning:` stays in code', '`:warning:` stays in code'],
  ])('writes %j as %j', (mrkdwn, plain) => {
    expect(mrkdwnToPlain(mrkdwn)).toBe(plain);
  });
});

describe('toPlainText', () => {
  it('renders an answer as terminal text', () => {
    const message = renderAnswer(
      request,
      {
        influencers: [
          {
            rank: 1,
            screenName: 'drjane',
            displayName: 'Dr. Jane <Doe>',
            profileImageUrl: 'https://pbs.twimg.com/j.jpg',
            hsgScore: 87.35,
            stakeholderCategories: [{ name: 'Doctor' }],
            metrics: { mentions: 1234 },
          },
          { rank: 2, screenName: 'solo', stakeholderCategories: [], metrics: {} },
        ],
      },
      { shareable: true, note: 'Times are in UTC.' },
    );
    expect(toPlainText(message)).toBe(
      [
        'Top influencers for #hcsm, "breast cancer"',
        '==========================================',
        '',
        'Window: Nov 14, 2026 – Nov 20, 2026, whole days, EST · ranked by mentions · queried in America/New_York',
        '',
        'Times are in UTC.',
        '',
        '1. Dr. Jane <Doe> @drjane (https://x.com/drjane)',
        'HSG score 87.4 · 1.2K mentions',
        'Doctor',
        '',
        '2. @solo (https://x.com/solo)',
        '',
        'Who: Doctor 1 · no category 1',
        '',
        'HSG score: the account’s influence across healthcare social media · mentions: posts naming the account in the window · impressions: how often those posts were seen · data: the analytics service, from public posts on X',
        '',
        '[Share in channel]',
      ].join('\n'),
    );
  });

  it('renders fields, dividers, images and inputs', () => {
    expect(
      toPlainText({
        text: 'fallback',
        blocks: [
          {
            type: 'section',
            fields: [
              { type: 'mrkdwn', text: '*Mentions*' },
              { type: 'plain_text', text: '12' },
            ],
          },
          { type: 'divider' },
          { type: 'image', image_url: 'https://a.b/c.png', alt_text: 'chart' },
          {
            type: 'input',
            label: { type: 'plain_text', text: 'Window' },
            element: { type: 'plain_text_input', action_id: 'w', initial_value: 'last week' },
          },
        ],
      }),
    ).toBe('Mentions\n12\n\n---\n\n[image: chart]\n\nWindow: last week');
  });

  it('uses the notification text when there are no blocks', () => {
    expect(toPlainText({ text: 'Only &lt;text&gt;', blocks: [] })).toBe('Only <text>');
  });

  it('renders an error message as its words', () => {
    expect(toPlainText(renderError(new UnknownDatabaseError('#x&y')))).toBe(
      '⚠️ There is no database called “#x&y”. Check the spelling: hashtags keep their `#`, ' +
        'phrases go in quotes, groups are written `group:Name`.',
    );
  });
});

describe('toPlainText of tables and charts', () => {
  const influencers: Influencer[] = [
    {
      rank: 1,
      screenName: 'alice',
      displayName: 'Alice',
      stakeholderCategories: [{ name: 'Doctor' }],
      metrics: { mentions: 1200, impressions: 20_000 },
    },
    {
      rank: 2,
      screenName: 'bob',
      stakeholderCategories: [],
      metrics: { mentions: 300, impressions: 5_000 },
    },
  ];
  const previous: InfluencersResult = {
    influencers: [
      { rank: 1, screenName: 'bob', stakeholderCategories: [], metrics: { mentions: 600 } },
      { rank: 2, screenName: 'carol', stakeholderCategories: [], metrics: { mentions: 500 } },
    ],
  };

  it('prints a table as aligned columns, numbers to the right', () => {
    const message = renderAnswer(
      { ...request, presentation: 'table' },
      { influencers },
      { previous },
    );
    const table = toPlainText(message).split('\n\n')[2];
    expect(table).toBe(
      [
        'Top 2 influencers for #hcsm, "breast cancer", ranked by mentions',
        'Rank  Name   Handle  Then  Change  Δ Mentions  Mentions  Impressions  Categories',
        '--------------------------------------------------------------------------------',
        '   1  Alice  @alice  new   –                –      1.2K          20K  Doctor',
        '   2  –      @bob    #1    ▼1            −300       300           5K  –',
      ].join('\n'),
    );
  });

  it('prints a chart as horizontal bars, each series named when there are two', () => {
    const bars = toPlainText(
      renderAnswer({ ...request, presentation: 'chart' }, { influencers }, { previous }),
    ).split('\n\n')[2];
    expect(bars).toBe(
      [
        'Top 2 by mentions · #hcsm, "breast cancer"',
        '#1 @alice ·new  This period      ████████████████████████ 1.2K',
        '                Previous period  0',
        '#2 @bob         This period      ██████ 300',
        '                Previous period  ████████████ 600',
      ].join('\n'),
    );
    const pie = toPlainText(
      renderAnswer({ ...request, presentation: 'category_chart' }, { influencers }),
    ).split('\n\n')[2];
    expect(pie).toBe(
      [
        'Categories in the top 2 · #hcsm, "breast cancer"',
        'Doctor       ████████████████████████ 50% (1)',
        'No category  ████████████████████████ 50% (1)',
      ].join('\n'),
    );
  });

  it('draws bars to an eighth of a character', () => {
    expect(bar(1, 24)).toBe('█');
    expect(bar(1.5, 24)).toBe('█▌');
    expect(bar(0.1, 24)).toBe('▏');
    expect(bar(0, 24)).toBe('');
    expect(bar(30, 24)).toBe('█'.repeat(24));
  });

  it('prints a line chart as a sparkline per series on one scale, under its first and last category', () => {
    const lines = chartText({
      title: 'Mentions per week',
      chart: {
        type: 'line',
        series: [
          { name: '@alice', data: [8, 4, 0].map((value, i) => ({ label: `W${i}`, value })) },
          { name: '@bo', data: [1, 2, 3].map((value, i) => ({ label: `W${i}`, value })) },
        ],
        axis_config: { categories: ['W0', 'W1', 'W2'] },
      },
    });
    expect(lines).toEqual(['        W0 → W2', '@alice  █▅·  0', '@bo     ▂▃▄  3']);
  });

  it('shows the short form of `short · more` cells in compact text, and all of them in full', () => {
    const block = {
      rows: [
        [
          { type: 'raw_text', text: 'Who' },
          { type: 'raw_text', text: 'Nov 16 · so far' },
        ],
        [
          { type: 'raw_text', text: '@alice' },
          { type: 'raw_number', value: 3, text: '#3 · 1.2K' },
        ],
      ],
    };
    expect(tableText(block, { columns: 'compact', maxCellWidth: 20 }).rows).toEqual([
      '@alice      #3',
    ]);
    expect(tableText(block, { columns: 'all', maxCellWidth: 20 }).rows).toEqual([
      '@alice        #3 · 1.2K',
    ]);
  });
});
