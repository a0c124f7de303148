/**
 * A conference's channel canvas end to end: started by a signed slash command in the running app,
 * run by the digest tick against the sandbox, written through the fake Slack's canvas methods, on
 * SQLite and on PostgreSQL. Time moves as the digest tests move it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/digests/store/sqlite.ts';
import type { DigestStore } from '../../src/digests/store/store.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { announcePostgresSkip, TestPostgres, testDatabaseUrl, until } from '../digests/helpers.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { slashCommand, teamId, userId } from '../helpers/payloads.ts';

announcePostgresSkip();

let current = new Date('2026-11-26T14:00:00Z');
const now = () => current;
const sleep = async () => undefined;
const sandbox = await startSandbox({
  port: 0,
  host: '127.0.0.1',
  now: () => new Date('2027-01-01T00:00:00Z'),
});
afterAll(() => sandbox.close());

/** The app over `store`, on the test's clock, against the shared sandbox. */
async function app(store: DigestStore): Promise<Harness> {
  const harness = await startHarness({
    env: { RESPONSE_CACHE_TTL_MS: '0' },
    sharedSandbox: sandbox,
    overrides: {
      now,
      digests: {
        store,
        clock: { now, sleep },
        runnerOptions: { backoffMs: 1, channelIntervalMs: 0 },
      },
    },
  });
  harness.slack.override('conversations.info', (args) => ({
    ok: true,
    channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
  }));
  return harness;
}

/** Runs a command and waits for its answer and for the work it started (a first leaderboard). */
async function command(harness: Harness, text: string, channelId: string): Promise<string> {
  const payload = slashCommand({ text, channelId });
  const ack = await harness.send(payload);
  expect(ack.status).toBe(200);
  const answer = await harness.slack.waitForResponse(payload.responseUrl);
  await until(() => harness.running.deps.inFlight.size === 0);
  return String(answer.args.text);
}

const tick = (harness: Harness, at: string) => {
  current = new Date(at);
  return harness.running.digests.runner.runDue(current);
};

const inChannel = (harness: Harness, method: string, channel: string): SlackCall[] =>
  harness.slack.api(method).filter((call) => call.args.channel === channel);

const blocksOf = (call: SlackCall | undefined) => JSON.stringify(call?.args.blocks);

const adapters = [
  {
    name: 'SQLite',
    enabled: true,
    open: () => {
      const folder = mkdtempSync(join(tmpdir(), 'conference-canvas-e2e-'));
      const path = join(folder, 'digests.sqlite');
      return {
        store: async () => {
          const store = openSqliteStore({ path });
          await store.migrate();
          return store;
        },
        drop: async () => rmSync(folder, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    enabled: testDatabaseUrl !== undefined,
    open: () => {
      const database = new TestPostgres();
      return {
        store: async () => {
          const store = database.open();
          await store.migrate();
          return store;
        },
        drop: () => database.drop(),
      };
    },
  },
];

/** The markdown a `canvases.edit` call replaced the document with. */
const editedMarkdown = (call: SlackCall | undefined): string => {
  const changes = call?.args.changes as { document_content?: { markdown?: string } }[] | undefined;
  return changes?.[0]?.document_content?.markdown ?? '';
};

const canvasCalls = (harness: Harness, method: string, channel: string): SlackCall[] =>
  harness.slack.api(method).filter((call) => call.args.channel_id === channel);

for (const adapter of adapters) {
  describe.skipIf(!adapter.enabled)(`a conference's channel canvas (${adapter.name})`, () => {
    it("is created after the first day's recap, rewritten whole after the next and at the end, and survives a restart", async () => {
      const database = adapter.open();
      const channel = 'C0CONFCNV1';
      current = new Date('2026-11-26T14:00:00Z');
      let harness = await app(await database.store());
      try {
        const confirmation = await command(
          harness,
          'conference #hcsm from Nov 26 to Nov 28 in America/Chicago watch @nobody_here top 5 canvas',
          channel,
        );
        expect(confirmation).toContain("*Canvas*: the channel's standing report of the congress");
        const list = await command(harness, 'conference list', channel);
        const id = /`(\w{6})`/.exec(list)?.[1] ?? '';
        expect(list).toContain(
          "canvas: kept in the channel, written once a day's recap has posted",
        );

        // Refreshes of day 1 write no canvas.
        await tick(harness, '2026-11-26T14:15:00Z');
        expect(canvasCalls(harness, 'conversations.canvases.create', channel)).toHaveLength(0);

        // Midnight in Chicago: day 1's recap in the thread, then the channel's canvas.
        await tick(harness, '2026-11-27T06:00:00Z');
        const recap = inChannel(harness, 'chat.postMessage', channel).at(-1);
        expect(blocksOf(recap)).toContain('Day 1 of 3 recap');
        const [create] = canvasCalls(harness, 'conversations.canvases.create', channel);
        expect(create?.args.title).toBe('#hcsm · Nov 26 – Nov 28');
        const canvasId = harness.slack.channelCanvases.get(channel) ?? '';
        const first = harness.slack.canvases.get(canvasId)?.markdown ?? '';
        expect(first).toContain('Day 1 of 3 · Thu Nov 26 is over');
        expect(first).toContain(`started by ![](@${userId})`);
        expect(first).toContain('| # | Account | Name | Mentions |');
        expect(first).toContain(
          '- [@nobody\\_here](https://x.com/nobody_here): congress not in the top 500',
        );
        expect(first).not.toMatch(/^# /m);
        await harness.close();

        // A restart: the new instance rewrites the same canvas after day 2's recap.
        const made = harness.slack.canvases.get(canvasId);
        harness = await app(await database.store());
        // The same workspace: its channel keeps the canvas the app made.
        if (made !== undefined) harness.slack.canvases.set(canvasId, made);
        harness.slack.channelCanvases.set(channel, canvasId);
        await tick(harness, '2026-11-27T15:00:00Z');
        expect(harness.slack.api('canvases.edit')).toHaveLength(0);
        await tick(harness, '2026-11-28T06:00:00Z');
        const edits = harness.slack.api('canvases.edit');
        expect(edits.map((call) => call.args.canvas_id)).toEqual([canvasId]);
        const edited = editedMarkdown(edits[0]);
        expect(edited).toContain('Day 2 of 3 · Fri Nov 27 is over');
        expect(edited.indexOf('| Day 2 of 3 · Fri Nov 27 |')).toBeLessThan(
          edited.indexOf('| Day 1 of 3 · Thu Nov 26 |'),
        );
        expect(await command(harness, 'conference list', channel)).toContain(
          "canvas: the channel's canvas, rewritten after each day's recap",
        );

        // The last day ends: the final recap, then the canvas says it is final.
        await tick(harness, '2026-11-29T06:00:00Z');
        const final = harness.slack.api('canvases.edit').at(-1);
        const markdown = editedMarkdown(final);
        expect(markdown).toContain('The congress is over: this is the final report.');
        expect(harness.slack.api('canvases.edit')).toHaveLength(2);
        expect(canvasCalls(harness, 'conversations.canvases.create', channel)).toHaveLength(0);
        const [ended] =
          (await harness.running.digests.conferences?.listForChannel(teamId, channel)) ?? [];
        expect(ended).toMatchObject({ id, status: 'ended', canvas: { canvas: { id: canvasId } } });
      } finally {
        await harness.close();
        await database.drop();
      }
    });

    it("on a free plan, posts each recap, says the channel's canvas is taken, and DMs the creator once", async () => {
      const database = adapter.open();
      const channel = 'C0CONFCNV2';
      current = new Date('2026-11-26T14:00:00Z');
      const harness = await app(await database.store());
      harness.slack.personCanvas(channel);
      harness.slack.freeTeam = true;
      try {
        await command(
          harness,
          'conference #hcsm from Nov 26 to Nov 28 in America/Chicago',
          channel,
        );
        const list = await command(harness, 'conference list', channel);
        const id = /`(\w{6})`/.exec(list)?.[1] ?? '';
        expect(await command(harness, `conference edit ${id} canvas on`, channel)).toContain(
          'canvas: kept in the channel',
        );
        await tick(harness, '2026-11-27T06:00:00Z');
        await tick(harness, '2026-11-28T06:00:00Z');
        const recaps = inChannel(harness, 'chat.postMessage', channel).filter(
          (call) => call.args.thread_ts !== undefined,
        );
        expect(recaps).toHaveLength(2);
        const told = harness.slack
          .api('chat.postMessage')
          .filter(
            (call) =>
              (call.args.channel === userId || String(call.args.channel).startsWith('D')) &&
              String(call.args.text).includes(`canvas of your conference ${id}`),
          );
        expect(told).toHaveLength(1);
        expect(await command(harness, 'conference list', channel)).toContain(
          "the channel's canvas is taken",
        );
      } finally {
        await harness.close();
        await database.drop();
      }
    });
  });
}
