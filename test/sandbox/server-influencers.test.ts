import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { influencersPath, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { influencers, requestToken, type WireBody } from './support.ts';

const now = new Date('2026-03-10T15:20:30Z');
const week = { start: '2026-03-01', end: '2026-03-08' };

describe('sandbox influencers endpoint', () => {
  let sandbox: Sandbox;
  let token: string;
  const get = (params: Record<string, string> | string) => influencers(sandbox.url, token, params);
  const body = async (params: Record<string, string> | string): Promise<WireBody> => {
    const response = await get(params);
    expect(response.status).toBe(200);
    return (await response.json()) as WireBody;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({
      now: () => now,
      clients: [
        { id: 'demo-client', secret: 'demo-secret' },
        {
          id: 'limited',
          secret: 'limited-secret',
          access: ['#hcsm', '102', 'group:Rare Diseases'],
        },
      ],
    });
    token = await requestToken(sandbox.url);
  });
  afterAll(() => sandbox.close());

  it('answers the wire format with the extra top-level fields', async () => {
    const answer = await body({ databases: '#hcsm', ...week, limit: '3' });
    expect(answer).toMatchObject({
      databases: ['#hcsm'],
      start: '2026-03-01T00:00:00Z',
      end: '2026-03-08T00:00:00Z',
      timezone: 'UTC',
      metric: ['mentions'],
      limit: 3,
    });
    expect(answer.influencers.map((item) => item.symplurrank)).toEqual([1, 2, 3]);
    for (const item of answer.influencers) {
      expect(item).toMatchObject({
        mentions: expect.any(Number),
        tweets: expect.any(Number),
        retweets: expect.any(Number),
        replies: expect.any(Number),
        impressions: expect.any(Number),
        user: { screen_name: expect.stringMatching(/^\w{1,15}$/), hsg_score: expect.any(Number) },
      });
    }
  });

  it('echoes start and end in the requested zone, reading dates at its midnight across DST', async () => {
    const answer = await body({
      databases: '#hcsm',
      start: '2026-03-08',
      end: '2026-03-09',
      timezone: 'America/New_York',
    });
    expect(answer).toMatchObject({
      start: '2026-03-08T00:00:00-05:00',
      end: '2026-03-09T00:00:00-04:00',
      timezone: 'America/New_York',
    });
  });

  it.each([
    ['databases', { start: 'now', end: 'now' }, 'Missing required parameter: databases'],
    ['databases', { databases: '', ...week }, 'Missing required parameter: databases'],
    ['start', { databases: '#hcsm', end: 'now' }, 'Missing required parameter: start'],
    ['end', { databases: '#hcsm', start: '3 days ago' }, 'Missing required parameter: end'],
    [
      'timezone',
      { databases: '#hcsm', ...week, timezone: 'EST' },
      'Invalid timezone "EST": expected an <Area>/<City> IANA zone name or UTC',
    ],
    [
      'timezone',
      { databases: '#hcsm', ...week, timezone: 'Mars/Olympus' },
      'Invalid timezone "Mars/Olympus": expected an <Area>/<City> IANA zone name or UTC',
    ],
    [
      'limit',
      { databases: '#hcsm', ...week, limit: '0' },
      'Invalid limit "0": expected an integer from 1 to 500',
    ],
    [
      'limit',
      { databases: '#hcsm', ...week, limit: '501' },
      'Invalid limit "501": expected an integer from 1 to 500',
    ],
    [
      'limit',
      { databases: '#hcsm', ...week, limit: 'ten' },
      'Invalid limit "ten": expected an integer from 1 to 500',
    ],
    [
      'limit',
      { databases: '#hcsm', ...week, limit: '2.5' },
      'Invalid limit "2.5": expected an integer from 1 to 500',
    ],
    [
      'metric',
      { databases: '#hcsm', ...week, metric: 'likes' },
      'Invalid metric "likes": expected a comma-separated list of hsg_score, mentions, retweets, tweets, impressions, replies',
    ],
    [
      'metric',
      { databases: '#hcsm', ...week, metric: 'mentions,followers' },
      'Invalid metric "followers": expected a comma-separated list of hsg_score, mentions, retweets, tweets, impressions, replies',
    ],
    [
      'start',
      { databases: '#hcsm', start: 'whenever', end: 'now' },
      'Invalid start "whenever": it is not a recognised timestamp',
    ],
    [
      'end',
      { databases: '#hcsm', start: '2026-03-01', end: '2026-02-30' },
      'Invalid end "2026-02-30": it is not a valid date or time',
    ],
    [
      'start',
      { databases: '#hcsm', start: '2026-03-08', end: '2026-03-01' },
      'Invalid date range: start (2026-03-08T00:00:00Z) must be before end (2026-03-01T00:00:00Z)',
    ],
    [
      'start',
      { databases: '#hcsm', start: '2026-03-08', end: '2026-03-08T00:00:00Z' },
      'Invalid date range: start (2026-03-08T00:00:00Z) must be before end (2026-03-08T00:00:00Z)',
    ],
    [
      'databases',
      { databases: '#hcsm,,#bcsm', ...week },
      'Invalid databases "#hcsm,,#bcsm": an item is empty',
    ],
  ])('answers 400 naming %s for %j', async (parameter, params, message) => {
    const response = await get(params);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', message, parameter });
  });

  it('answers 400 to a repeated parameter and to malformed percent-encoding', async () => {
    const repeated = await get('databases=%23hcsm&databases=%23bcsm&start=now&end=now');
    expect(await repeated.json()).toEqual({
      error: 'invalid_request',
      message: 'Parameter databases is given more than once',
      parameter: 'databases',
    });
    const malformed = await get('databases=%E0%A4%A&start=1%20day%20ago&end=now');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      error: 'invalid_request',
      message: 'Malformed percent-encoding in parameter databases: %E0%A4%A',
      parameter: 'databases',
    });
  });

  it('answers 404 naming the first unknown item, before any access check', async () => {
    const response = await get({ databases: '#hcsm,#nosuchtag,group:Nope', ...week });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'unknown_database',
      message: 'Unknown database: #nosuchtag',
      database: '#nosuchtag',
    });
  });

  it.each([
    ['hcsm', 'a hashtag without its #'],
    ['0101', 'an id with a leading zero'],
    ['group:99', 'an unknown group id'],
    ['group:Cardiology', 'an unknown group name'],
    ['group:101', 'a predicate id written as a group'],
  ])('answers 404 for %j (%s)', async (item) => {
    const response = await get({ databases: item, ...week });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { database: string }).database).toBe(item);
  });

  it('reads `+` literally, so a form-encoded phrase is unknown while %20 finds it', async () => {
    const plus = await get('databases=breast+cancer&start=2026-03-01&end=2026-03-08');
    expect(plus.status).toBe(404);
    expect(await plus.json()).toEqual({
      error: 'unknown_database',
      message: 'Unknown database: breast+cancer',
      database: 'breast+cancer',
    });
    const encoded = await body('databases=breast%20cancer&start=2026-03-01&end=2026-03-08');
    expect(encoded.databases).toEqual(['breast cancer']);
    expect(encoded.influencers.length).toBe(10);
    expect(sandbox.log.at(-1)).toMatchObject({
      rawQuery: 'databases=breast%20cancer&start=2026-03-01&end=2026-03-08',
      query: { databases: 'breast cancer', start: '2026-03-01', end: '2026-03-08' },
    });
  });

  it('never sees a hashtag whose # was not percent-encoded (it starts the URL fragment)', async () => {
    const response = await fetch(
      `${sandbox.url}${influencersPath}?start=2026-03-01&end=now&databases=#hcsm`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      'Missing required parameter: databases',
    );
  });

  it('matches names case-insensitively and ids exactly', async () => {
    const byName = await body({ databases: '#HcSm', ...week });
    const byId = await body({ databases: '101', ...week });
    expect(byId.influencers).toEqual(byName.influencers);
  });

  it('resolves a group by id and by name to the merge of its predicates', async () => {
    const byId = await body({ databases: 'group:13', ...week, limit: '500' });
    const byName = await body({ databases: 'group:rare diseases', ...week, limit: '500' });
    const members = await body({ databases: '#raredisease,rare disease', ...week, limit: '500' });
    expect(byId.influencers).toEqual(byName.influencers);
    expect(byId.influencers).toEqual(members.influencers);
    expect(byId.databases).toEqual(['group:13']);
  });

  it('accepts mixed lists of names, ids, phrases and groups', async () => {
    const answer = await body({
      databases: '#hcsm, 103,clinical trials,group:Digital Health,group:11',
      ...week,
    });
    expect(answer.databases).toEqual([
      '#hcsm',
      '103',
      'clinical trials',
      'group:Digital Health',
      'group:11',
    ]);
    expect(answer.influencers).toHaveLength(10);
  });

  it('answers an empty list for a predicate without activity and for a window in the future', async () => {
    expect(
      (await body({ databases: '#quiet', start: '2025-01-01', end: 'now' })).influencers,
    ).toEqual([]);
    expect(
      (await body({ databases: '#hcsm', start: '2026-03-11', end: '2026-03-12' })).influencers,
    ).toEqual([]);
  });

  it('gives the same answer to the same request and a different one to another window', async () => {
    const first = await body({ databases: '#bcsm,#lcsm', ...week });
    const second = await body({ databases: '#bcsm,#lcsm', ...week });
    const other = await body({ databases: '#bcsm,#lcsm', start: '2026-03-02', end: '2026-03-09' });
    expect(second).toEqual(first);
    expect(other.influencers).not.toEqual(first.influencers);
  });

  it('scales the counts with the window length', async () => {
    const total = (answer: WireBody) =>
      answer.influencers.reduce((sum, item) => sum + item.mentions, 0);
    const day = await body({ databases: '#hcsm', start: '1 day ago', end: 'now', limit: '500' });
    const month = await body({
      databases: '#hcsm',
      start: '30 days ago',
      end: 'now',
      limit: '500',
    });
    const hour = await body({ databases: '#hcsm', start: '1 hour ago', end: 'now', limit: '500' });
    expect(total(month) / total(day)).toBeGreaterThan(15);
    expect(total(month) / total(day)).toBeLessThan(60);
    expect(total(day)).toBeGreaterThan(total(hour) * 10);
    expect(hour.influencers.length).toBeLessThan(month.influencers.length);
  });

  it.each(['hsg_score', 'mentions', 'retweets', 'tweets', 'impressions', 'replies'])(
    'sorts by %s descending with ranks 1..n',
    async (metric) => {
      const answer = await body({ databases: 'group:Oncology', ...week, metric, limit: '50' });
      const values = answer.influencers.map((item) =>
        metric === 'hsg_score' ? item.user.hsg_score : item[metric as 'mentions'],
      );
      expect(values).toEqual([...values].sort((a, b) => b - a));
      expect(answer.influencers.map((item) => item.symplurrank)).toEqual(
        values.map((_, i) => i + 1),
      );
    },
  );

  it('sorts by the first of several metrics', async () => {
    const answer = await body({ databases: '#pharma', ...week, metric: 'retweets,mentions' });
    const retweets = answer.influencers.map((item) => item.retweets);
    expect(retweets).toEqual([...retweets].sort((a, b) => b - a));
    expect(answer).toMatchObject({ metric: ['retweets', 'mentions'] });
  });

  it('returns 10 by default and honours limit', async () => {
    expect((await body({ databases: '#digitalhealth', ...week })).influencers).toHaveLength(10);
    const three = await body({ databases: '#digitalhealth', ...week, limit: '3' });
    const ten = await body({ databases: '#digitalhealth', ...week });
    expect(three.influencers).toEqual(ten.influencers.slice(0, 3));
    expect(
      (await body({ databases: '#digitalhealth', ...week, limit: '500' })).influencers.length,
    ).toBeGreaterThan(10);
  });

  it('varies the user records like the real service does', async () => {
    const users = (
      await body({ databases: 'group:11,group:12,group:14', ...week, limit: '500' })
    ).influencers.map((item) => item.user);
    expect(users.some((user) => user.display_name === undefined)).toBe(true);
    expect(users.some((user) => user.profile_image === undefined)).toBe(true);
    expect(users.some((user) => user.stakeholder_categories === undefined)).toBe(true);
    expect(users.some((user) => user.stakeholder_categories?.length === 0)).toBe(true);
    expect(
      users.some((user) => user.stakeholder_categories?.some((c) => c.name === 'Doctor')),
    ).toBe(true);
    for (const user of users) {
      if (user.profile_image !== undefined) expect(user.profile_image).toMatch(/^https:\/\//);
    }
    expect(new Set(users.map((user) => user.screen_name)).size).toBe(users.length);
  });

  describe('for a client limited to some databases', () => {
    let limited: string;
    beforeAll(async () => {
      limited = await requestToken(sandbox.url, 'limited', 'limited-secret');
    });

    it.each([
      '#hcsm',
      '102',
      '#bcsm',
      'group:13',
      'group:Rare Diseases',
      '#raredisease',
      'rare disease',
    ])('lets it read %j', async (item) => {
      expect((await influencers(sandbox.url, limited, { databases: item, ...week })).status).toBe(
        200,
      );
    });

    it.each(['#lcsm', 'group:Oncology', 'group:11', 'breast cancer'])(
      'answers 403 naming %j',
      async (item) => {
        const response = await influencers(sandbox.url, limited, {
          databases: `#hcsm,${item}`,
          ...week,
        });
        expect(response.status).toBe(403);
        expect(await response.json()).toEqual({
          error: 'access_denied',
          message: `Access denied to database: ${item}`,
          database: item,
        });
      },
    );

    it('answers 404 rather than 403 when a list has both problems', async () => {
      const response = await influencers(sandbox.url, limited, {
        databases: '#lcsm,#nope',
        ...week,
      });
      expect(response.status).toBe(404);
    });
  });
});
