import { describe, expect, it } from 'vitest';
import type { InfluencersResult } from '../../../src/analytics/types.ts';
import type { RenderDigest, RenderPauseNotice } from '../../../src/digests/runner.ts';
import type { ErrorCode } from '../../../src/errors.ts';
import { defined } from '../../../src/model/defined.ts';
import type { Digest, PauseReason } from '../../../src/model/digest.ts';
import { rankChanges } from '../../../src/model/rank-changes.ts';
import {
  renderDigestMessage,
  renderDigestPaused,
} from '../../../src/render/digests/digest-post.ts';
import { checkBlockKitLimits } from '../../../src/render/limits.ts';
import { digest, mondayDate, query, result, texts } from '../helpers.ts';

describe('renderDigestMessage', () => {
  it('is the lookup answer with a context line, and rank changes from the second run on', () => {
    const changes = rankChanges(
      [
        { screenName: 'bob', rank: 1 },
        { screenName: 'carol', rank: 2 },
      ],
      [
        { screenName: 'alice', rank: 1 },
        { screenName: 'bob', rank: 2 },
      ],
    );
    const message = renderDigestMessage(digest(), query, result, changes, {
      createdByName: 'Jane *Doe*',
    });
    expect(message.text).toBe(
      'Weekly digest: Top 2 influencers for #hcsm, Nov 16–Nov 23: @alice, @bob',
    );
    expect(texts(message.blocks)).toEqual([
      'Top influencers for #hcsm',
      `Window: ${mondayDate(1794819600, 'Nov 16, 2026 09:00 GMT')} → ${mondayDate(1795424400, 'Nov 23, 2026 09:00 GMT')} · ranked by mentions · queried in Europe/London`,
      'Weekly digest · Mondays at 09:00 Europe/London · created by Jane ∗Doe∗ · id 7K3M9Q',
      '*1.* <https://x.com/alice|@alice>\n10 mentions',
      '*2.* <https://x.com/bob|@bob>',
      '*Since the previous run*\n*New*: @alice at #1\n*Down*: @bob −1 to #2\n*Dropped out*: @carol (was #2)',
    ]);
  });

  it('shows no rank changes on the first run and mentions the creator without a name', () => {
    const message = renderDigestMessage(
      digest({
        schedule: { kind: 'cron', expression: '30 8 * * 1-5', zone: 'UTC', cadence: 'custom' },
      }),
      query,
      result,
      rankChanges(undefined, []),
    );
    const lines = texts(message.blocks);
    expect(lines[2]).toBe('Digest · Weekdays at 08:30 UTC · created by <@U42> · id 7K3M9Q');
    expect(lines.at(-1)).toBe('*2.* <https://x.com/bob|@bob>');
  });

  it('says so when nothing moved, and counts moves beyond ten', () => {
    const same = rankChanges(
      [{ screenName: 'alice', rank: 1 }],
      [{ screenName: 'ALICE', rank: 1 }],
    );
    expect(texts(renderDigestMessage(digest(), query, result, same).blocks).at(-1)).toBe(
      '*Since the previous run*\nNo change in the ranking since the previous run.',
    );
    const previous = Array.from({ length: 12 }, (_, i) => ({ screenName: `p${i}`, rank: i + 1 }));
    const current = Array.from({ length: 12 }, (_, i) => ({ screenName: `c${i}`, rank: i + 1 }));
    const moved = texts(
      renderDigestMessage(digest(), query, result, rankChanges(previous, current)).blocks,
    ).at(-1);
    expect(moved).toContain('@c9 at #10 and 2 more\n');
    expect(moved).toMatch(/@p9 \(was #10\) and 2 more$/);
  });

  it('fits the Block Kit limits with 50 long entries and many moves: ten listed, all in the table', () => {
    const long = 'W'.repeat(200);
    const full: InfluencersResult = {
      influencers: Array.from({ length: 50 }, (_, i) => ({
        rank: i + 1,
        screenName: `${long}${i}`,
        displayName: `${long} ${i}`,
        profileImageUrl: `https://example.com/${i}.png`,
        hsgScore: 10,
        stakeholderCategories: Array.from({ length: 6 }, (_, c) => ({ name: `${long}${c}` })),
        metrics: { mentions: 1, retweets: 2, tweets: 3, impressions: 4, replies: 5 },
      })),
    };
    const previous = Array.from({ length: 50 }, (_, i) => ({
      screenName: `${long}x${i}`,
      rank: i + 1,
    }));
    const changes = rankChanges(
      previous,
      full.influencers.map((influencer) => ({
        screenName: influencer.screenName,
        rank: influencer.rank,
      })),
    );
    const message = renderDigestMessage(
      digest({ top: 50 }),
      { ...query, limit: 50 },
      full,
      changes,
    );
    expect(checkBlockKitLimits(message)).toEqual([]);
    const lines = texts(message.blocks);
    expect(lines[2]).toContain('Weekly digest · ');
    expect(lines.at(-1)).toMatch(/^\*Since the previous run\*\n\*New\*: /);
    expect(lines.filter((line) => line.startsWith('*')).slice(0, 10)).toHaveLength(10);
    const table = message.blocks.find((block) => block.type === 'data_table');
    const rows = table?.type === 'data_table' ? table.rows.length - 1 : 0;
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBe(50);
  });

  it('shows its ranking as it was asked to: a table, a chart, with the same blocks as a lookup', () => {
    const moved = rankChanges(
      [{ screenName: 'bob', rank: 1 }],
      [
        { screenName: 'alice', rank: 1 },
        { screenName: 'bob', rank: 2 },
      ],
    );
    const types = (presentation: Digest['presentation']) =>
      renderDigestMessage(
        digest({ presentation, metric: 'impressions' }),
        query,
        result,
        moved,
      ).blocks.map((block) => block.type);
    expect(types('table')).toEqual(['header', 'context', 'context', 'data_table', 'section']);
    expect(types('chart')).toEqual([
      'header',
      'context',
      'context',
      'data_visualization',
      'section',
      'section',
      'section',
    ]);
    expect(types('category_chart')[3]).toBe('data_visualization');
    const table = renderDigestMessage(digest({ presentation: 'table' }), query, result, moved);
    expect(texts(table.blocks)[1]).toContain(' · ranked by mentions · ');
    expect(table.blocks[3]).toMatchObject({
      type: 'data_table',
      caption: 'Top 2 influencers for #hcsm, ranked by mentions',
    });
    expect(texts(table.blocks).at(-1)).toBe(
      '*Since the previous run*\n*New*: @alice at #1\n*Down*: @bob −1 to #2',
    );
    expect(checkBlockKitLimits(table)).toEqual([]);
  });

  it('prepares an answer shared by several digests once, and frames it for each', () => {
    const shared: InfluencersResult = {
      influencers: Array.from({ length: 30 }, (_, i) => ({
        rank: i + 1,
        screenName: `person${i + 1}`,
        name: `Person ${i + 1}`,
        stakeholderCategories: [{ name: 'Doctor' }],
        metrics: { mentions: 300 - i },
      })),
    };
    const asked = { ...query, limit: 30 };
    const ranked = shared.influencers.map((each) => ({
      screenName: each.screenName,
      rank: each.rank,
    }));
    const first = digest({ id: 'AAAAAA', top: 30 });
    const second = digest({ id: 'BBBBBB', top: 30, creatorId: 'U7' });
    const firstChanges = rankChanges(undefined, ranked);
    const secondChanges = rankChanges([{ screenName: 'person2', rank: 1 }], ranked);
    const one = renderDigestMessage(first, asked, shared, firstChanges, { createdByName: 'Jane' });
    const two = renderDigestMessage(second, asked, shared, secondChanges);
    // Each is the message its digest gets from an answer of its own.
    expect(one).toEqual(
      renderDigestMessage(first, asked, structuredClone(shared), firstChanges, {
        createdByName: 'Jane',
      }),
    );
    expect(two).toEqual(renderDigestMessage(second, asked, structuredClone(shared), secondChanges));
    // Their own parts: the context line, and what moved since each one's previous run.
    expect(texts(one.blocks)[2]).toBe(
      'Weekly digest · Mondays at 09:00 Europe/London · created by Jane · id AAAAAA',
    );
    expect(texts(two.blocks)[2]).toBe(
      'Weekly digest · Mondays at 09:00 Europe/London · created by <@U7> · id BBBBBB',
    );
    expect(texts(one.blocks).at(-1)).not.toContain('Since the previous run');
    expect(texts(two.blocks).at(-1)).toMatch(/^\*Since the previous run\*\n\*New\*: /);
    // The answer's own parts were made once: the second digest holds the very same blocks.
    const table = (message: typeof one) => message.blocks.find((b) => b.type === 'data_table');
    expect(table(one)).toBeDefined();
    expect(table(two)).toBe(table(one));
    expect(two.blocks[0]).toBe(one.blocks[0]);
    expect(two.blocks[1]).toBe(one.blocks[1]);
    // Another answer, or the same one asked to show itself otherwise, is prepared anew.
    const again = renderDigestMessage(first, asked, structuredClone(shared), firstChanges);
    expect(again.blocks[0]).toEqual(one.blocks[0]);
    expect(again.blocks[0]).not.toBe(one.blocks[0]);
    const byImpressions = renderDigestMessage(
      digest({ id: 'CCCCCC', top: 30, metric: 'impressions' }),
      asked,
      shared,
      firstChanges,
    );
    expect(byImpressions.blocks[1]).not.toBe(one.blocks[1]);
    expect(texts(byImpressions.blocks)[1]).toContain(' · ranked by impressions · ');
  });

  it('fits the engine’s RenderDigest and RenderPauseNotice as they are', () => {
    const render: RenderDigest = renderDigestMessage;
    const notice: RenderPauseNotice = renderDigestPaused;
    const message = render(digest(), query, result, rankChanges(undefined, []));
    expect('blocks' in message && message.blocks.length).toBe(5);
    expect(notice(digest(), failures('channel_unreachable', 'archived')).text).toBe(
      'Your digest 7K3M9Q was paused: the channel was archived. Resume it with /influencers digest resume 7K3M9Q',
    );
  });
});

function failures(code: ErrorCode | 'unknown', detail?: string): PauseReason {
  return { kind: 'failures', failures: 3, code, ...defined({ detail }) };
}

describe('renderDigestPaused', () => {
  it.each([
    [
      failures('channel_unreachable', 'archived'),
      'the channel was archived.\nUnarchive the channel (or remove this digest and create it in another channel), then resume it with `/influencers digest resume 7K3M9Q`.',
    ],
    [
      failures('channel_unreachable', 'not_in_channel'),
      'I am no longer a member of the channel.\nInvite <@UBOT> back to the channel with `/invite`, then resume it with `/influencers digest resume 7K3M9Q`.',
    ],
    [
      failures('access_denied'),
      "a database in it is not accessible to this app's analytics account.\nCheck its databases (remove this digest and create it again without the one that is gone), then resume it with `/influencers digest resume 7K3M9Q`.",
    ],
    [
      failures('credentials_rejected'),
      "the analytics service rejected this app's credentials; an admin must check them.\nAsk an admin to check this app's analytics credentials, then resume it with `/influencers digest resume 7K3M9Q`.",
    ],
    [
      failures('service_unavailable'),
      'the analytics service was unavailable.\nOnce the cause is fixed, resume it with `/influencers digest resume 7K3M9Q`.',
    ],
    [
      failures('channel_unreachable', '<b>'),
      'I could not post in the channel.\nCheck that the channel exists and that <@UBOT> can post there, then resume it with `/influencers digest resume 7K3M9Q`.',
    ],
  ])('tells the creator why (%j) and how to resume', (cause, why) => {
    const message = renderDigestPaused(digest(), cause, { botUserId: 'UBOT' });
    expect(texts(message.blocks)).toEqual([
      `:double_vertical_bar: Your digest *7K3M9Q* (top 10 of #hcsm, "patient safety" in <#C0123>, Mondays at 09:00 Europe/London) was paused: ${why}`,
      'Or remove it with `/influencers digest remove 7K3M9Q`.',
    ]);
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('words the digest’s stored reason when given none', () => {
    const message = renderDigestPaused(
      digest({ pauseReason: failures('channel_unreachable', 'archived') }),
    );
    expect(message.text).toBe(
      'Your digest 7K3M9Q was paused: the channel was archived. Resume it with /influencers digest resume 7K3M9Q',
    );
  });
});

describe('renderDigestMessage for a watch', () => {
  it('names the newcomers first, with their rank and metric, and leads the notification with them', () => {
    const watch = digest({ postWhen: 'new', top: 3 });
    const answered: InfluencersResult = {
      influencers: [
        { rank: 1, screenName: 'alice', stakeholderCategories: [], metrics: { mentions: 40 } },
        { rank: 2, screenName: 'Carol', stakeholderCategories: [], metrics: { mentions: 1250 } },
        { rank: 3, screenName: 'dave', stakeholderCategories: [], metrics: {} },
      ],
    };
    const changes = rankChanges(
      [
        { screenName: 'alice', rank: 1 },
        { screenName: 'bob', rank: 2 },
      ],
      answered.influencers.map(({ screenName, rank }) => ({ screenName, rank })),
    );
    const message = renderDigestMessage(watch, query, answered, changes);
    const lines = texts(message.blocks);
    expect(lines[2]).toBe(':new: *New in the top 3*: @Carol at #2, 1.3K mentions; @dave at #3');
    expect(lines[3]).toMatch(/^Watch · /);
    expect(message.text).toBe('Watch: New in the top 3: @Carol at #2, 1.3K mentions; @dave at #3');
    expect(checkBlockKitLimits(message)).toEqual([]);
  });

  it('watching one account: says it entered or left, with its rank, and nothing of the others', () => {
    const watch = digest({ postWhen: 'new', top: 3, account: 'carol' });
    const before = [
      { screenName: 'alice', rank: 1 },
      { screenName: 'bob', rank: 2 },
    ];
    const answered: InfluencersResult = {
      influencers: [
        { rank: 1, screenName: 'alice', stakeholderCategories: [], metrics: { mentions: 40 } },
        { rank: 2, screenName: 'Carol', stakeholderCategories: [], metrics: { mentions: 1250 } },
      ],
    };
    const now = answered.influencers.map(({ screenName, rank }) => ({ screenName, rank }));
    const entered = renderDigestMessage(watch, query, answered, rankChanges(before, now));
    expect(texts(entered.blocks)[2]).toBe(
      ':arrow_up: *@carol entered the top 3 at #2, 1.3K mentions*',
    );
    expect(entered.text).toBe('Watch: @carol entered the top 3 at #2, 1.3K mentions');
    const left = renderDigestMessage(
      watch,
      query,
      { influencers: answered.influencers.slice(0, 1) },
      rankChanges(now, now.slice(0, 1)),
    );
    expect(left.text).toBe('Watch: @carol left the top 3 (was #2)');
    expect(checkBlockKitLimits(entered)).toEqual([]);
    expect(checkBlockKitLimits(left)).toEqual([]);
  });
});
