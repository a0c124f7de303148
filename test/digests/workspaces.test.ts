/** Digests of a workspace the app left (uninstalled, token revoked), and of one it came back to. */
import { beforeEach, expect, it } from 'vitest';
import type { DigestRunner } from '../../src/digests/runner.ts';
import type { Digest } from '../../src/model/digest.ts';
import { renderDigestsResumed } from '../../src/render/digests/digest-outages.ts';
import { toPlainText } from '../../src/render/text.ts';
import {
  announcePostgresSkip,
  describeEachStore,
  digestInput,
  type FakeClock,
  type FakePoster,
  type StoreUnderTest,
} from './helpers.ts';

const slot = new Date('2026-06-08T08:00:00Z');

announcePostgresSkip();
describeEachStore('digests of a workspace the app left', '2026-06-08T07:00:00Z', (world) => {
  let db: StoreUnderTest;
  let clock: FakeClock;
  let poster: FakePoster;
  let runner: DigestRunner;
  beforeEach(() => {
    ({ db, clock, poster } = world());
    runner = world().runner({
      renderResumeNotice: (digests, now) => renderDigestsResumed(digests, { now }),
      options: { channelIntervalMs: 0 },
    });
  });

  async function create(overrides: Parameters<typeof digestInput>[0] = {}): Promise<Digest> {
    return db.store.digests.create(digestInput({ nextRunAt: slot, ...overrides }), clock.now());
  }

  it('pauses the workspace’s active digests with the reason, and no runner claims them', async () => {
    const [a, b] = [await create({ creatorId: 'U1' }), await create({ creatorId: 'U2' })];
    const byHand = await create();
    await db.store.digests.pause(byHand.id, clock.now());
    const elsewhere = await create({ teamId: 'T2', channelId: 'C9' });
    poster.workingFor = undefined;

    expect(await runner.workspaces.left('T1', 'app_uninstalled')).toBe(2);
    for (const digest of [a, b]) {
      expect(await db.store.digests.get(digest.id ?? '')).toMatchObject({
        status: 'paused',
        pauseReason: { kind: 'app_uninstalled' },
      });
    }
    expect((await db.store.digests.get(byHand.id))?.pauseReason).toBeUndefined();
    clock.set('2026-06-08T08:00:10Z');
    expect(await runner.runDue(clock.now())).toMatchObject({ claimed: 1, posted: 1 });
    expect(poster.posts.map((post) => post.channelId)).toEqual([elsewhere.channelId]);
  });

  it('resumes them when the app works there again, and tells each creator once', async () => {
    await create({ creatorId: 'U1' });
    await create({ creatorId: 'U1', channelId: 'C2' });
    await create({ creatorId: 'U2', channelId: 'C3' });
    const failing = await create({ creatorId: 'U3', channelId: 'C4' });
    await db.store.digests.pause(failing.id, clock.now(), {
      kind: 'failures',
      failures: 3,
      code: 'channel_unreachable',
      detail: 'archived',
    });
    await runner.workspaces.left('T1', 'tokens_revoked');
    clock.set('2026-06-09T12:00:00Z');

    const resumed = await runner.workspaces.back('T1');
    expect(resumed).toHaveLength(3);
    for (const digest of resumed) {
      expect(digest).toMatchObject({
        status: 'active',
        nextRunAt: new Date('2026-06-15T08:00:00Z'),
        consecutiveFailures: 0,
      });
      expect(digest.pauseReason).toBeUndefined();
    }
    expect((await db.store.digests.get(failing.id))?.status).toBe('paused');
    expect(poster.notices.map((notice) => notice.userId).sort()).toEqual(['U1', 'U2']);
    const toU1 = poster.notices.find((notice) => notice.userId === 'U1');
    expect(toPlainText(toU1?.message ?? { text: '', blocks: [] })).toContain(
      'The app works in this workspace again, so your digests run again.',
    );
    expect(await runner.workspaces.back('T1')).toEqual([]);
    expect(poster.notices).toHaveLength(2);
  });

  it('finds out from auth.test at a tick, at most every five minutes, that the app is back', async () => {
    const digest = await create();
    await runner.workspaces.left('T1', 'app_uninstalled');
    poster.workingFor = undefined;
    clock.set('2026-06-08T07:10:00Z');
    await runner.runDue(clock.now());
    clock.set('2026-06-08T07:12:00Z');
    await runner.runDue(clock.now());
    expect(poster.authTests).toHaveLength(1);
    expect((await db.store.digests.get(digest.id))?.status).toBe('paused');

    poster.workingFor = 'T1';
    clock.set('2026-06-08T07:15:00Z');
    await runner.runDue(clock.now());
    expect(poster.authTests).toHaveLength(2);
    expect((await db.store.digests.get(digest.id))?.status).toBe('active');
    clock.set('2026-06-08T08:00:10Z');
    expect(await runner.runDue(clock.now())).toMatchObject({ posted: 1 });
  });

  it('asks Slack nothing while no workspace waits for the app', async () => {
    await create();
    clock.set('2026-06-08T08:00:10Z');
    await runner.runDue(clock.now());
    expect(poster.authTests).toEqual([]);
  });
});
