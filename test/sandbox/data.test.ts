import { describe, expect, it } from 'vitest';
import { type CataloguePredicate, demoCatalogue } from '../../src/sandbox/catalogue.ts';
import { sandboxMetrics, topInfluencers } from '../../src/sandbox/data.ts';
import { population } from '../../src/sandbox/population.ts';
import { unitHash } from '../../src/sandbox/seeded.ts';

const now = new Date('2026-03-10T15:20:30Z');
const byName = (name: string): CataloguePredicate => {
  const predicate = demoCatalogue.predicates.find((candidate) => candidate.name === name);
  if (predicate === undefined) throw new Error(`no ${name}`);
  return predicate;
};
const base = {
  start: new Date('2026-03-01T00:00:00Z'),
  end: new Date('2026-03-08T00:00:00Z'),
  now,
  metrics: ['mentions'] as const,
  limit: 500,
};

describe('unitHash', () => {
  it('is stable and spread over [0, 1)', () => {
    expect(unitHash('#hcsm')).toBe(unitHash('#hcsm'));
    const values = Array.from({ length: 1000 }, (_, index) => unitHash(`k${index}`));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.filter((value) => value < 0.5).length).toBeGreaterThan(400);
    expect(values.filter((value) => value < 0.5).length).toBeLessThan(600);
  });
});

describe('population', () => {
  it('has unique screen names within the platform limit', () => {
    const names = population.map((account) => account.screenName.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const account of population) expect(account.screenName).toMatch(/^\w{1,15}$/);
  });
});

describe('topInfluencers', () => {
  it('sums the pools of several predicates per account', () => {
    const everyone = { ...base, limit: population.length };
    const bcsm = topInfluencers({ ...everyone, predicates: [byName('#bcsm')] });
    const lcsm = topInfluencers({ ...everyone, predicates: [byName('#lcsm')] });
    const both = topInfluencers({ ...everyone, predicates: [byName('#bcsm'), byName('#lcsm')] });
    const mentions = (list: typeof both, name: string) =>
      list.find((item) => item.user.screen_name === name)?.mentions ?? 0;
    for (const item of both) {
      expect(item.mentions).toBe(
        mentions(bcsm, item.user.screen_name) + mentions(lcsm, item.user.screen_name),
      );
    }
  });

  it('counts a predicate named twice once', () => {
    const once = topInfluencers({ ...base, predicates: [byName('#bcsm')] });
    expect(topInfluencers({ ...base, predicates: [byName('#bcsm'), byName('#bcsm')] })).toEqual(
      once,
    );
  });

  it('counts only what happened before now', () => {
    const clipped = topInfluencers({
      ...base,
      end: new Date('2026-04-01T00:00:00Z'),
      predicates: [byName('#hcsm')],
    });
    const total = clipped.reduce((sum, item) => sum + item.mentions, 0);
    const sinceStart = topInfluencers({ ...base, end: now, predicates: [byName('#hcsm')] });
    const expected = sinceStart.reduce((sum, item) => sum + item.mentions, 0);
    expect(total / expected).toBeGreaterThan(0.8);
    expect(total / expected).toBeLessThan(1.2);
  });

  it.each(sandboxMetrics)('orders by %s and ranks from 1', (metric) => {
    const list = topInfluencers({ ...base, metrics: [metric], predicates: [byName('#meded')] });
    expect(list.length).toBeGreaterThan(10);
    const value = (item: (typeof list)[number]) =>
      metric === 'hsg_score' ? item.user.hsg_score : item[metric];
    for (let index = 1; index < list.length; index++) {
      expect(value(list[index - 1] as (typeof list)[number])).toBeGreaterThanOrEqual(
        value(list[index] as (typeof list)[number]),
      );
    }
    expect(list.map((item) => item.symplurrank)).toEqual(list.map((_, index) => index + 1));
  });

  it('keeps every count a non-negative integer and every listed account active', () => {
    for (const item of topInfluencers({ ...base, predicates: demoCatalogue.predicates })) {
      for (const value of [
        item.mentions,
        item.tweets,
        item.retweets,
        item.replies,
        item.impressions,
      ]) {
        expect(Number.isInteger(value) && value >= 0).toBe(true);
      }
      expect(item.mentions + item.tweets).toBeGreaterThan(0);
    }
  });
});
