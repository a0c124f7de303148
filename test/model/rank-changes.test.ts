import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../src/digests/failures.ts';
import { ChannelUnreachableError, RateLimitedError, TimeoutError } from '../../src/errors.ts';
import { normalizeDigestId } from '../../src/model/digest.ts';
import { rankChanges } from '../../src/model/rank-changes.ts';

const ranked = (...names: string[]) =>
  names.map((screenName, index) => ({ screenName, rank: index + 1 }));

describe('rankChanges', () => {
  it('reports a first run when there is nothing to compare with', () => {
    expect(rankChanges(undefined, ranked('a', 'b'))).toEqual({
      firstRun: true,
      newEntrants: [],
      movedUp: [],
      movedDown: [],
      droppedOut: [],
      unchanged: 0,
    });
  });

  it('finds entrants, moves with deltas and departures, ignoring the case of names', () => {
    expect(rankChanges(ranked('a', 'B', 'c', 'd'), ranked('d', 'b', 'e', 'a'))).toEqual({
      firstRun: false,
      newEntrants: [{ screenName: 'e', rank: 3 }],
      movedUp: [{ screenName: 'd', rank: 1, previousRank: 4, delta: 3 }],
      movedDown: [{ screenName: 'a', rank: 4, previousRank: 1, delta: -3 }],
      droppedOut: [{ screenName: 'c', rank: 3 }],
      unchanged: 1,
    });
  });

  it('reports no change for the same ranking', () => {
    expect(rankChanges(ranked('a', 'b'), ranked('a', 'b'))).toMatchObject({
      unchanged: 2,
      newEntrants: [],
      droppedOut: [],
    });
  });
});

describe('classifyFailure', () => {
  it.each([
    [
      new ChannelUnreachableError('C1', 'archived'),
      { kind: 'permanent', code: 'channel_unreachable', channelProblem: 'archived' },
    ],
    [new RateLimitedError(3000), { kind: 'transient', code: 'rate_limited', retryAfterMs: 3000 }],
    [new TimeoutError('deadline', 1000), { kind: 'transient', code: 'timeout' }],
    [
      { code: 'slack_webapi_rate_limited_error', retryAfter: 30 },
      { kind: 'transient', code: 'rate_limited', retryAfterMs: 30_000 },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'not_in_channel' } },
      { kind: 'permanent', code: 'channel_unreachable', channelProblem: 'not_in_channel' },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'is_archived' } },
      { kind: 'permanent', code: 'channel_unreachable', channelProblem: 'archived' },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'channel_not_found' } },
      { kind: 'permanent', code: 'channel_unreachable', channelProblem: 'not_found' },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'invalid_auth' } },
      { kind: 'permanent', code: 'unknown' },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'internal_error' } },
      { kind: 'transient', code: 'unknown' },
    ],
    [{ code: 'slack_webapi_request_error' }, { kind: 'transient', code: 'network' }],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'cannot_join' } },
      { kind: 'permanent', code: 'channel_unreachable', channelProblem: 'restricted' },
    ],
    [new Error('boom'), { kind: 'transient', code: 'unknown' }],
  ])('classifies %o', (error, expected) => {
    expect(classifyFailure(error)).toEqual(expected);
  });
});

describe('normalizeDigestId', () => {
  it.each([
    ['k7q2xd', 'K7Q2XD'],
    [' K7Q2XD ', 'K7Q2XD'],
    ['o1il23', '011123'],
    ['K7Q2X', undefined],
    ['K7Q2XU', undefined],
  ])('reads %s as %s', (typed, id) => {
    expect(normalizeDigestId(typed)).toBe(id);
  });
});
