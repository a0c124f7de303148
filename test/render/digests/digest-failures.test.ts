import { describe, expect, it } from 'vitest';
import { failureWords } from '../../../src/render/digests/digest-failures.ts';

describe('failureWords', () => {
  it.each([
    ['channel_unreachable', 'not_in_channel', 'I am no longer a member of the channel'],
    ['channel_unreachable', 'archived', 'the channel was archived'],
    ['channel_unreachable', 'direct_message', 'I cannot post in that conversation'],
    [
      'access_denied',
      undefined,
      "a database in it is not accessible to this app's analytics account",
    ],
    [
      'credentials_rejected',
      undefined,
      "the analytics service rejected this app's credentials; an admin must check them",
    ],
    [
      'config_invalid',
      undefined,
      "Slack or the analytics service refused this app's configuration; an admin must check its tokens",
    ],
    [
      'response_too_large',
      undefined,
      'the analytics service sent an answer far larger than any ranking',
    ],
    ['unknown', undefined, 'an unexpected error (the details are in the app logs)'],
  ] as const)('words %s (%s) for people', (code, problem, words) => {
    expect(failureWords(code, problem)).toBe(words);
  });
});
