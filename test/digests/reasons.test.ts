/** The right reason for a failed run, in the record and in the words people read. */
import { expect, it } from 'vitest';
import type { DigestRunner } from '../../src/digests/runner.ts';
import { renderDigestList } from '../../src/render/management/digest-management.ts';
import { toPlainText } from '../../src/render/text.ts';
import { announcePostgresSkip, describeEachStore, digestInput } from './helpers.ts';

const slot = new Date('2026-06-08T08:00:00Z');

announcePostgresSkip();
describeEachStore('the reason a run failed', '2026-06-08T08:00:20Z', (world) => {
  function runner(): DigestRunner {
    return world().runner({
      renderDigest: (digest) => ({
        text: digest.id,
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: digest.id } },
          { type: 'divider' },
        ],
      }),
      options: { maxConsecutiveFailures: 1, backoffMs: 10 },
    });
  }

  async function listed(): Promise<string> {
    const { db, clock } = world();
    const digests = await db.store.digests.listByChannel('T1', 'C1');
    return toPlainText(
      renderDigestList(digests, { now: clock.now(), channelId: 'C1', viewerId: 'U1' }),
    );
  }

  it('calls a Slack 429 Slack rate limiting, not a busy analytics service', async () => {
    const { db, clock, poster } = world();
    const digest = await db.store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    poster.failWith = () => ({ code: 'slack_webapi_rate_limited_error', retryAfter: 1 });
    const result = await runner().runNow(digest);
    expect(result).toMatchObject({ outcome: 'failed', failure: { code: 'slack_rate_limited' } });
    expect((await db.store.digests.get(digest.id))?.lastRun).toMatchObject({
      outcome: 'failed',
      errorCode: 'slack_rate_limited',
    });
    const words = await listed();
    expect(words).toContain('failed: Slack was limiting how fast this app may post');
    expect(words).not.toContain('analytics');
  });

  it('names the block type Slack refused, and tells the creator what to do', async () => {
    const { db, clock, poster } = world();
    const digest = await db.store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    poster.failWith = () => ({
      code: 'slack_webapi_platform_error',
      data: {
        ok: false,
        error: 'invalid_blocks',
        response_metadata: { messages: ['[ERROR] no more than 0 [json-pointer:/blocks/1]'] },
      },
    });
    expect(await runner().runDue(clock.now())).toMatchObject({ failed: 1, paused: 1 });
    expect(poster.attempts).toHaveLength(1);
    const after = await db.store.digests.get(digest.id);
    expect(after).toMatchObject({
      status: 'paused',
      pauseReason: { code: 'slack_blocks_refused', detail: 'divider', failures: 1 },
      lastRun: { errorCode: 'slack_blocks_refused', errorDetail: 'divider' },
    });
    expect(await listed()).toContain(
      'Paused: Slack refused a divider block of the message (1 failed runs in a row)',
    );
    expect(poster.notices.map((notice) => toPlainText(notice.message))).toEqual([
      expect.stringContaining(
        'was paused: Slack refused a divider block of the message.\nTell an admin, who will find the details in the app logs, then resume it',
      ),
    ]);
  });
});
