import { expect, it } from 'vitest';
import { describeEachStore } from '../helpers.ts';
import { ascoInput, conferenceRunner, FakeConferencePoster } from './helpers.ts';

const minutes = (n: number) => n * 60_000;

describeEachStore(
  'Conference leaderboards Slack rate limits the pin of',
  '2026-05-28T12:00:00Z',
  (world) => {
    it('pins every leaderboard of 60 conferences starting together, as Retry-After says, saying nothing in the threads', async () => {
      const { db, clock, analytics } = world();
      const store = db.store.conferences;
      const poster = new FakeConferencePoster(clock);
      poster.pinLimit = { perMinute: 20, retryAfterMs: 30_000 };
      const runner = conferenceRunner(store, analytics, poster, clock);
      for (let i = 0; i < 60; i++)
        await store.create(ascoInput({ channelId: `C${i}` }), clock.now());
      clock.set('2026-05-29T05:00:30Z');
      // The scheduler's tick, every minute, for the first refresh's 15 minutes.
      for (let tick = 0; tick < 15; tick++) {
        await runner.runDue(clock.now());
        clock.advance(minutes(1));
      }
      const boards = poster.of('post');
      expect(boards).toHaveLength(60);
      expect(new Set(poster.of('pin').map((pin) => pin.ts))).toEqual(
        new Set(boards.map((board) => board.ts)),
      );
      expect(poster.of('post').filter((post) => post.threadTs !== undefined)).toEqual([]);
      // Runs for a pin make no edit: the leaderboards are edited at their refresh only.
      expect(poster.of('update')).toEqual([]);
      const saved = await Promise.all(
        boards.map((board) => store.listByChannel('T1', board.channelId)),
      );
      expect(saved.flat().every((conference) => conference.state.pinned)).toBe(true);
    });

    it('says once in the thread when the pin is still refused after an hour, and carries on', async () => {
      const { db, clock, analytics } = world();
      const store = db.store.conferences;
      const poster = new FakeConferencePoster(clock);
      poster.pinLimit = { perMinute: 0, retryAfterMs: 60_000 };
      const runner = conferenceRunner(store, analytics, poster, clock);
      await store.create(ascoInput(), clock.now());
      clock.set('2026-05-29T05:00:30Z');
      for (let tick = 0; tick < 150; tick++) {
        await runner.runDue(clock.now());
        clock.advance(minutes(1));
      }
      const [board, ...thread] = poster.of('post');
      expect(thread).toHaveLength(1);
      expect(thread[0]?.threadTs).toBe(board?.ts);
      expect(thread[0]?.message?.text).toContain('Slack kept refusing more pins');
      expect(poster.pinAttempts).toBe(40);
      expect(poster.of('update').length).toBeGreaterThan(5);
    });
  },
);
