import { describe, expect, it } from 'vitest';
import {
  encodeDatabases,
  encodeQueryValue,
  influencersQueryKey,
  influencersRequestPath,
} from '../../src/analytics/query.ts';

describe('encodeQueryValue', () => {
  it.each([
    ['#hcsm', '%23hcsm'],
    ['breast cancer', 'breast%20cancer'],
    ['group:Patient Advocates', 'group:Patient%20Advocates'],
    ['#santé', '%23sant%C3%A9'],
    ['a&b', 'a%26b'],
    ['a=b', 'a%3Db'],
    ['100%', '100%25'],
    ['c++', 'c%2B%2B'],
    ['2026-03-18T10:30:00+01:00', '2026-03-18T10:30:00%2B01:00'],
    ['Europe/Paris', 'Europe/Paris'],
    ['a,b', 'a%2Cb'],
  ])('encodes %j as %j', (value, expected) => {
    expect(encodeQueryValue(value)).toBe(expected);
  });

  it('never writes a plus sign for a space', () => {
    expect(encodeQueryValue('a b c')).not.toContain('+');
  });

  it('round-trips through a percent decoder', () => {
    for (const value of ['#hcsm', 'breast cancer', '#santé', 'a&b=c%d+e', 'group:Rare Diseases']) {
      expect(decodeURIComponent(encodeQueryValue(value))).toBe(value);
    }
  });
});

describe('encodeDatabases', () => {
  it('encodes each item and joins them with literal commas', () => {
    expect(encodeDatabases(['#hcsm', 'breast cancer', 'group:Patient Advocates', '101'])).toBe(
      '%23hcsm,breast%20cancer,group:Patient%20Advocates,101',
    );
  });
});

describe('influencersRequestPath', () => {
  const base = {
    databases: ['#hcsm', '#bcsm'],
    start: '2026-03-11T00:00:00+01:00',
    end: '2026-03-18T00:00:00+01:00',
  };

  it('sends only the required parameters when nothing else is set', () => {
    expect(influencersRequestPath(base)).toBe(
      '/v1/twitter/analytics/people/influencers?databases=%23hcsm,%23bcsm&start=2026-03-11T00:00:00%2B01:00&end=2026-03-18T00:00:00%2B01:00',
    );
  });

  it('adds timezone, limit and metric when they are set', () => {
    const path = influencersRequestPath({
      ...base,
      timezone: 'America/New_York',
      limit: 25,
      metric: ['retweets', 'mentions'],
    });
    expect(path.endsWith('&timezone=America/New_York&limit=25&metric=retweets,mentions')).toBe(
      true,
    );
  });

  it('leaves out an empty metric list', () => {
    expect(influencersRequestPath({ ...base, metric: [] })).not.toContain('metric=');
  });
});

describe('influencersQueryKey', () => {
  const base = { databases: ['#hcsm'], start: '2026-03-11', end: '2026-03-18' };

  it('treats a missing timezone as UTC', () => {
    expect(influencersQueryKey(base)).toBe(influencersQueryKey({ ...base, timezone: 'UTC' }));
  });

  it('treats an empty metric list as no metric', () => {
    expect(influencersQueryKey(base)).toBe(influencersQueryKey({ ...base, metric: [] }));
  });

  it.each([
    ['databases order', { databases: ['#bcsm', '#hcsm'] }],
    ['start', { start: '2026-03-10' }],
    ['end', { end: '2026-03-19' }],
    ['timezone', { timezone: 'Europe/Paris' }],
    ['limit', { limit: 5 }],
    ['metric', { metric: ['tweets' as const] }],
  ])('tells queries apart by %s', (_name, change) => {
    const other = { databases: ['#hcsm', '#bcsm'], start: base.start, end: base.end };
    expect(influencersQueryKey({ ...other, ...change })).not.toBe(influencersQueryKey(other));
  });
});
