import { describe, expect, it } from 'vitest';
import type { Influencer, InfluencersResult } from '../../../src/analytics/types.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { actionIds, blockIds } from '../../../src/render/ids.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import {
  decodeShareValue,
  encodeShareValue,
  renderAnswer,
  renderShared,
  shareTooLongNote,
} from '../../../src/render/lookups/answer.ts';
import { metricsFootnote } from '../../../src/render/lookups/metric-words.ts';
import { influencer, lookup } from '../helpers.ts';

const request = lookup;

const windowLine =
  'Window: Nov 14, 2026 – Nov 20, 2026, whole days, EST · ranked by mentions · queried in America/New_York';

const typical: InfluencersResult = {
  influencers: [
    {
      rank: 1,
      screenName: 'drjane_doe',
      displayName: 'Dr. Jane Doe',
      profileImageUrl: 'https://pbs.twimg.com/profile_images/1/jane.jpg',
      hsgScore: 87.35,
      stakeholderCategories: [
        { id: 3, name: 'Doctor' },
        { id: 9, name: 'Researcher/Academic' },
      ],
      metrics: { mentions: 1234, retweets: 340, impressions: 1_500_000 },
    },
    {
      rank: 2,
      screenName: 'hcsm_bot',
      displayName: 'HCSM News',
      stakeholderCategories: [{ name: 'Journalist/Media' }],
      metrics: { mentions: 999, tweets: 1, replies: 12_345 },
    },
    { rank: 3, screenName: 'solo', stakeholderCategories: [], metrics: {} },
  ],
};

function sectionTexts(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) =>
    block.type === 'section' && block.text !== undefined ? [block.text.text] : [],
  );
}

describe('renderAnswer', () => {
  it('writes a window of whole days as days, and any other window by its exact ends', () => {
    const windowOf = (message: SlackMessage) => message.blocks[1];
    expect(windowOf(renderAnswer(request, typical))).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: windowLine }],
    });
    const hours = { ...request, end: '2026-11-21T10:30:00-05:00' };
    expect(windowOf(renderAnswer(hours, typical))).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text:
            'Window: <!date^1794632400^{date_short_pretty} {time}|Nov 14, 2026 00:00 EST> → ' +
            '<!date^1795275000^{date_short_pretty} {time}|Nov 21, 2026 10:30 EST> · ranked by mentions · queried in America/New_York',
        },
      ],
    });
    expect(renderAnswer(hours, typical).text).toBe(
      'Top 3 influencers for #hcsm, Nov 14–Nov 21: @drjane_doe, @hcsm_bot, @solo',
    );
  });

  it('renders a typical result: header, window, ranked influencers, share button', () => {
    const message = renderAnswer(request, typical, { shareable: true });
    expect(message).toEqual({
      text: 'Top 3 influencers for #hcsm, Nov 14–Nov 20: @drjane_doe, @hcsm_bot, @solo',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Top influencers for #hcsm' } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: windowLine }] },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text:
              '*1. Dr. Jane Doe* <https://x.com/drjane_doe|@drjane_doe>\n' +
              'HSG score 87.4 · 1.2K mentions · 340 retweets · 1.5M impressions\n' +
              'Doctor, Researcher/Academic',
          },
          accessory: {
            type: 'image',
            image_url: 'https://pbs.twimg.com/profile_images/1/jane.jpg',
            alt_text: 'Profile picture of Dr. Jane Doe',
          },
        },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text:
              '*2. HCSM News* <https://x.com/hcsm_bot|@hcsm_bot>\n' +
              '999 mentions · 1 tweet · 12.3K replies\n' +
              'Journalist/Media',
          },
        },
        { type: 'section', text: { type: 'mrkdwn', text: '*3.* <https://x.com/solo|@solo>' } },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: 'Who: Doctor 1 · Researcher 1 · Journalist 1 · no category 1 (someone in two categories counts in each)',
            },
          ],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: metricsFootnote }] },
        {
          type: 'actions',
          block_id: blockIds.answerActions,
          elements: [
            {
              type: 'button',
              action_id: actionIds.shareAnswer,
              text: { type: 'plain_text', text: 'Share in channel' },
              value: encodeShareValue(request),
            },
          ],
        },
      ],
    });
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('shows an influencer with only a screen name as rank and linked handle', () => {
    const message = renderAnswer(request, {
      influencers: [{ rank: 1, screenName: 'only_handle', stakeholderCategories: [], metrics: {} }],
    });
    expect(sectionTexts(message)).toEqual(['*1.* <https://x.com/only_handle|@only_handle>']);
    expect(message.text).toBe('Top influencer for #hcsm, Nov 14–Nov 20: @only_handle');
    expect(JSON.stringify(message)).not.toMatch(/undefined|null|NaN| · ·|\n\n/);
  });

  it('names an influencer without a handle by display name and does not link it', () => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 4, screenName: '', displayName: 'No Handle' })],
    });
    expect(sectionTexts(message)).toEqual(['*4. No Handle*']);
    expect(message.text).toBe('Top influencer for #hcsm, Nov 14–Nov 20: No Handle');
  });

  it('takes the HSG score from the metrics when the account score is missing', () => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 1, metrics: { hsg_score: 42, mentions: 1 } })],
    });
    expect(sectionTexts(message)).toEqual([
      '*1.* <https://x.com/user1|@user1>\nHSG score 42 · 1 mention',
    ]);
  });

  it('ignores fields it does not know and metrics that are not finite numbers', () => {
    const odd = {
      ...influencer({ rank: 1 }),
      followers: 12,
      metrics: { mentions: Number.NaN, retweets: 'many', tweets: 3, likes: 9 },
    } as unknown as Influencer;
    const message = renderAnswer(request, { influencers: [odd] });
    expect(sectionTexts(message)).toEqual(['*1.* <https://x.com/user1|@user1>\n3 tweets']);
  });

  it('numbers influencers by position when the rank is missing or not a positive number', () => {
    const message = renderAnswer(request, {
      influencers: [
        influencer({ rank: Number.NaN, screenName: 'a' }),
        influencer({ rank: 0, screenName: 'b' }),
      ],
    });
    expect(sectionTexts(message)).toEqual([
      '*1.* <https://x.com/a|@a>',
      '*2.* <https://x.com/b|@b>',
    ]);
  });

  it('encodes the handle in the profile URL', () => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 1, screenName: '@ä b/c?d' })],
    });
    expect(sectionTexts(message)).toEqual(['*1.* <https://x.com/%C3%A4%20b%2Fc%3Fd|@ä b/c?d>']);
  });

  it('shows a handle too long to be real without a link', () => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 1, screenName: 'x'.repeat(80) })],
    });
    expect(sectionTexts(message)).toEqual([`*1.* @${'x'.repeat(49)}…`]);
  });

  it.each([
    ['not a url'],
    ['javascript:alert(1)'],
    ['ftp://example.com/a.png'],
    ['http://example.com/a.png'],
    [`https://example.com/${'a'.repeat(1000)}.png`],
  ])('leaves the picture out when the image URL is %j', (url) => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 1, profileImageUrl: url })],
    });
    expect(message.blocks.some((block) => block.type === 'section' && 'accessory' in block)).toBe(
      false,
    );
  });

  it('lists at most five stakeholder categories and counts the rest', () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'A', ' '];
    const message = renderAnswer(request, {
      influencers: [
        influencer({ rank: 1, stakeholderCategories: names.map((name) => ({ name })) }),
      ],
    });
    expect(sectionTexts(message)).toEqual([
      '*1.* <https://x.com/user1|@user1>\nA, B, C, D, E +2 more',
    ]);
  });

  it('says so, with a hint, when nobody was found', () => {
    const message = renderAnswer(
      { ...request, databases: ['#hcsm', 'breast cancer'] },
      { influencers: [] },
      { shareable: true },
    );
    expect(message).toEqual({
      text: 'No influencers found for #hcsm, "breast cancer", Nov 14–Nov 20.',
      blocks: [
        {
          type: 'header',
          text: { type: 'plain_text', text: 'Top influencers for #hcsm, "breast cancer"' },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: windowLine }] },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text:
              'No influencers found for #hcsm, "breast cancer" in this window. Try a wider window ' +
              '(for example `last month`), or check the database name: hashtags keep their `#`, ' +
              'phrases go in quotes (`"breast cancer"`), groups are written `group:Name`.',
          },
        },
      ],
    });
  });

  it('blames the filter, not the window or the name, when it kept nobody of the top 500', () => {
    const message = renderAnswer(
      { ...request, stakeholders: { include: ['Org. Pharma'], exclude: [] } },
      { influencers: [], selection: { pool: 500, matched: 0 } },
    );
    expect(message.text).toBe(
      'The filter (Pharma orgs) kept nobody of the top 500 by mentions of #hcsm, Nov 14–Nov 20.',
    );
    expect(sectionTexts(message)).toEqual([
      'The filter (Pharma orgs) kept nobody of the top 500 by mentions of #hcsm in this window. ' +
        'Try without it, or a wider window (for example `last month`).',
    ]);
  });

  it('says nobody was found, as without a filter, when the service ranked nobody', () => {
    const message = renderAnswer(
      { ...request, stakeholders: { include: ['Doctor'], exclude: [] } },
      { influencers: [], selection: { pool: 0, matched: 0 } },
    );
    expect(message.text).toBe('No influencers found for #hcsm, Nov 14–Nov 20.');
  });

  it('shows the note as a context line under the window', () => {
    const message = renderAnswer(request, typical, {
      note: 'Your Slack profile has no time zone; times are in UTC.',
    });
    expect(message.blocks[2]).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: 'Your Slack profile has no time zone; times are in UTC.' },
      ],
    });
  });

  it('offers no share button unless asked, nor in a channel answer', () => {
    const hasButton = (message: SlackMessage): boolean =>
      message.blocks.some((block) => block.type === 'actions');
    expect(hasButton(renderAnswer(request, typical))).toBe(false);
    expect(
      hasButton(renderAnswer(request, typical, { shareable: true, audience: 'channel' })),
    ).toBe(false);
    expect(
      hasButton(renderAnswer(request, typical, { shareable: true, audience: 'ephemeral' })),
    ).toBe(true);
  });

  it('says why there is no share button when the request does not fit in a button value', () => {
    const big = {
      ...request,
      databases: Array.from({ length: 30 }, (_, i) => `#${'x'.repeat(80)}${i}`),
    };
    expect(encodeShareValue(big).length).toBeGreaterThan(2000);
    const message = renderAnswer(big, typical, { shareable: true });
    expect(message.blocks.some((block) => block.type === 'actions')).toBe(false);
    expect(message.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'This answer is too long to share with the button; copy it, or ask in the channel by mentioning me.',
        },
      ],
    });
    expect(shareTooLongNote).toMatch(/^This answer is too long to share with the button/);
    expect(checkBlockKitLimits(message)).toEqual([]);
    expect(
      renderAnswer(big, typical, { shareable: false }).blocks.some(
        (block) => block.type === 'context' && JSON.stringify(block).includes('too long to share'),
      ),
    ).toBe(false);
  });

  it('truncates a header longer than 150 characters with an ellipsis', () => {
    const databases = Array.from({ length: 10 }, (_, i) => `#conversation_number_${i}`);
    const message = renderAnswer({ ...request, databases }, typical);
    const header = message.blocks[0];
    expect(header?.type === 'header' && header.text.text).toBe(
      `${`Top influencers for ${databases.join(', ')}`.slice(0, 149).trimEnd()}…`,
    );
    expect(header?.type === 'header' && header.text.text.length).toBeLessThanOrEqual(150);
  });

  it('shows only the top N asked for when the service sends more', () => {
    const twelve = {
      influencers: Array.from({ length: 12 }, (_, i) => influencer({ rank: i + 1 })),
    };
    const message = renderAnswer({ ...request, top: 5 }, twelve);
    expect(sectionTexts(message)).toHaveLength(5);
    expect(message.text).toBe(
      'Top 5 influencers for #hcsm, Nov 14–Nov 20: @user1, @user2, @user3…',
    );
  });

  it('ends the notification text with an ellipsis when more than three are ranked', () => {
    const many = { influencers: Array.from({ length: 10 }, (_, i) => influencer({ rank: i + 1 })) };
    expect(renderAnswer(request, many).text).toBe(
      'Top 10 influencers for #hcsm, Nov 14–Nov 20: @user1, @user2, @user3…',
    );
  });

  it('lists the top ten with pictures and gives the whole ranking as a table when more are asked for', () => {
    const fifty = {
      influencers: Array.from({ length: 50 }, (_, i) =>
        influencer({
          rank: i + 1,
          displayName: `Person ${i + 1}`,
          profileImageUrl: 'https://pbs.twimg.com/p.jpg',
          metrics: { mentions: 1000 - i },
        }),
      ),
    };
    const message = renderAnswer({ ...request, top: 50 }, fifty, {
      shareable: true,
      note: 'A note.',
    });
    expect(checkBlockKitLimits(message)).toEqual([]);
    const listed = message.blocks.filter(
      (block) => block.type === 'section' && 'accessory' in block,
    );
    expect(listed).toHaveLength(10);
    expect(sectionTexts(message)[9]).toContain('*10. Person 10*');
    const table = message.blocks.find((block) => block.type === 'data_table');
    expect(table?.type === 'data_table' && table.rows).toHaveLength(51);
    expect(table?.type === 'data_table' && table.rows[50]?.[1]).toEqual({
      type: 'raw_text',
      text: 'Person 50',
    });
    expect(message.blocks.at(-1)?.type).toBe('actions');
  });

  it('stops with "…and N more" when the ranking would exceed the message budget', () => {
    const long = {
      influencers: Array.from({ length: 100 }, (_, i) =>
        influencer({
          rank: i + 1,
          screenName: `${'h'.repeat(60)}${i}`,
          displayName: 'N'.repeat(500),
          stakeholderCategories: Array.from({ length: 9 }, (_, c) => ({
            name: `${c}${'c'.repeat(60)}`,
          })),
          hsgScore: 87.35,
          followersCount: 123_456,
          metrics: {
            mentions: 123_456,
            retweets: 223_456,
            tweets: 323_456,
            impressions: 423_456_789,
            replies: 523_456,
          },
        }),
      ),
    };
    const message = renderAnswer({ ...request, top: 100 }, long, {
      note: 'n'.repeat(1000),
      previous: { influencers: [...long.influencers].reverse() },
    });
    expect(checkBlockKitLimits(message)).toEqual([]);
    const table = message.blocks.find((block) => block.type === 'data_table');
    const rows = table?.type === 'data_table' ? table.rows.length - 1 : 0;
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(100);
    expect(message.blocks).toContainEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `…and ${100 - rows} more not shown here` }],
    });
  });
});

describe('renderAnswer against injection', () => {
  const attacks: ReadonlyArray<readonly [string, string]> = [
    ['*bold*', '∗bold∗'],
    ['_x_', 'ˍxˍ'],
    ['~x~', '∼x∼'],
    ['`x`', 'ˋxˋ'],
    ['<!channel>', '&lt;!channel&gt;'],
    ['<!here|here>', '&lt;!here|here&gt;'],
    ['<@U123>', '&lt;@U123&gt;'],
    ['<#C123|general>', '&lt;#C123|general&gt;'],
    ['<http://evil|click>', '&lt;http∶//evil|click&gt;'],
    ['Fish & Chips', 'Fish &amp; Chips'],
    ['line\n> quote', 'line &gt; quote'],
  ];

  it.each(attacks)('shows the display name %j literally', (name, shown) => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 1, screenName: 'safe', displayName: name })],
    });
    expect(sectionTexts(message)).toEqual([`*1. ${shown}* <https://x.com/safe|@safe>`]);
  });

  it.each(attacks)('shows the stakeholder category %j literally', (name, shown) => {
    const message = renderAnswer(request, {
      influencers: [influencer({ rank: 1, screenName: 'safe', stakeholderCategories: [{ name }] })],
    });
    expect(sectionTexts(message)).toEqual([`*1.* <https://x.com/safe|@safe>\n${shown}`]);
  });

  it.each(attacks)(
    'shows the screen name %j literally in the label and the text fallback',
    (name, shown) => {
      const message = renderAnswer(request, {
        influencers: [influencer({ rank: 1, screenName: name })],
      });
      const text = sectionTexts(message)[0] ?? '';
      expect(text.endsWith(`|@${shown}>`)).toBe(true);
      expect(message.text).toBe(`Top influencer for #hcsm, Nov 14–Nov 20: @${shown}`);
    },
  );

  it.each(attacks)('keeps the database name %j out of the markup', (name, shown) => {
    const message = renderAnswer({ ...request, databases: [name] }, { influencers: [] });
    const hint = sectionTexts(message)[0] ?? '';
    expect(hint.startsWith('No influencers found for ')).toBe(true);
    expect(hint).toContain(shown);
    expect(message.text).not.toMatch(/<[!@#h]/);
    const header = message.blocks[0];
    expect(header?.type === 'header' && header.text.type).toBe('plain_text');
  });
});

describe('share value', () => {
  it('round-trips a request as compact JSON', () => {
    const full: LookupRequest = {
      databases: ['#hcsm', 'breast cancer', 'group:Rare Diseases', '4711'],
      start: '2026-11-14T00:00:00-05:00',
      end: '2026-11-21T00:00:00-05:00',
      timezone: 'America/New_York',
      top: 20,
    };
    const value = encodeShareValue(full);
    expect(value).toBe(
      '{"v":1,"d":["#hcsm","breast cancer","group:Rare Diseases","4711"],' +
        '"s":"2026-11-14T00:00:00-05:00","e":"2026-11-21T00:00:00-05:00","z":"America/New_York","t":20}',
    );
    expect(decodeShareValue(value)).toEqual(full);
  });

  it.each([
    ['not json', 'nope'],
    [
      'another version',
      '{"v":2,"d":["#a"],"s":"2026-11-14T00:00:00Z","e":"2026-11-15T00:00:00Z","z":"UTC","t":10}',
    ],
    [
      'no databases',
      '{"v":1,"d":[],"s":"2026-11-14T00:00:00Z","e":"2026-11-15T00:00:00Z","z":"UTC","t":10}',
    ],
    [
      'top out of range',
      '{"v":1,"d":["#a"],"s":"2026-11-14T00:00:00Z","e":"2026-11-15T00:00:00Z","z":"UTC","t":101}',
    ],
    [
      'a start without offset',
      '{"v":1,"d":["#a"],"s":"2026-11-14T00:00:00","e":"2026-11-15T00:00:00Z","z":"UTC","t":10}',
    ],
    [
      'an inverted window',
      '{"v":1,"d":["#a"],"s":"2026-11-16T00:00:00Z","e":"2026-11-15T00:00:00Z","z":"UTC","t":10}',
    ],
    ['a JSON array', '[1,2]'],
  ])('rejects %s', (_case, value) => {
    expect(decodeShareValue(value)).toBeUndefined();
  });
});

describe('renderShared', () => {
  const answer = renderAnswer(request, typical, { audience: 'channel' });

  it('says who shared, in the notification text and under the answer', () => {
    const shared = renderShared(answer, 'U0PERSON1');
    expect(shared.text).toBe(`<@U0PERSON1> shared: ${answer.text}`);
    expect(shared.blocks).toEqual([
      ...answer.blocks,
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Shared by <@U0PERSON1>' }] },
    ]);
  });

  it('leaves the answer as it is for an id that is not a Slack user id', () => {
    expect(renderShared(answer, '<!channel>')).toEqual(answer);
  });
});
