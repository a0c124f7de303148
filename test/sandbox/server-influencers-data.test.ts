import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricNames } from '../../src/model/metrics.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { influencers, requestToken, type WireBody } from './support.ts';

const week = { start: '2026-03-02', end: '2026-03-09' };

describe('sandbox influencers data over HTTP', () => {
  let sandbox: Sandbox;
  let token: string;
  let clock = new Date('2026-03-10T09:00:10Z');
  const body = async (params: Record<string, string>): Promise<WireBody> => {
    const response = await influencers(sandbox.url, token, params);
    expect(response.status).toBe(200);
    return (await response.json()) as WireBody;
  };
  const names = (answer: WireBody) => answer.influencers.map((item) => item.user.screen_name);

  beforeAll(async () => {
    // The clock moves by a day below: the token outlives it.
    sandbox = await startSandbox({ now: () => clock, tokenTtlSeconds: 7 * 86_400 });
    token = await requestToken(sandbox.url);
  });
  afterAll(() => sandbox.close());

  it('answers a rolling window asked twice a minute apart with the same ranking', async () => {
    const rolling = { databases: '#hcsm,#bcsm', start: '7 days ago', end: 'now', limit: '500' };
    clock = new Date('2026-03-10T09:00:10Z');
    const first = await body(rolling);
    clock = new Date('2026-03-10T09:01:10Z');
    const second = await body(rolling);
    expect(second.start).not.toBe(first.start);
    expect(second.influencers).toEqual(first.influencers);
    clock = new Date('2026-03-11T09:00:10Z');
    expect(names(await body(rolling))).not.toEqual(names(first));
  });

  it('sorts `metric=impressions,mentions` by impressions, then by mentions', async () => {
    const answer = await body({ databases: '#hcsm', ...week, metric: 'impressions,mentions' });
    expect(answer).toMatchObject({ metric: ['impressions', 'mentions'] });
    const ordered = [...answer.influencers].sort(
      (a, b) => b.impressions - a.impressions || b.mentions - a.mentions,
    );
    expect(answer.influencers).toEqual(ordered);
    const byMentions = await body({ databases: '#hcsm', ...week });
    expect(names(answer)).not.toEqual(names(byMentions));
  });

  it.each(['#hcsm', '#bcsm'])('gives %s 500 rows for a week at limit=500', async (databases) => {
    const answer = await body({ databases, ...week, limit: '500' });
    expect(answer.influencers).toHaveLength(500);
    expect(answer.influencers.at(-1)?.symplurrank).toBe(500);
    expect(new Set(names(answer)).size).toBe(500);
    expect((await body({ databases, ...week, limit: '1' })).influencers).toEqual(
      answer.influencers.slice(0, 1),
    );
  });

  it('sends every documented metric and the follower count on every row, in plausible relation', async () => {
    const answer = await body({ databases: 'group:Oncology', ...week, limit: '500' });
    for (const item of answer.influencers) {
      for (const metric of metricNames) {
        expect(Number.isFinite(item[metric]), `${metric} of ${item.user.screen_name}`).toBe(true);
      }
      expect(item.hsg_score).toBe(item.user.hsg_score);
      expect(Number.isInteger(item.user.followers_count)).toBe(true);
      expect(item.user.followers_count).toBeGreaterThan(0);
    }
    const sum = (metric: 'mentions' | 'tweets' | 'retweets' | 'replies' | 'impressions') =>
      answer.influencers.reduce((total, item) => total + item[metric], 0);
    expect(sum('impressions')).toBeGreaterThan(sum('mentions') * 50);
    expect(sum('mentions')).toBeGreaterThan(sum('tweets'));
    expect(sum('mentions')).toBeGreaterThan(sum('replies'));
  });
});
