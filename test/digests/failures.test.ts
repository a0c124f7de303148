import { describe, expect, it } from 'vitest';
import { classifyFailure, mayHavePosted } from '../../src/digests/failures.ts';
import { ChannelUnreachableError, RateLimitedError, TimeoutError } from '../../src/errors.ts';
import { toDigestError } from '../../src/slack/web-api/poster.ts';

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
      { kind: 'transient', code: 'slack_rate_limited', retryAfterMs: 30_000 },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'invalid_blocks' } },
      { kind: 'permanent', code: 'slack_blocks_refused' },
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
      { kind: 'permanent', code: 'config_invalid' },
    ],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'internal_error' } },
      { kind: 'transient', code: 'slack_call_failed' },
    ],
    [{ code: 'slack_webapi_request_error' }, { kind: 'transient', code: 'slack_call_failed' }],
    [
      { code: 'slack_webapi_platform_error', data: { error: 'cannot_join' } },
      { kind: 'permanent', code: 'channel_unreachable', channelProblem: 'restricted' },
    ],
    [new Error('boom'), { kind: 'transient', code: 'unknown' }],
  ])('classifies %o, as the Slack poster hands it on', (error, expected) => {
    expect(classifyFailure(toDigestError('C1', error))).toEqual(expected);
  });
});

describe('mayHavePosted', () => {
  const refused = {
    code: 'slack_webapi_request_error',
    original: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  };
  it.each([
    [
      'internal_error',
      { code: 'slack_webapi_platform_error', data: { error: 'internal_error' } },
      true,
    ],
    ['a 503', { code: 'slack_webapi_http_error', statusCode: 503 }, true],
    ['a 400', { code: 'slack_webapi_http_error', statusCode: 400 }, false],
    ['a refused connection', refused, false],
    ['a reset connection', { code: 'slack_webapi_request_error' }, true],
    ['a rate limit', { code: 'slack_webapi_rate_limited_error', retryAfter: 3 }, false],
    [
      'an archived channel',
      { code: 'slack_webapi_platform_error', data: { error: 'is_archived' } },
      false,
    ],
    ['an unknown error', new Error('socket hang up'), true],
  ])(
    'says whether %s may have posted, as the Slack poster hands it on',
    (_case, error, expected) => {
      expect(mayHavePosted(toDigestError('C1', error))).toBe(expected);
    },
  );
});
