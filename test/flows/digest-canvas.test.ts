import { WebClient } from '@slack/web-api';
import { expect, it, vi } from 'vitest';
import { everyTeam } from '../../src/digests/per-team.ts';
import type { Clock, DigestRunner } from '../../src/digests/runner.ts';
import { DigestCanvases, runsHistory } from '../../src/flows/digest-canvas.ts';
import { silentLogger } from '../../src/logger.ts';
import type { CanvasWriter } from '../../src/model/canvas.ts';
import { canvasProblemWords } from '../../src/render/canvases/digest-canvas.ts';
import { renderDigestList } from '../../src/render/management/digest-management.ts';
import { SlackCanvasWriter } from '../../src/slack/web-api/canvas.ts';
import { singleAttemptClientOptions } from '../../src/slack/web-api/client.ts';
import type { Database } from '../../src/store/database.ts';
import {
  dailyLondon,
  describeEachStore,
  digestInput,
  type FakeClock,
  type FakePoster,
} from '../digests/helpers.ts';
import { FakeSlack } from '../helpers/fake-slack.ts';

// Every day at 09:00 London; the first slot on Monday 2 November 2026, a week after the clocks
// went back (GMT).
const firstSlot = new Date('2026-11-02T09:00:00Z');
const day = 24 * 60 * 60_000;

interface CanvasWorld {
  readonly slack: FakeSlack;
  readonly runner: DigestRunner;
}

function slackWriter(slack: FakeSlack): CanvasWriter {
  const client = new WebClient('xoxb-canvas', singleAttemptClientOptions({ fetch: slack.fetch }));
  return new SlackCanvasWriter({ client });
}

function canvases(
  store: Database,
  poster: FakePoster,
  clock: Clock,
  writer: CanvasWriter,
): DigestCanvases {
  return new DigestCanvases({
    digests: store.digests,
    canvases: store.canvases.digests,
    writers: everyTeam(writer),
    notifyCreator: (_teamId, userId, message) => poster.notifyCreator(userId, message),
    history: runsHistory(store.runs),
    logger: silentLogger,
    now: () => clock.now(),
  });
}

describeEachStore('digest canvas', firstSlot, (world) => {
  function setUp(writer?: CanvasWriter): CanvasWorld {
    const { db, poster, clock } = world();
    const slack = new FakeSlack();
    const keeper = canvases(db.store, poster, clock, writer ?? slackWriter(slack));
    return { slack, runner: world().runner({ afterPost: (run) => keeper.afterPost(run) }) };
  }

  async function runDay(runner: DigestRunner, clock: FakeClock, days: number) {
    clock.set(new Date(firstSlot.getTime() + days * day + 5_000));
    return runner.runDue(clock.now());
  }

  it("creates the channel's canvas after the first post and rewrites it whole after the next", async () => {
    const { db, clock, poster } = world();
    const slack = new FakeSlack();
    const slackSide = slackWriter(slack);
    // What the store and the channel held when each write began.
    const seen: { posts: number; delivered: boolean }[] = [];
    const { runner } = setUp({
      write: async (channelId, canvas, document) => {
        seen.push({
          posts: poster.posts.length,
          delivered: await db.store.runs.hasDelivered(digest.id, firstSlot),
        });
        return slackSide.write(channelId, canvas, document);
      },
    });
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    expect((await runDay(runner, clock, 0)).posted).toBe(1);
    const [created] = slack.api('conversations.canvases.create');
    expect(created?.args).toMatchObject({ channel_id: 'C1', title: 'Top 5 of #hcsm' });
    // After the post and its record, never before.
    expect(seen).toEqual([{ posts: 1, delivered: true }]);
    const stored = (await db.store.digests.get(digest.id))?.canvas;
    expect(stored).toEqual({
      enabled: true,
      canvas: { id: 'F0CANVAS0001', kind: 'channel' },
      told: [],
    });
    expect(slack.canvases.get('F0CANVAS0001')?.markdown).toContain(
      '| 1 | [@alice](https://x.com/alice) |',
    );

    expect((await runDay(runner, clock, 1)).posted).toBe(1);
    const edits = slack.api('canvases.edit');
    expect(edits).toHaveLength(1);
    const changes = edits[0]?.args.changes as { operation: string; section_id?: string }[];
    expect(changes).toHaveLength(1);
    expect(changes[0]?.operation).toBe('replace');
    expect(changes[0]?.section_id).toBeUndefined();
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    const markdown = slack.canvases.get('F0CANVAS0001')?.markdown ?? '';
    expect(markdown).toContain('## History');
    expect(markdown).toContain(
      '- **Mon Nov 2, 2026**: 1. [@alice](https://x.com/alice), 2. [@bob](https://x.com/bob), 3. [@carol](https://x.com/carol)',
    );

    // Every earlier run keeps its top 3 in the history, read from the store's run records.
    expect((await runDay(runner, clock, 2)).posted).toBe(1);
    const third = slack.canvases.get('F0CANVAS0001')?.markdown ?? '';
    const history = third.slice(third.indexOf('## History'));
    expect(history.indexOf('**Tue Nov 3, 2026**: 1. [@alice]')).toBeGreaterThan(0);
    expect(history.indexOf('**Mon Nov 2, 2026**: 1. [@alice]')).toBeGreaterThan(
      history.indexOf('**Tue Nov 3, 2026**'),
    );
    expect(history).not.toContain('its ranking is in the channel');
  });

  it("finds the channel's canvas it made when Slack's answer to its creation was lost, never making a second", async () => {
    const { db, clock } = world();
    const { slack, runner } = setUp();
    slack.loseAnswer('conversations.canvases.create');
    // Nor does Slack say, right after, that the channel has a canvas now.
    slack.loseAnswer('conversations.info', 1, 1);
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    expect((await runDay(runner, clock, 0)).posted).toBe(1);
    // Slack made the canvas; the app never heard of it.
    expect([...slack.canvases.keys()]).toEqual(['F0CANVAS0001']);
    expect((await db.store.digests.get(digest.id))?.canvas?.canvas).toBeUndefined();

    expect((await runDay(runner, clock, 1)).posted).toBe(1);
    expect([...slack.canvases.keys()]).toEqual(['F0CANVAS0001']);
    expect(slack.api('canvases.create')).toHaveLength(0);
    // Told once that Slack did not confirm it, which the next run settled.
    expect((await db.store.digests.get(digest.id))?.canvas).toEqual({
      enabled: true,
      canvas: { id: 'F0CANVAS0001', kind: 'channel' },
      told: ['creation_unconfirmed'],
    });
    expect(slack.canvases.get('F0CANVAS0001')?.markdown).toContain('**Mon Nov 2, 2026**');
  });

  it("tabs a canvas of its own when the channel's canvas is someone else's, never editing theirs", async () => {
    const { db, clock } = world();
    const { slack, runner } = setUp();
    const theirs = slack.personCanvas('C1');
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    await runDay(runner, clock, 0);
    await runDay(runner, clock, 1);
    expect((await db.store.digests.get(digest.id))?.canvas?.canvas).toEqual({
      id: 'F0CANVAS0002',
      kind: 'standalone',
    });
    expect(slack.api('canvases.create')).toHaveLength(1);
    expect(slack.api('canvases.edit').map((call) => call.args.canvas_id)).toEqual(['F0CANVAS0002']);
    expect(theirs.markdown).toBe('Our channel notes');
  });

  it('says plainly on a free plan that the channel canvas is taken, tells the creator once, and still posts', async () => {
    const { db, clock, poster } = world();
    const { slack, runner } = setUp();
    slack.freeTeam = true;
    slack.personCanvas('C1');
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    expect((await runDay(runner, clock, 0)).posted).toBe(1);
    expect((await runDay(runner, clock, 1)).posted).toBe(1);
    expect(poster.posts).toHaveLength(2);
    const stored = await db.store.digests.get(digest.id);
    expect(stored?.canvas).toMatchObject({
      problem: 'channel_canvas_taken',
      told: ['channel_canvas_taken'],
    });
    expect(poster.notices).toHaveLength(1);
    expect(poster.notices[0]?.message.text).toContain(canvasProblemWords('channel_canvas_taken'));
    const list = JSON.stringify(
      renderDigestList([stored ?? digest], { now: clock.now(), viewerId: 'U1', channelId: 'C1' }),
    );
    expect(list).toContain("the channel's canvas is taken");
  });

  it('does not ask Slack again at every run after the plan refused a canvas, but after a week', async () => {
    const { db, clock } = world();
    const { slack, runner } = setUp();
    slack.freeTeam = true;
    slack.personCanvas('C1');
    await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    for (const days of [0, 1, 2, 3]) expect((await runDay(runner, clock, days)).posted).toBe(1);
    // conversations.info showed the channel's canvas taken: no creation of one was asked for.
    expect(slack.api('conversations.canvases.create')).toHaveLength(0);
    expect(slack.api('canvases.create')).toHaveLength(1);
    for (const days of [4, 5, 6, 7]) expect((await runDay(runner, clock, days)).posted).toBe(1);
    expect(slack.api('canvases.create')).toHaveLength(2);
  });

  it('does not edit again at every run a canvas the plan will not let it edit', async () => {
    const { db, clock, poster } = world();
    const { slack, runner } = setUp();
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    expect((await runDay(runner, clock, 0)).posted).toBe(1);
    slack.override('canvases.edit', () => ({
      ok: false,
      error: 'free_teams_cannot_edit_standalone_canvases',
    }));
    for (const days of [1, 2, 3]) expect((await runDay(runner, clock, days)).posted).toBe(1);
    expect(slack.api('canvases.edit')).toHaveLength(1);
    expect((await db.store.digests.get(digest.id))?.canvas?.problem).toBe('edits_unavailable');
    expect(poster.notices).toHaveLength(1);
  });

  it('records a failed edit, tells the creator once per reason, and the message still posts', async () => {
    const { db, clock, poster } = world();
    const { slack, runner } = setUp();
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    await runDay(runner, clock, 0);
    slack.override('canvases.edit', () => ({ ok: false, error: 'canvas_editing_failed' }));
    await runDay(runner, clock, 1);
    await runDay(runner, clock, 2);
    slack.override('canvases.edit', () => ({ ok: false, error: 'missing_scope' }));
    await runDay(runner, clock, 3);
    expect(poster.posts).toHaveLength(4);
    expect(poster.notices.map((notice) => notice.message.text)).toEqual([
      expect.stringContaining(canvasProblemWords('editing_failed')),
      expect.stringContaining('canvases:write'),
    ]);
    expect((await db.store.digests.get(digest.id))?.canvas).toMatchObject({
      canvas: { id: 'F0CANVAS0001', kind: 'channel' },
      problem: 'missing_scope',
    });
  });

  it('posts whatever the canvas writer does, even when it throws', async () => {
    const { db, clock, poster } = world();
    const { runner } = setUp({
      write: async () => {
        throw new Error('disk full');
      },
    });
    await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    expect((await runDay(runner, clock, 0)).posted).toBe(1);
    expect(poster.posts).toHaveLength(1);
  });

  it('writes no canvas for a digest that keeps none, or once it is turned off', async () => {
    const { db, clock } = world();
    const { slack, runner } = setUp();
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot }),
      firstSlot,
    );
    await db.store.digests.update(
      digest.id,
      {
        schedule: digest.schedule,
        window: digest.window,
        top: digest.top,
        presentation: digest.presentation,
        postWhen: digest.postWhen,
        metric: digest.metric,
        canvas: false,
      },
      firstSlot,
    );
    expect((await runDay(runner, clock, 0)).posted).toBe(2);
    expect(slack.calls).toHaveLength(0);
  });

  it('neither posts nor creates a canvas twice when an instance is killed after its post', async () => {
    const { db, clock, poster } = world();
    const slack = new FakeSlack();
    const writer = slackWriter(slack);
    const keeper = canvases(db.store, poster, clock, writer);
    // The killed instance dies once its post is recorded, before it writes the canvas.
    const killed = world().runner({
      afterPost: () => new Promise<void>(() => undefined),
      options: { owner: 'instance-killed' },
    });
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    clock.set(new Date(firstSlot.getTime() + 5_000));
    void killed.runDue(clock.now());
    for (
      let turn = 0;
      turn < 500 && !(await db.store.runs.hasDelivered(digest.id, firstSlot));
      turn++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(poster.posts).toHaveLength(1);
    const survivor = world().runner({
      afterPost: (run) => keeper.afterPost(run),
      options: { owner: 'instance-survivor' },
    });
    expect((await survivor.runDue(clock.now())).posted).toBe(0);
    expect(slack.calls).toHaveLength(0);
    await runDay(survivor, clock, 1);
    await runDay(survivor, clock, 2);
    expect(poster.posts).toHaveLength(3);
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    expect(slack.api('canvases.edit')).toHaveLength(1);
  });

  it('edits the same canvas after an instance was killed mid-edit', async () => {
    const { db, clock, poster } = world();
    const slack = new FakeSlack();
    const writer = slackWriter(slack);
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    const first = world().runner({
      afterPost: (run) => canvases(db.store, poster, clock, writer).afterPost(run),
    });
    await runDay(first, clock, 0);
    // The next instance dies while its canvases.edit is in flight.
    const hung: CanvasWriter = { write: () => new Promise(() => undefined) };
    const killed = world().runner({
      afterPost: (run) => canvases(db.store, poster, clock, hung).afterPost(run),
      options: { owner: 'instance-killed' },
    });
    clock.set(new Date(firstSlot.getTime() + day + 5_000));
    void killed.runDue(clock.now());
    const second = new Date(firstSlot.getTime() + day);
    for (
      let turn = 0;
      turn < 500 && !(await db.store.runs.hasDelivered(digest.id, second));
      turn++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const survivor = world().runner({
      afterPost: (run) => canvases(db.store, poster, clock, writer).afterPost(run),
      options: { owner: 'instance-survivor' },
    });
    await runDay(survivor, clock, 2);
    expect(poster.posts).toHaveLength(3);
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    expect(slack.api('canvases.edit').map((call) => call.args.canvas_id)).toEqual(['F0CANVAS0001']);
  });
});

describeEachStore('digest canvas, written by two runs at once', firstSlot, (world) => {
  it('creates one canvas when a scheduled run and Run now write it together', async () => {
    const { db, clock, poster } = world();
    const slack = new FakeSlack();
    const writer = slackWriter(slack);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Slack is slow to create the canvas: both runs reach the writer before it answers.
    const slow: CanvasWriter = {
      write: async (channelId, canvas, document) => {
        await gate;
        return writer.write(channelId, canvas, document);
      },
    };
    const keeper = canvases(db.store, poster, clock, slow);
    const runner = world().runner({ afterPost: (run) => keeper.afterPost(run) });
    const digest = await db.store.digests.create(
      digestInput({ schedule: dailyLondon, nextRunAt: firstSlot, canvas: true }),
      firstSlot,
    );
    clock.set(new Date(firstSlot.getTime() + 5_000));
    const scheduled = runner.runDue(clock.now());
    // The scheduled run has posted and waits on Slack's canvas before Run now starts, however
    // the store's answers interleave.
    await vi.waitFor(() => expect(poster.posts).toHaveLength(1));
    clock.advance(2_000);
    const now = await runner.runNow(digest);
    expect(now.outcome).toBe('posted');
    release();
    await scheduled;
    await runner.stop();
    expect(poster.posts).toHaveLength(2);
    expect(slack.api('conversations.canvases.create')).toHaveLength(1);
    expect(slack.api('canvases.create')).toHaveLength(0);
  });
});
