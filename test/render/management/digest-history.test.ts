import { describe, expect, it } from 'vitest';
import type { DigestRun } from '../../../src/model/digest-run.ts';
import { renderDigestHistory } from '../../../src/render/management/digest-history.ts';
import { digest, now, texts } from '../helpers.ts';

const posted: DigestRun = {
  digestId: '7K3M9Q',
  slot: new Date('2026-11-16T09:00:00Z'),
  at: new Date('2026-11-16T09:00:05Z'),
  outcome: 'posted',
  window: { start: '2026-11-09T09:00:00+00:00', end: '2026-11-16T09:00:00+00:00' },
  metric: 'mentions',
  entries: [
    { rank: 1, handle: 'alice', value: 1200 },
    { rank: 2, handle: 'bob', value: 80 },
    { rank: 3, handle: 'carol' },
    { rank: 4, handle: 'dave' },
  ],
  entered: ['carol'],
  left: ['erin'],
};

const quiet: DigestRun = {
  digestId: '7K3M9Q',
  slot: new Date('2026-11-09T09:00:00Z'),
  at: new Date('2026-11-09T09:00:05Z'),
  outcome: 'skipped',
  skipReason: { kind: 'unchanged' },
  entries: [],
  entered: [],
  left: [],
};

const failed: DigestRun = {
  ...quiet,
  slot: new Date('2026-11-02T09:00:00Z'),
  outcome: 'failed',
  errorCode: 'access_denied',
  skipReason: undefined as never,
};

describe('renderDigestHistory', () => {
  it('shows each run: when, the window, its top 3, who entered and left, or why it did not post', () => {
    const message = renderDigestHistory(digest(), [posted, quiet, failed], { now });
    const shown = texts(message.blocks);
    expect(shown[1]).toBe('The last 3 runs, newest first.');
    expect(shown[2]).toBe(
      [
        '*Mon Nov 16, 09:00 GMT* · posted',
        'Covered Nov 9 09:00 to Nov 16 09:00 GMT',
        'Top 3: @alice (1.2K mentions), @bob (80 mentions), @carol',
        'Entered the top 10: @carol',
        'Left the top 10: @erin',
      ].join('\n'),
    );
    expect(shown[3]).toBe(
      '*Mon Nov 9, 09:00 GMT* · not posted: no change in the top 10 since the previous run',
    );
    expect(shown[4]).toMatch(/^\*Mon Nov 2, 09:00 GMT\* · not posted, failed: /);
    expect(message.text).toContain('7K3M9Q: the last 3 runs.');
  });

  it('says when there is no run yet, and how to post one now', () => {
    const message = renderDigestHistory(digest(), [], { now });
    expect(texts(message.blocks)[1]).toBe(
      'No runs yet. `/influencers digest run 7K3M9Q` posts it now; its runs show here from then on.',
    );
  });
});
