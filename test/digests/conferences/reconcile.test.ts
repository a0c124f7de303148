import { expect, it } from 'vitest';
import { SlackRateLimitedError } from '../../../src/errors.ts';
import type { Conference } from '../../../src/model/conference.ts';
import type { ConferenceRepository } from '../../../src/store/conferences.ts';
import { describeEachStore, type FakeClock, until } from '../helpers.ts';
import { ascoInput, conferenceRunner, FakeConferencePoster } from './helpers.ts';

const minutes = (n: number) => n * 60_000;
const channels = Array.from({ length: 20 }, (_, i) => `C${i}`);

/** Each channel's posts: leaderboards (top level) and the thread posts under them. */
function postsOf(poster: FakeConferencePoster, channelId: string) {
  const posts = poster.of('post').filter((post) => post.channelId === channelId);
  return {
    boards: posts.filter((post) => post.threadTs === undefined),
    recaps: posts.filter((post) => JSON.stringify(post.message?.blocks).includes('recap')),
  };
}

/**
 * An instance killed mid-refresh: the posts to `before` never leave it, the posts to `after`
 * reach Slack and its answer never comes back; the other conferences are done and saved.
 */
async function killMidRefresh(
  store: ConferenceRepository,
  world: { clock: FakeClock; analytics: Parameters<typeof conferenceRunner>[1] },
  slack: FakeConferencePoster,
  split: { before: readonly string[]; after: readonly string[] },
  done: (conference: Conference) => boolean,
  all: readonly string[] = channels,
): Promise<void> {
  for (const channel of split.before) slack.dying.add(channel);
  for (const channel of split.after) slack.dyingAfterSend.add(channel);
  void conferenceRunner(store, world.analytics, slack, world.clock, {
    options: { leaseMs: minutes(5), postConcurrency: 40 },
  }).runDue(world.clock.now());
  const dying = split.before.length + split.after.length;
  await until(async () => {
    if (slack.hung < dying) return false;
    const saved = (
      await Promise.all(all.map((channelId) => store.listByChannel('T1', channelId)))
    ).flat();
    // The killed instance is stopped only once its last work before the kill has landed: a
    // leaderboard it saved is also pinned, or the next instance would pin it a second time.
    const pinned = new Set(slack.of('pin').map((pin) => pin.ts));
    const finished = saved.filter(done);
    return (
      finished.length === all.length - dying &&
      finished.every((conference) => pinned.has(conference.state.messageTs))
    );
  });
  slack.dying.clear();
  slack.dyingAfterSend.clear();
}

describeEachStore(
  'Conferences after an instance was killed mid-refresh',
  '2026-05-28T12:00:00Z',
  (world) => {
    it('killed with 20 conferences mid-refresh, each channel gets one leaderboard and its day-1 recap once, found or posted by the next instance', async () => {
      const { db, clock, analytics } = world();
      const store = db.store.conferences;
      // One Slack for both instances: what the killed one sent is in the channels.
      const slack = new FakeConferencePoster(clock);
      for (const channelId of channels) await store.create(ascoInput({ channelId }), clock.now());
      const other = conferenceRunner(
        await db.sibling().then((sibling) => sibling.conferences),
        analytics,
        slack,
        clock,
      );

      // Killed while posting the first leaderboards.
      clock.set('2026-05-29T14:00:00Z');
      await killMidRefresh(
        store,
        { clock, analytics },
        slack,
        { before: channels.slice(0, 4), after: channels.slice(4, 8) },
        (conference) => conference.state.messageTs !== undefined,
      );
      clock.advance(minutes(6));
      await other.runDue(clock.now());

      // Killed while posting the day-1 recaps, just after midnight in Chicago.
      clock.set('2026-05-30T05:00:00Z');
      await killMidRefresh(
        store,
        { clock, analytics },
        slack,
        { before: channels.slice(0, 8), after: channels.slice(8, 12) },
        (conference) => conference.state.days.length === 1,
      );
      clock.advance(minutes(6));
      await other.runDue(clock.now());
      clock.advance(minutes(15));
      await other.runDue(clock.now());

      for (const channelId of channels) {
        const { boards, recaps } = postsOf(slack, channelId);
        expect({ channelId, boards: boards.length }).toEqual({ channelId, boards: 1 });
        expect({ channelId, recaps: recaps.length }).toEqual({ channelId, recaps: 1 });
        expect(recaps[0]?.threadTs).toBe(boards[0]?.ts);
        const [conference] = await store.listByChannel('T1', channelId);
        expect(conference?.state.messageTs).toBe(boards[0]?.ts);
        // Found in the channel, a leaderboard the killed instance never pinned is pinned.
        expect(slack.of('pin').filter((pin) => pin.ts === boards[0]?.ts)).toHaveLength(1);
      }
      expect(slack.of('dm')).toEqual([]);
    });

    it('while Slack rate limits the history, the leaderboard moves on and the recap is looked for at the next refresh', async () => {
      const { db, clock, analytics } = world();
      const store = db.store.conferences;
      const poster = new FakeConferencePoster(clock);
      await store.create(ascoInput(), clock.now());
      clock.set('2026-05-29T14:00:00Z');
      await conferenceRunner(store, analytics, poster, clock).runDue(clock.now());
      clock.set('2026-05-30T05:00:00Z');
      await killMidRefresh(
        store,
        { clock, analytics },
        poster,
        { before: ['C0ASCO'], after: [] },
        () => false,
        ['C0ASCO'],
      );
      clock.advance(minutes(6));
      poster.findFails = () => new SlackRateLimitedError('conversations.replies', 60_000);
      const other = conferenceRunner(
        await db.sibling().then((sibling) => sibling.conferences),
        analytics,
        poster,
        clock,
      );
      await other.runDue(clock.now());
      expect(postsOf(poster, 'C0ASCO').recaps).toHaveLength(0);
      expect(JSON.stringify(poster.of('update').at(-1)?.message?.blocks)).toContain('Day 2 of 5');
      poster.findFails = () => undefined;
      clock.advance(minutes(15));
      await other.runDue(clock.now());
      clock.advance(minutes(15));
      await other.runDue(clock.now());
      const { recaps } = postsOf(poster, 'C0ASCO');
      expect(recaps).toHaveLength(1);
      expect(JSON.stringify(recaps[0]?.message?.blocks)).toContain('Day 1 of 5 recap');
    });

    it('a recap Slack did not confirm is looked for at the next refresh and posted once when missing', async () => {
      const { db, clock, analytics } = world();
      const store = db.store.conferences;
      const poster = new FakeConferencePoster(clock);
      const runner = conferenceRunner(store, analytics, poster, clock);
      await store.create(ascoInput(), clock.now());
      clock.set('2026-05-29T14:00:00Z');
      await runner.runDue(clock.now());
      poster.failWith = (kind) =>
        kind === 'post' ? { code: 'slack_webapi_http_error', statusCode: 503 } : undefined;
      clock.set('2026-05-30T05:00:00Z');
      await runner.runDue(clock.now());
      poster.failWith = () => undefined;
      clock.advance(minutes(15));
      await runner.runDue(clock.now());
      clock.advance(minutes(15));
      await runner.runDue(clock.now());
      const { boards, recaps } = postsOf(poster, 'C0ASCO');
      expect(boards).toHaveLength(1);
      expect(recaps).toHaveLength(1);
      expect(JSON.stringify(recaps[0]?.message?.blocks)).toContain('Day 1 of 5 recap');
      expect(poster.of('dm')).toEqual([]);
    });

    it('when the channel history cannot be read, the recap is not sent again and its creator is told once', async () => {
      const { db, clock, analytics } = world();
      const store = db.store.conferences;
      const poster = new FakeConferencePoster(clock);
      poster.history = false;
      await store.create(ascoInput(), clock.now());
      clock.set('2026-05-29T14:00:00Z');
      await conferenceRunner(store, analytics, poster, clock).runDue(clock.now());
      clock.set('2026-05-30T05:00:00Z');
      await killMidRefresh(
        store,
        { clock, analytics },
        poster,
        { before: ['C0ASCO'], after: [] },
        () => false,
        ['C0ASCO'],
      );
      clock.advance(minutes(6));
      const second = await db.sibling().then((sibling) => sibling.conferences);
      await conferenceRunner(second, analytics, poster, clock).runDue(clock.now());
      clock.advance(minutes(15));
      await conferenceRunner(store, analytics, poster, clock).runDue(clock.now());
      expect(postsOf(poster, 'C0ASCO').recaps).toHaveLength(0);
      const dms = poster.of('dm');
      expect(dms).toHaveLength(1);
      expect(dms[0]?.channelId).toBe('U1');
      expect(dms[0]?.message?.text).toContain('the day 1 of 5 recap, may not have reached it');
    });
  },
);
