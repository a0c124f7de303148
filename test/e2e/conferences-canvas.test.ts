/**
 * A conference's channel canvas end to end: started by a signed slash command in the running app,
 * run by the digest tick against the sandbox, written through the fake Slack's canvas methods, on
 * SQLite and on PostgreSQL. Time moves as the digest tests move it.
 */
import { describe, expect, it } from 'vitest';
import { announcePostgresSkip } from '../digests/helpers.ts';
import { blocksOf, conferenceE2e, inChannel } from '../helpers/conference-e2e.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import type { Harness } from '../helpers/harness.ts';
import { teamId, userId } from '../helpers/payloads.ts';

announcePostgresSkip();

const { app, command, tick, adapters, setNow } = await conferenceE2e('conference-canvas-e2e-');

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
      setNow(new Date('2026-11-26T14:00:00Z'));
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
      setNow(new Date('2026-11-26T14:00:00Z'));
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
