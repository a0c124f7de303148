import { expect, it } from 'vitest';
import { CredentialsRejectedError } from '../../../src/errors.ts';
import { describeEachStore, influencers, until } from '../helpers.ts';
import { ascoInput, conferenceRunner, FakeConferencePoster } from './helpers.ts';

const minutes = (n: number) => n * 60_000;

describeEachStore('ConferenceRunner', '2026-05-28T12:00:00Z', (world) => {
  it('posts and pins the leaderboard on the first day, then updates it in place each refresh', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    const created = await store.create(ascoInput(), clock.now());

    // Created ahead of time: nothing before the first day starts in Chicago.
    expect((await runner.runDue(clock.now())).claimed).toBe(0);

    clock.set('2026-05-29T05:00:30Z');
    analytics.answer = async () => influencers('alice', 'bob', 'carol');
    await runner.runDue(clock.now());
    const [board] = poster.of('post');
    expect(board?.message?.text).toContain('day 1 of 5');
    expect(JSON.stringify(board?.message?.blocks)).toContain('Day 1 of 5 · Fri May 29 (Central)');
    expect(poster.of('pin')).toEqual([expect.objectContaining({ ts: board?.ts })]);

    // Within the refresh nothing happens; at the refresh the same message is edited.
    clock.advance(minutes(10));
    expect((await runner.runDue(clock.now())).claimed).toBe(0);
    clock.advance(minutes(5));
    analytics.answer = async () => influencers('carol', 'alice', 'dave');
    await runner.runDue(clock.now());
    const [update] = poster.of('update');
    expect(update?.ts).toBe(board?.ts);
    const shown = JSON.stringify(update?.message?.blocks);
    expect(shown).toContain('1. @carol ▲2');
    expect(shown).toContain('3. @dave new');
    expect(shown).toContain('updated 00:15');
    expect(shown).toContain('@carol #1 · @zed not in the top 500');
    expect(poster.of('post')).toHaveLength(1);
    expect((await store.get(created.id))?.nextRunAt).toEqual(new Date('2026-05-29T05:30:30Z'));
  });

  it('recaps each day in the thread when it ends in Chicago, then the whole congress, and says it is final', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    const created = await store.create(ascoInput({ lastDay: '2026-05-30' }), clock.now());
    clock.set('2026-05-29T05:00:00Z');
    analytics.answer = async (query) =>
      query.start.startsWith('2026-05-30')
        ? influencers('bob', 'erin', 'carol')
        : influencers('alice', 'bob', 'carol');
    await runner.runDue(clock.now());
    const boardTs = poster.of('post')[0]?.ts;

    // The last update of day 1 is due at its end exactly: midnight in Chicago, 05:00 UTC.
    clock.set('2026-05-30T04:50:00Z');
    await runner.runDue(clock.now());
    expect((await store.get(created.id))?.nextRunAt).toEqual(new Date('2026-05-30T05:00:00Z'));
    clock.set('2026-05-30T05:00:00Z');
    await runner.runDue(clock.now());
    const recap = poster.of('post')[1];
    expect(recap?.threadTs).toBe(boardTs);
    expect(JSON.stringify(recap?.message?.blocks)).toContain('Day 1 of 5 recap'.replace('5', '2'));
    expect(JSON.stringify(poster.of('update').at(-1)?.message?.blocks)).toContain(
      'Day 2 of 2 · Sat May 30',
    );

    clock.set('2026-05-31T05:00:00Z');
    await runner.runDue(clock.now());
    const [, , dayTwo, final] = poster.of('post');
    expect(JSON.stringify(dayTwo?.message?.blocks)).toContain('*New today:* @erin');
    expect(final?.threadTs).toBe(boardTs);
    const finalText = JSON.stringify(final?.message?.blocks);
    expect(finalText).toContain('Final recap');
    expect(finalText).toContain('Each day’s top 3');
    expect(finalText).toContain('@carol: Day 1 #3 · Day 2 #3');
    expect(finalText).toContain('Export CSV');
    expect(JSON.stringify(poster.of('update').at(-1)?.message?.blocks)).toContain(
      'no further updates',
    );
    expect(await store.get(created.id)).toMatchObject({ status: 'ended', ended: 'finished' });

    clock.advance(minutes(60));
    const posted = poster.calls.length;
    await runner.runDue(clock.now());
    expect(poster.calls).toHaveLength(posted);
  });

  it('posts a new pinned leaderboard when Slack can no longer edit the old one, and carries on from it', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    const first = poster.of('post')[0]?.ts;
    poster.updateAnswer = (ts) => (ts === first ? 'gone' : 'updated');
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    const second = poster.of('post')[1]?.ts;
    expect(second).not.toBe(first);
    expect(poster.of('pin').map((pin) => pin.ts)).toEqual([first, second]);
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    expect(poster.of('update').map((update) => update.ts)).toEqual([second]);
  });

  it('carries on unpinned when the channel has too many pins, saying so once in the thread', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    poster.pinAnswer = () => 'refused';
    const runner = conferenceRunner(store, analytics, poster, clock);
    await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    const [board, note] = poster.of('post');
    expect(note?.threadTs).toBe(board?.ts);
    expect(note?.message?.text).toMatch(/could not pin/);
    expect(poster.of('post')).toHaveLength(2);
    expect(poster.of('update')).toHaveLength(1);
  });

  it('skips to the next refresh when Slack rate limits the update', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    const created = await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    poster.failWith = (kind) =>
      kind === 'update' ? { code: 'slack_webapi_rate_limited_error', retryAfter: 30 } : undefined;
    clock.advance(minutes(15));
    const report = await runner.runDue(clock.now());
    expect(report.skipped).toBe(1);
    expect(await store.get(created.id)).toMatchObject({
      status: 'active',
      nextRunAt: new Date('2026-05-29T14:30:00Z'),
    });
  });

  it('waits for the next refresh when the analytics service refuses the app’s credentials', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    const created = await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    analytics.answer = async () => {
      throw new CredentialsRejectedError(401);
    };
    clock.advance(minutes(15));
    expect((await runner.runDue(clock.now())).skipped).toBe(1);
    expect(await store.get(created.id)).toMatchObject({ status: 'active' });
    expect(poster.of('dm')).toEqual([]);
  });

  it('ends the conference and tells its creator when the channel was archived', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    const created = await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    poster.failWith = (kind) =>
      kind === 'update'
        ? { code: 'slack_webapi_platform_error', data: { ok: false, error: 'is_archived' } }
        : undefined;
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    expect(await store.get(created.id)).toMatchObject({
      status: 'ended',
      ended: 'failed:channel_unreachable:archived',
    });
    const [dm] = poster.of('dm');
    expect(dm?.channelId).toBe('U1');
    expect(dm?.message?.text).toMatch(/has ended: the channel was archived/);
  });

  it('restarted mid-event, brings the leaderboard up to date in one tick and posts the missed day’s recap once', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await conferenceRunner(store, analytics, poster, clock).runDue(clock.now());
    // Down from Friday afternoon to Saturday 10:00 in Chicago: a new instance starts.
    clock.set('2026-05-30T15:00:00Z');
    const restarted = conferenceRunner(
      await db.sibling().then((sibling) => sibling.conferences),
      analytics,
      poster,
      clock,
    );
    await restarted.runDue(clock.now());
    const recaps = poster.of('post').filter((post) => post.threadTs !== undefined);
    expect(recaps).toHaveLength(1);
    expect(JSON.stringify(recaps[0]?.message?.blocks)).toContain('Day 1 of 5 recap');
    expect(JSON.stringify(poster.of('update').at(-1)?.message?.blocks)).toContain(
      'Day 2 of 5 · Sat May 30',
    );
    await restarted.runDue(clock.now());
    clock.advance(minutes(15));
    await restarted.runDue(clock.now());
    expect(poster.of('post').filter((post) => post.threadTs !== undefined)).toHaveLength(1);
  });

  it('killed mid-post, loses nothing and doubles nothing once another instance takes over', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await conferenceRunner(store, analytics, poster, clock).runDue(clock.now());
    // The recap of day 1 hangs: the instance dies after its record and before Slack's answer.
    clock.set('2026-05-30T05:00:00Z');
    const killedPoster = new FakeConferencePoster(clock);
    killedPoster.dying.add('C0ASCO');
    void conferenceRunner(store, analytics, killedPoster, clock, {
      options: { leaseMs: minutes(5) },
    }).runDue(clock.now());
    await until(() => killedPoster.hung > 0);
    clock.advance(minutes(6));
    const other = conferenceRunner(
      await db.sibling().then((sibling) => sibling.conferences),
      analytics,
      poster,
      clock,
    );
    await other.runDue(clock.now());
    // The recap is not in the thread: it is posted, once, and the leaderboard moves on.
    expect(poster.of('post').filter((post) => post.threadTs !== undefined)).toHaveLength(1);
    expect(JSON.stringify(poster.of('update').at(-1)?.message?.blocks)).toContain('Day 2 of 5');
    clock.advance(minutes(15));
    await other.runDue(clock.now());
    expect(poster.of('post')).toHaveLength(2);
  });

  it('killed between a post and saving it, the next instance edits that leaderboard rather than post another', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    let saving = 0;
    // The store as the killed instance saw it: its state is never saved.
    const dying = new Proxy(store, {
      get(target, property) {
        if (property === 'saveState') {
          return () => {
            saving++;
            return new Promise(() => undefined);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    void conferenceRunner(dying, analytics, poster, clock, {
      options: { leaseMs: minutes(5) },
    }).runDue(clock.now());
    await until(() => saving > 0);
    expect(poster.of('post')).toHaveLength(1);
    clock.advance(minutes(6));
    const other = conferenceRunner(
      await db.sibling().then((sibling) => sibling.conferences),
      analytics,
      poster,
      clock,
    );
    await other.runDue(clock.now());
    expect(poster.of('post')).toHaveLength(1);
    expect(poster.of('update').map((update) => update.ts)).toEqual([poster.of('post')[0]?.ts]);
  });

  it('with two instances ticking at once, each conference has exactly one updater', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    for (let i = 0; i < 20; i++) await store.create(ascoInput({ channelId: `C${i}` }), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    const second = await db.sibling().then((sibling) => sibling.conferences);
    const reports = await Promise.all([
      conferenceRunner(store, analytics, poster, clock).runDue(clock.now()),
      conferenceRunner(second, analytics, poster, clock).runDue(clock.now()),
    ]);
    expect(reports.reduce((sum, report) => sum + report.claimed, 0)).toBe(20);
    expect(poster.of('post')).toHaveLength(20);
    expect(new Set(poster.of('post').map((post) => post.channelId)).size).toBe(20);
  });

  it('asks one analytics question per refresh for conferences that follow the same hashtag alike', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    for (let i = 0; i < 30; i++) {
      await store.create(
        ascoInput({ channelId: `C${i}`, databases: [i % 3 === 0 ? '#ESMO26' : '#ASCO26'] }),
        clock.now(),
      );
    }
    clock.set('2026-05-29T14:00:00Z');
    const report = await conferenceRunner(store, analytics, poster, clock).runDue(clock.now());
    expect(report.claimed).toBe(30);
    expect(report.analyticsCalls).toBe(2);
  });

  it('stopped early, ends the same way: the final recap, then the leaderboard said final', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    const created = await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    clock.advance(minutes(3));
    await store.requestStop(created.id, clock.now());
    await runner.runDue(clock.now());
    const final = poster.of('post').at(-1);
    expect(JSON.stringify(final?.message?.blocks)).toContain('stopped before its last day');
    expect(JSON.stringify(poster.of('update').at(-1)?.message?.blocks)).toContain(
      'Final leaderboard',
    );
    expect(await store.get(created.id)).toMatchObject({ status: 'ended', ended: 'stopped' });
  });
});

describeEachStore('ConferenceRunner across a DST change', '2027-03-12T12:00:00Z', (world) => {
  it('DST spring forward in Chicago: the 23-hour day ends at local midnight, 05:00 UTC not 06:00', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const runner = conferenceRunner(store, analytics, poster, clock);
    // Sunday March 14, 2027: clocks go from 02:00 CST to 03:00 CDT.
    await store.create(
      ascoInput({
        firstDay: '2027-03-13',
        lastDay: '2027-03-15',
        nextRunAt: new Date('2027-03-13T06:00:00Z'),
      }),
      clock.now(),
    );
    clock.set('2027-03-14T06:00:00Z');
    await runner.runDue(clock.now());
    expect(JSON.stringify(poster.of('post')[0]?.message?.blocks)).toContain(
      'Day 2 of 3 · Sun Mar 14',
    );
    expect(analytics.calls.map((call) => call.start)).toContain('2027-03-14T00:00:00-06:00');
    clock.set('2027-03-15T04:59:00Z');
    await runner.runDue(clock.now());
    expect(
      poster
        .of('post')
        .filter((post) => post.threadTs !== undefined)
        .map((post) => post.message?.text),
    ).toEqual([expect.stringContaining('day 1 recap')]);
    clock.set('2027-03-15T05:00:00Z');
    await runner.runDue(clock.now());
    const recaps = poster.of('post').filter((post) => post.threadTs !== undefined);
    expect(recaps.map((post) => post.message?.text)).toEqual([
      expect.stringContaining('day 1 recap'),
      expect.stringContaining('day 2 recap'),
    ]);
    const dayTwo = analytics.calls.find(
      (call) =>
        call.start === '2027-03-14T00:00:00-06:00' && call.end === '2027-03-15T00:00:00-05:00',
    );
    expect(dayTwo).toBeDefined();
  });
});
