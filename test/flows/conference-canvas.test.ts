import { WebClient } from '@slack/web-api';
import { expect, it } from 'vitest';
import { everyTeam } from '../../src/digests/per-team.ts';
import { ConferenceCanvases } from '../../src/flows/conference-canvas.ts';
import { silentLogger } from '../../src/logger.ts';
import type { CanvasWriter } from '../../src/model/canvas.ts';
import { canvasProblemWords } from '../../src/render/canvases/digest-canvas.ts';
import { renderConferenceList } from '../../src/render/management/conference-management.ts';
import { SlackCanvasWriter } from '../../src/slack/web-api/canvas.ts';
import { singleAttemptClientOptions } from '../../src/slack/web-api/client.ts';
import type { Database } from '../../src/store/database.ts';
import {
  ascoInput,
  conferenceRunner,
  FakeConferencePoster,
} from '../digests/conferences/helpers.ts';
import { describeEachStore, type FakeClock, influencers, until } from '../digests/helpers.ts';
import { FakeSlack } from '../helpers/fake-slack.ts';

// ASCO 2026 in Chicago (CDT, UTC-5): day 1 ends at 05:00 UTC on May 30, day 2 on May 31.
const dayOneEnds = '2026-05-30T05:00:00Z';
const dayTwoEnds = '2026-05-31T05:00:00Z';
const minutes = (n: number) => n * 60_000;

function slackWriter(slack: FakeSlack): CanvasWriter {
  const client = new WebClient('xoxb-canvas', singleAttemptClientOptions({ fetch: slack.fetch }));
  return new SlackCanvasWriter({ client });
}

function keeper(
  database: Database,
  poster: FakeConferencePoster,
  clock: FakeClock,
  writer: CanvasWriter,
): ConferenceCanvases {
  return new ConferenceCanvases({
    conferences: database.conferences,
    canvases: database.canvases.conferences,
    writers: everyTeam(writer),
    notifyCreator: (_teamId, userId, message) => poster.notifyCreator(userId, message),
    logger: silentLogger,
    now: () => clock.now(),
  });
}

describeEachStore('conference canvas', '2026-05-28T12:00:00Z', (world) => {
  function setUp(writer?: (slack: FakeSlack) => CanvasWriter) {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const slack = new FakeSlack();
    const canvas = keeper(db.store, poster, clock, (writer ?? slackWriter)(slack));
    const runner = conferenceRunner(store, analytics, poster, clock, { canvas });
    // Day 2 has a newcomer; the congress as a whole ranks carol first.
    analytics.answer = async (query) =>
      query.start.startsWith('2026-05-30')
        ? influencers('bob', 'erin', 'carol')
        : query.end.startsWith('2026-05-29') || query.end.startsWith('2026-05-30T00')
          ? influencers('alice', 'bob', 'carol')
          : influencers('carol', 'alice', 'bob');
    return { store, clock, analytics, poster, slack, runner };
  }

  it("creates the channel's canvas after the first day's recap, rewrites it whole after the next, and says it is final", async () => {
    const { store, clock, poster, slack, runner } = setUp();
    const created = await store.create(
      ascoInput({ lastDay: '2026-05-31', canvas: true }),
      clock.now(),
    );
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    // Refreshes write no canvas: canvases.edit is Tier 3, and a congress lasts days.
    expect(slack.calls).toHaveLength(0);

    clock.set(dayOneEnds);
    await runner.runDue(clock.now());
    const recaps = poster.of('post').filter((post) => post.threadTs !== undefined);
    expect(recaps).toHaveLength(1);
    const [create] = slack.api('conversations.canvases.create');
    expect(create?.args).toMatchObject({
      channel_id: 'C0ASCO',
      title: '#ASCO26 · May 29 – May 31',
    });
    const canvasId = slack.channelCanvases.get('C0ASCO') as string;
    const first = slack.canvases.get(canvasId)?.markdown ?? '';
    expect(first).not.toMatch(/^# /m);
    expect(first).toContain('#ASCO26: May 29 – May 31, 3 days in America/Chicago (Central time)');
    expect(first).toContain('Day 1 of 3 · Fri May 29 is over');
    expect(first).toContain('started by ![](@U1)');
    expect(first).toContain('## Top 3 of the congress so far');
    expect(first).toContain('| 1 | [@alice](https://x.com/alice) |');
    expect(first).toContain('| Day 1 of 3 · Fri May 29 | [@alice](https://x.com/alice) |');
    expect(first).toContain('- [@carol](https://x.com/carol): congress #3 · Day 1 #3');
    expect(first).toContain('- [@zed](https://x.com/zed): congress not in the top 500');

    // Refreshes of day 2 leave the canvas alone.
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    expect(slack.api('canvases.edit')).toHaveLength(0);

    clock.set(dayTwoEnds);
    await runner.runDue(clock.now());
    const edits = slack.api('canvases.edit');
    expect(edits).toHaveLength(1);
    expect(edits[0]?.args).toMatchObject({
      canvas_id: canvasId,
      changes: [{ operation: 'replace', document_content: { type: 'markdown' } }],
    });
    const second = slack.canvases.get(canvasId)?.markdown ?? '';
    // Newest day first; the whole document replaced, not appended to.
    expect(second.indexOf('Day 2 of 3 · Sat May 30 |')).toBeLessThan(
      second.indexOf('Day 1 of 3 · Fri May 29 |'),
    );
    expect(second).toContain('congress #1 · Day 2 #3 · Day 1 #3');
    expect(second.match(/## Top 3 of the congress/g)).toHaveLength(1);

    await store.requestStop(created.id, clock.now());
    clock.advance(minutes(1));
    await runner.runDue(clock.now());
    const final = slack.canvases.get(canvasId)?.markdown ?? '';
    expect(final).toContain('Stopped before its last day: this is the final report.');
    expect(final).toContain('## Top 3 of the congress\n');
    expect(slack.api('canvases.edit')).toHaveLength(2);
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    expect(await store.get(created.id)).toMatchObject({
      status: 'ended',
      canvas: { enabled: true, canvas: { id: canvasId, kind: 'channel' }, told: [] },
    });
  });

  it("tabs a canvas of its own when the channel's canvas is someone else's, never editing theirs", async () => {
    const { store, clock, slack, runner } = setUp();
    const theirs = slack.personCanvas('C0ASCO');
    await store.create(ascoInput({ canvas: true }), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    clock.set(dayOneEnds);
    await runner.runDue(clock.now());
    clock.set(dayTwoEnds);
    await runner.runDue(clock.now());
    expect(slack.canvases.get(theirs.id)?.markdown).toBe('Our channel notes');
    const [own] = slack.api('canvases.create');
    expect(own?.args.channel_id).toBe('C0ASCO');
    expect(slack.api('canvases.edit').map((call) => call.args.canvas_id)).toEqual(['F0CANVAS0002']);
  });

  it("on a free plan, still posts every recap, says the channel's canvas is taken, and tells the creator once", async () => {
    const { store, clock, poster, slack, runner } = setUp();
    slack.personCanvas('C0ASCO');
    slack.freeTeam = true;
    const created = await store.create(ascoInput({ canvas: true }), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    clock.set(dayOneEnds);
    await runner.runDue(clock.now());
    clock.set(dayTwoEnds);
    await runner.runDue(clock.now());
    expect(poster.of('post').filter((post) => post.threadTs !== undefined)).toHaveLength(2);
    const dms = poster.of('dm');
    expect(dms).toHaveLength(1);
    expect(dms[0]?.message?.text).toContain(
      "the channel's canvas is taken by someone else's, and this workspace's plan gives apps no canvas of their own beside it",
    );
    expect(JSON.stringify(dms[0]?.message?.blocks)).toContain(
      `conference edit ${created.id} canvas off`,
    );
    const stored = await store.get(created.id);
    expect(stored?.canvas).toMatchObject({ problem: 'channel_canvas_taken' });
    const list = renderConferenceList(stored ? [stored] : [], {
      now: clock.now(),
      channelId: 'C0ASCO',
      command: '/influencers',
    });
    expect(list.text).toContain(
      `the last write failed: ${canvasProblemWords('channel_canvas_taken')}`,
    );
  });

  it('writes no canvas for a conference that keeps none, and starts one turned on by an edit', async () => {
    const { store, clock, slack, runner } = setUp();
    const created = await store.create(ascoInput(), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await runner.runDue(clock.now());
    clock.set(dayOneEnds);
    await runner.runDue(clock.now());
    expect(slack.calls).toHaveLength(0);
    await store.update(created.id, { canvas: true }, clock.now());
    clock.advance(minutes(15));
    await runner.runDue(clock.now());
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    await store.update(created.id, { canvas: false }, clock.now());
    clock.set(dayTwoEnds);
    await runner.runDue(clock.now());
    expect(slack.api('canvases.edit')).toHaveLength(0);
  });

  it('neither posts a recap twice nor creates a second canvas when an instance is killed mid-write', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const slack = new FakeSlack();
    const writer = slackWriter(slack);
    const first = conferenceRunner(store, analytics, poster, clock, {
      canvas: keeper(db.store, poster, clock, writer),
    });
    await store.create(ascoInput({ lastDay: '2026-05-31', canvas: true }), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await first.runDue(clock.now());
    clock.set(dayOneEnds);
    await first.runDue(clock.now());
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);

    // The next instance recaps day 2, then dies while its canvases.edit is in flight.
    let reached = false;
    const hung: CanvasWriter = {
      write: () => {
        reached = true;
        return new Promise(() => undefined);
      },
    };
    const killed = conferenceRunner(store, analytics, poster, clock, {
      canvas: keeper(db.store, poster, clock, hung),
      options: { owner: 'instance-killed', backoffMs: 1 },
    });
    clock.set(dayTwoEnds);
    void killed.runDue(clock.now());
    await until(() => reached);
    const recaps = () => poster.of('post').filter((post) => post.threadTs !== undefined);
    expect(recaps()).toHaveLength(2);

    // Past the dead instance's lease: the survivor posts no recap again, and rewrites the same
    // canvas once.
    const survivor = conferenceRunner(store, analytics, poster, clock, {
      canvas: keeper(db.store, poster, clock, writer),
      options: { owner: 'instance-survivor', backoffMs: 1 },
    });
    clock.advance(minutes(15));
    await survivor.runDue(clock.now());
    clock.advance(minutes(15));
    await survivor.runDue(clock.now());
    expect(recaps()).toHaveLength(2);
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    expect(slack.api('canvases.edit').map((call) => call.args.canvas_id)).toEqual(['F0CANVAS0001']);
    expect(slack.canvases.get('F0CANVAS0001')?.markdown).toContain(
      'Day 2 of 3 · Sat May 30 is over',
    );
  });

  it("rewrites the channel's canvas a lost creation made at the next recap, never making a second", async () => {
    const { store, clock, slack, runner } = setUp();
    const created = await store.create(
      ascoInput({ lastDay: '2026-05-31', canvas: true }),
      clock.now(),
    );
    slack.loseAnswer('conversations.canvases.create');
    slack.loseAnswer('conversations.info', 1, 1);
    clock.set(dayOneEnds);
    await runner.runDue(clock.now());
    expect(slack.canvases.size).toBe(1);
    expect((await store.get(created.id))?.canvas?.problem).toBe('creation_unconfirmed');

    clock.set(dayTwoEnds);
    await runner.runDue(clock.now());
    const canvasId = slack.channelCanvases.get('C0ASCO') as string;
    expect(slack.canvases.size).toBe(1);
    expect(slack.api('canvases.create')).toHaveLength(0);
    expect(slack.canvases.get(canvasId)?.markdown).toContain('Day 2 of 3 · Sat May 30 |');
    expect((await store.get(created.id))?.canvas?.canvas).toEqual({
      id: canvasId,
      kind: 'channel',
    });
  });

  it('rewrites the canvas at the next refresh when an instance was killed between a recap and its canvas', async () => {
    const { db, clock, analytics } = world();
    const store = db.store.conferences;
    const poster = new FakeConferencePoster(clock);
    const slack = new FakeSlack();
    let reached = false;
    const hung: CanvasWriter = {
      write: () => {
        reached = true;
        return new Promise(() => undefined);
      },
    };
    const killed = conferenceRunner(store, analytics, poster, clock, {
      canvas: keeper(db.store, poster, clock, hung),
      options: { owner: 'instance-killed', backoffMs: 1 },
    });
    await store.create(ascoInput({ canvas: true }), clock.now());
    clock.set('2026-05-29T14:00:00Z');
    await killed.runDue(clock.now());
    clock.set(dayOneEnds);
    void killed.runDue(clock.now());
    await until(() => reached);

    const survivor = conferenceRunner(store, analytics, poster, clock, {
      canvas: keeper(db.store, poster, clock, slackWriter(slack)),
      options: { owner: 'instance-survivor', backoffMs: 1 },
    });
    clock.advance(minutes(15));
    await survivor.runDue(clock.now());
    expect(poster.of('post').filter((post) => post.threadTs !== undefined)).toHaveLength(1);
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    const calls = slack.calls.length;
    clock.advance(minutes(15));
    await survivor.runDue(clock.now());
    expect(slack.calls).toHaveLength(calls);
  });
});
