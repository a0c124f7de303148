import { describe, expect, it } from 'vitest';
import { parseInfluencersBody, tokenResponseSchema } from '../../src/analytics/schema.ts';
import { InvalidResponseError } from '../../src/errors.ts';

const fullItem = {
  symplurrank: 1,
  mentions: 853,
  tweets: 182,
  retweets: 192,
  replies: 84,
  impressions: 139_779,
  user: {
    screen_name: 'PriyaSurvives',
    display_name: 'Priya Quinlan',
    profile_image: 'https://example.org/p.png',
    hsg_score: 44.7,
    stakeholder_categories: [{ id: 5, name: 'Patient Advocate' }],
  },
};

describe('parseInfluencersBody', () => {
  it('normalises a complete item', () => {
    expect(parseInfluencersBody({ influencers: [fullItem] }, 200)).toEqual({
      influencers: [
        {
          rank: 1,
          screenName: 'PriyaSurvives',
          displayName: 'Priya Quinlan',
          profileImageUrl: 'https://example.org/p.png',
          hsgScore: 44.7,
          stakeholderCategories: [{ id: 5, name: 'Patient Advocate' }],
          metrics: { mentions: 853, tweets: 182, retweets: 192, replies: 84, impressions: 139_779 },
        },
      ],
      dropped: [],
      surplus: 0,
    });
  });

  it('keeps unknown fields out of the output', () => {
    const body = {
      influencers: [
        {
          ...fullItem,
          sentiment: 0.4,
          user: { ...fullItem.user, followers: 10, verified: true },
        },
      ],
      databases: ['#hcsm'],
      paging: { next: null },
    };
    const [influencer] = parseInfluencersBody(body, 200).influencers;
    expect(Object.keys(influencer ?? {}).sort()).toEqual([
      'displayName',
      'hsgScore',
      'metrics',
      'profileImageUrl',
      'rank',
      'screenName',
      'stakeholderCategories',
    ]);
    expect(Object.keys(influencer?.metrics ?? {}).sort()).toEqual([
      'impressions',
      'mentions',
      'replies',
      'retweets',
      'tweets',
    ]);
  });

  it.each([
    ['a count', 12_400, 12_400],
    ['a numeric string', '12400', 12_400],
    ['null', null, undefined],
    ['a negative number', -3, undefined],
    ['a fraction', 2.5, undefined],
    ['text', 'many', undefined],
  ])('reads followers_count given as %s', (_name, followers, expected) => {
    const body = {
      influencers: [{ ...fullItem, user: { ...fullItem.user, followers_count: followers } }],
    };
    const [influencer] = parseInfluencersBody(body, 200).influencers;
    expect(influencer?.followersCount).toBe(expected);
    expect(influencer?.screenName).toBe('PriyaSurvives');
  });

  it('reads an item with only a screen name, ranking it by position', () => {
    const body = { influencers: [fullItem, { user: { screen_name: 'quiet_one' } }] };
    expect(parseInfluencersBody(body, 200).influencers[1]).toEqual({
      rank: 2,
      screenName: 'quiet_one',
      stakeholderCategories: [],
      metrics: {},
    });
  });

  it('treats nulls as missing and reads numeric strings as numbers', () => {
    const item = {
      symplurrank: '3',
      mentions: '12',
      tweets: null,
      hsg_score: '7.5',
      user: {
        screen_name: 'dr_a',
        display_name: null,
        profile_image: null,
        hsg_score: '61.2',
        stakeholder_categories: null,
      },
    };
    expect(parseInfluencersBody({ influencers: [item] }, 200).influencers).toEqual([
      {
        rank: 3,
        screenName: 'dr_a',
        hsgScore: 61.2,
        stakeholderCategories: [],
        metrics: { mentions: 12, hsg_score: 7.5 },
      },
    ]);
  });

  it('treats a malformed optional field as missing and skips malformed categories', () => {
    const item = {
      symplurrank: 0,
      mentions: 'many',
      user: {
        screen_name: 'dr_b',
        profile_image: 42,
        stakeholder_categories: [
          { name: 'Doctor' },
          { id: 3 },
          'HCP',
          { id: '9', name: 'Researcher/Academic' },
        ],
      },
    };
    expect(parseInfluencersBody({ influencers: [item] }, 200).influencers).toEqual([
      {
        rank: 1,
        screenName: 'dr_b',
        stakeholderCategories: [{ name: 'Doctor' }, { id: '9', name: 'Researcher/Academic' }],
        metrics: {},
      },
    ]);
  });

  it('drops an item without a screen name and reports where it broke', () => {
    const parsed = parseInfluencersBody(
      { influencers: [{ mentions: 3, user: { display_name: 'No handle' } }, fullItem] },
      200,
    );
    expect(parsed.influencers.map((influencer) => influencer.screenName)).toEqual([
      'PriyaSurvives',
    ]);
    expect(parsed.dropped).toEqual([
      {
        index: 0,
        problems: ['user.screen_name: Invalid input: expected string, received undefined'],
      },
    ]);
  });

  it.each([
    ['a complete item', fullItem],
    ['an item with only a screen name and a count', { retweets: 1, user: { screen_name: 'q' } }],
    [
      'nulls and fields it does not know',
      {
        symplurrank: null,
        mentions: 4,
        retweets: 2,
        tweets: null,
        extra: { nested: true },
        user: {
          screen_name: 'dr_c',
          display_name: '',
          profile_image: null,
          followers_count: 0,
          stakeholder_categories: [
            { id: null, name: 'Doctor' },
            { id: 'x', name: 'HCP' },
          ],
        },
      },
    ],
  ])('reads %s as the schemas do', (_name, item) => {
    // A numeric string sends the item through the schemas rather than the plain-item check.
    const viaSchemas = { ...item, retweets: String(item.retweets) };
    const [plain] = parseInfluencersBody({ influencers: [item] }, 200).influencers;
    const [checked] = parseInfluencersBody({ influencers: [viaSchemas] }, 200).influencers;
    expect(plain).toEqual(checked);
    expect(Object.keys(plain ?? {})).toEqual(Object.keys(checked ?? {}));
  });

  it('reads a screen name with spaces around it through the schemas, trimmed', () => {
    const body = { influencers: [{ user: { screen_name: ' padded ' } }] };
    expect(parseInfluencersBody(body, 200).influencers[0]?.screenName).toBe('padded');
  });

  it('accepts an empty list', () => {
    expect(parseInfluencersBody({ influencers: [] }, 200)).toEqual({
      influencers: [],
      dropped: [],
      surplus: 0,
    });
  });

  it('keeps the first valid items asked for and counts the rest as surplus', () => {
    const item = (rank: number) => ({
      ...fullItem,
      symplurrank: rank,
      user: { screen_name: `u${rank}` },
    });
    const broken = { mentions: 3, user: {} };
    const body = { influencers: [item(1), broken, item(2), item(3), broken, item(4)] };
    const parsed = parseInfluencersBody(body, 200, 3);
    expect(parsed.influencers.map((influencer) => influencer.screenName)).toEqual([
      'u1',
      'u2',
      'u3',
    ]);
    expect(parsed.dropped.map((dropped) => dropped.index)).toEqual([1]);
    expect(parsed.surplus).toBe(2);
  });

  it('still refuses an answer whose items are all malformed when fewer are asked for', () => {
    const broken = { mentions: 3, user: {} };
    expect(() => parseInfluencersBody({ influencers: [broken, broken, broken] }, 200, 2)).toThrow(
      InvalidResponseError,
    );
  });

  it.each([
    [
      'no influencers field',
      { status: 'ok', data: { people: [] } },
      'the body has no "influencers" array',
    ],
    ['influencers not an array', { influencers: { a: 1 } }, 'the body has no "influencers" array'],
    ['an array body', [fullItem], 'the body has no "influencers" array'],
    ['null', null, 'the body has no "influencers" array'],
    [
      'every item malformed',
      { influencers: [{ user: null }, 'x'] },
      'none of the 2 influencer item(s) is valid (user: Invalid input: expected object, received null)',
    ],
  ])('rejects %s', (_name, body, detail) => {
    expect(() => parseInfluencersBody(body, 200)).toThrow(new InvalidResponseError(200, detail));
  });
});

describe('tokenResponseSchema', () => {
  it('accepts a token answer with fields it does not know', () => {
    const parsed = tokenResponseSchema.parse({
      access_token: 'abc',
      expires_in: 3600,
      token_type: 'bearer',
      scope: 'analytics:read',
    });
    expect(parsed.access_token).toBe('abc');
    expect(parsed.expires_in).toBe(3600);
  });

  it.each([
    [{ expires_in: 3600 }],
    [{ access_token: '', expires_in: 3600 }],
    [{ access_token: 'abc', expires_in: 0 }],
    [{ access_token: 'abc', expires_in: 1.5 }],
    [{ access_token: 'abc', expires_in: '3600' }],
  ])('rejects %j', (body) => {
    expect(tokenResponseSchema.safeParse(body).success).toBe(false);
  });
});
