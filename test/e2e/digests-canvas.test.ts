/**
 * A digest that keeps a channel canvas, created and managed by signed slash commands in the
 * running app, run slot by slot against the sandbox, its canvas written to the fake Slack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Digest } from '../../src/model/digest.ts';
import type { Database } from '../../src/store/database.ts';
import { type DigestRuns, startDigestRuns } from '../helpers/digest-runs.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import type { Harness } from '../helpers/harness.ts';
import { slashCommand, teamId, userId } from '../helpers/payloads.ts';

let harness: Harness;
let store: Database;
let runs: DigestRuns | undefined;

beforeAll(async () => {
  runs = await startDigestRuns();
  ({ harness, store } = runs);
});

afterAll(async () => {
  await runs?.close();
});

/** Sends `text` after the slash command in `channelId`; returns the blocks and text it answered. */
async function command(text: string, channelId: string): Promise<string> {
  const payload = slashCommand({ text, channelId });
  expect((await harness.send(payload)).status).toBe(200);
  const answer = await harness.slack.waitForResponse(payload.responseUrl);
  return JSON.stringify(answer.args);
}

async function only(channelId: string): Promise<Digest> {
  const [digest] = await store.digests.listByChannel(teamId, channelId);
  if (digest === undefined) throw new Error(`no digest in ${channelId}`);
  return digest;
}

/** Runs the digest's next slot, one tick. */
async function runSlot(digest: Digest): Promise<void> {
  const slot = ((await store.digests.get(digest.id)) as Digest).nextRunAt;
  await harness.running.digests.runner.runDue(new Date(slot.getTime() + 5_000));
}

const calls = (method: string, channelId: string): SlackCall[] =>
  harness.slack
    .api(method)
    .filter((call) => call.args.channel_id === channelId || call.args.channel === channelId);

describe('a digest with a channel canvas', () => {
  it('creates the canvas after the first post, rewrites it after the next, and lists it', async () => {
    const channel = 'C0CANVAS01';
    const created = await command('digest #hcsm every day at 9am top 5 canvas', channel);
    expect(created).toContain('*Canvas*: kept in the channel, written after the next post');
    const digest = await only(channel);
    expect(digest.canvas).toEqual({ enabled: true, told: [] });

    await runSlot(digest);
    expect(calls('chat.postMessage', channel)).toHaveLength(1);
    const [create] = calls('conversations.canvases.create', channel);
    const markdown = (create?.args.document_content as { markdown?: string } | undefined)?.markdown;
    expect(markdown).toContain('| # | Account | Name | Mentions | Move |');
    expect(markdown).not.toMatch(/^# /m);
    const canvas = (await store.digests.get(digest.id))?.canvas?.canvas;
    expect(canvas?.kind).toBe('channel');

    await runSlot(digest);
    expect(calls('chat.postMessage', channel)).toHaveLength(2);
    const edits = harness.slack
      .api('canvases.edit')
      .filter((call) => call.args.canvas_id === canvas?.id);
    expect(edits).toHaveLength(1);
    expect(harness.slack.canvases.get(canvas?.id ?? '')?.markdown).toContain('## History');

    expect(await command('digests', channel)).toContain(
      "Canvas: the channel's canvas, rewritten after each post",
    );
  });

  it('turns the canvas off by an edit, and writes it no more', async () => {
    const channel = 'C0CANVAS02';
    await command('digest #hcsm every day at 9am canvas', channel);
    const digest = await only(channel);
    await runSlot(digest);
    expect(await command(`digest edit ${digest.id} canvas off`, channel)).toContain(
      'off; the canvas stays as it was last written',
    );
    const before = harness.slack.api('canvases.edit').length;
    await runSlot(digest);
    expect(calls('chat.postMessage', channel)).toHaveLength(2);
    expect(harness.slack.api('canvases.edit')).toHaveLength(before);
  });

  it("on a free plan, posts, says the channel's canvas is taken, and DMs the creator once", async () => {
    const channel = 'C0CANVAS03';
    harness.slack.personCanvas(channel);
    harness.slack.freeTeam = true;
    try {
      await command('digest #hcsm every day at 9am canvas', channel);
      const digest = await only(channel);
      await runSlot(digest);
      await runSlot(digest);
      expect(calls('chat.postMessage', channel)).toHaveLength(2);
      const told = harness.slack
        .api('chat.postMessage')
        .filter(
          (call) =>
            (call.args.channel === userId || String(call.args.channel).startsWith('D')) &&
            String(call.args.text).includes(`canvas of your digest ${digest.id}`),
        );
      expect(told).toHaveLength(1);
      expect(await command('digests', channel)).toContain("the channel's canvas is taken");
    } finally {
      harness.slack.freeTeam = false;
    }
  });
});
