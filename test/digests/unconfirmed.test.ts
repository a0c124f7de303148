/**
 * Issue 18, item 8: an instance killed mid-post (its slot's `posting` record written, the post
 * never confirmed) must not lose the digest silently, nor post it twice on a guess. On both
 * adapters: the slot is never posted again by a runner; once the lease ends, its creator is told
 * once by DM, with "Post it now"; pressing it posts the slot once, however often it is pressed.
 */
import { expect, it } from 'vitest';
import { everyTeam } from '../../src/digests/per-team.ts';
import type { DigestPoster } from '../../src/digests/runner.ts';
import type { Digest } from '../../src/model/digest.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { renderUnconfirmedNotice } from '../../src/render/digests/digest-unconfirmed.ts';
import { digestActionIds, readDigestSlotValue } from '../../src/render/ids.ts';
import { toDigestError } from '../../src/slack/web-api/poster.ts';
import {
  DyingPoster,
  describeEachStore,
  digestInput,
  FakePoster,
  type RunnerWorld,
  untilKilledMidPost,
} from './helpers.ts';

// Monday 8 June 2026, 09:00 in London is 08:00 UTC.
const slot = new Date('2026-06-08T08:00:00Z');
const leaseMs = 5 * 60_000;

/** The slot a notice's "Post it now" button carries. */
function pressed(notice: SlackMessage): { id: string; slot: Date } | undefined {
  for (const block of notice.blocks) {
    if (block.type !== 'actions') continue;
    for (const element of block.elements) {
      if (element.type === 'button' && element.action_id === digestActionIds.postUnconfirmed) {
        return readDigestSlotValue(element.value ?? '');
      }
    }
  }
  return undefined;
}

function noticeRunner(world: RunnerWorld, poster: DigestPoster = world.poster) {
  return world.runner({
    posters: everyTeam(poster),
    renderUnconfirmedNotice: (digest, at, now) => renderUnconfirmedNotice(digest, at, { now }),
    options: { owner: 'runner-b', leaseMs, channelIntervalMs: 0 },
  });
}

describeEachStore('Unconfirmed posts', '2026-06-08T08:00:05Z', (world) => {
  it('tells each creator once about the 2 of 30 slots an instance died posting, and posts them once when asked', async () => {
    const { clock, db } = world();
    const digests: Digest[] = [];
    for (let i = 0; i < 30; i++) {
      digests.push(
        await db.store.digests.create(
          digestInput({ channelId: `C${i}`, creatorId: `U${i % 3}`, nextRunAt: slot }),
          clock.now(),
        ),
      );
    }
    const dying = new DyingPoster(clock, ['C7', 'C19']);
    const killed = world().runner({
      db: await db.sibling(),
      posters: everyTeam(dying),
      options: { owner: 'runner-a', leaseMs, channelIntervalMs: 0 },
    });
    void killed.runDue(clock.now());
    await untilKilledMidPost(db.store, dying, digests, slot);
    expect(dying.hung).toHaveLength(2);

    const poster = world().poster;
    const survivor = noticeRunner(world());
    clock.advance(leaseMs - 60_000);
    expect(await survivor.runDue(clock.now())).toMatchObject({ claimed: 0 });
    expect(poster.notices).toEqual([]);

    clock.advance(2 * 60_000);
    expect(await survivor.runDue(clock.now())).toMatchObject({
      claimed: 2,
      posted: 0,
      unconfirmed: 2,
    });
    expect(poster.posts).toEqual([]);
    const told = poster.notices.map((notice) => ({
      userId: notice.userId,
      slot: pressed(notice.message),
    }));
    const hungDigests = digests
      .filter((d) => d.channelId === 'C7' || d.channelId === 'C19')
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(told).toEqual(
      hungDigests.map((digest) => ({ userId: digest.creatorId, slot: { id: digest.id, slot } })),
    );
    expect(poster.notices[0]?.message.text).toContain('may not have posted its run of');

    // Later ticks, and other instances, tell nobody again and post nothing.
    clock.advance(60_000);
    await survivor.runDue(clock.now());
    await noticeRunner(world(), new FakePoster(clock)).runDue(clock.now());
    expect(poster.notices).toHaveLength(2);
    expect(poster.posts).toEqual([]);

    const [first] = hungDigests;
    if (first === undefined) throw new Error('no hung digest');
    const presses = await Promise.all([
      survivor.postUnconfirmed(first, slot, first.creatorId),
      survivor.postUnconfirmed(first, slot, 'U0ADMIN'),
    ]);
    expect(presses.map((press) => press.outcome).sort()).toEqual(['already', 'posted']);
    expect(poster.posts.map((post) => post.channelId)).toEqual([first.channelId]);
    expect(await survivor.postUnconfirmed(first, slot, first.creatorId)).toMatchObject({
      outcome: 'already',
      delivery: { status: 'posted', messageTs: poster.posts[0]?.ts },
    });
    expect(poster.posts).toHaveLength(1);
    expect((await db.store.digests.get(first.id))?.lastRun).toMatchObject({
      slot,
      outcome: 'posted',
      messageTs: poster.posts[0]?.ts,
    });
    // Every other slot was posted exactly once, by the instance that died.
    expect(new Set(dying.posts.map((post) => post.channelId)).size).toBe(28);
  });

  it('tells the creator when a post of its own ended unconfirmed, once its lease is over', async () => {
    const { clock, db, poster } = world();
    const digest = await db.store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    poster.failWith = () => ({ code: 'slack_webapi_http_error', statusCode: 503 });
    const runner = noticeRunner(world());
    expect(await runner.runDue(clock.now())).toMatchObject({ unconfirmed: 1 });
    expect(poster.notices).toEqual([]);
    clock.advance(leaseMs + 1_000);
    await runner.runDue(clock.now());
    expect(poster.notices.map((notice) => pressed(notice.message))).toEqual([
      { id: digest.id, slot },
    ]);
  });

  it('tells about a slot left posting even once it is older than the grace window', async () => {
    const { clock, db, poster } = world();
    const digest = await db.store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    await db.store.digests.claimDue(clock.now(), { limit: 1, leaseMs, owner: 'runner-a' });
    await db.store.runs.beginDelivery(digest.id, slot, 'runner-a', clock.now());
    clock.advance(3 * 60 * 60_000);
    expect(await noticeRunner(world()).runDue(clock.now())).toMatchObject({
      claimed: 1,
      skipped: 1,
    });
    expect(poster.notices.map((notice) => pressed(notice.message))).toEqual([
      { id: digest.id, slot },
    ]);
    expect(poster.posts).toEqual([]);
  });

  it('tries a DM again at a later tick when Slack could not take it, and not when it refused it', async () => {
    const { clock, db } = world();
    const failing = new FakePoster(clock);
    let refusal: unknown = { code: 'slack_webapi_http_error', statusCode: 503 };
    failing.notifyCreator = async (userId, message) => {
      if (refusal !== undefined) throw toDigestError(userId, refusal);
      failing.notices.push({ userId, message });
    };
    for (const channelId of ['C1', 'C2']) {
      const digest = await db.store.digests.create(
        digestInput({ channelId, nextRunAt: slot }),
        clock.now(),
      );
      await db.store.runs.beginDelivery(digest.id, slot, 'runner-a', clock.now());
    }
    clock.advance(leaseMs + 1_000);
    const runner = noticeRunner(world(), failing);
    await runner.runDue(clock.now());
    expect(failing.notices).toEqual([]);
    refusal = undefined;
    clock.advance(30_000);
    await runner.runDue(clock.now());
    expect(failing.notices).toHaveLength(2);

    const refused = await db.store.digests.create(
      digestInput({ channelId: 'C3', nextRunAt: slot }),
      clock.now(),
    );
    await db.store.runs.beginDelivery(refused.id, slot, 'runner-a', clock.now());
    clock.advance(leaseMs + 1_000);
    refusal = { code: 'slack_webapi_platform_error', data: { error: 'user_not_found' } };
    await runner.runDue(clock.now());
    refusal = undefined;
    clock.advance(30_000);
    await runner.runDue(clock.now());
    expect(failing.notices).toHaveLength(2);
  });

  it('lets a person press again after a post that certainly failed, and posts it then', async () => {
    const { clock, db, poster } = world();
    const digest = await db.store.digests.create(digestInput({ nextRunAt: slot }), clock.now());
    await db.store.runs.beginDelivery(digest.id, slot, 'runner-a', clock.now());
    clock.advance(leaseMs + 1_000);
    const runner = noticeRunner(world());
    await runner.runDue(clock.now());
    expect(poster.notices).toHaveLength(1);
    poster.failWith = (_channel, attempt) =>
      attempt === 1
        ? { code: 'slack_webapi_platform_error', data: { error: 'ratelimited' } }
        : undefined;
    expect(await runner.postUnconfirmed(digest, slot, digest.creatorId)).toMatchObject({
      outcome: 'failed',
    });
    expect(await runner.postUnconfirmed(digest, slot, digest.creatorId)).toMatchObject({
      outcome: 'posted',
    });
    expect(poster.posts).toHaveLength(1);
    expect(await db.store.runs.getDelivery(digest.id, slot)).toMatchObject({
      status: 'posted',
      repostBy: digest.creatorId,
    });
  });
});
