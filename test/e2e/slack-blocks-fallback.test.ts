/**
 * A workspace where Slack refuses the new table and chart blocks: every path an answer takes is
 * sent again without them (the list and a text table in their place), over signed HTTP with the
 * app started for real, and the app says so once in its logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/model/message.ts';
import { withoutNewBlocks } from '../../src/render/blocks.ts';
import { actionIds } from '../../src/render/ids.ts';
import { encodeShareValue } from '../../src/render/lookups/answer.ts';
import { forgetNewBlocksRefusal } from '../../src/slack/web-api/blocks-fallback.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { expectedAnswer, fixedNow, now, request } from '../helpers/lookups.ts';
import {
  blockAction,
  directMessageEvent,
  eventCallback,
  slashCommand,
  teamId,
  userId,
} from '../helpers/payloads.ts';

const refusalLine = 'Slack refused the table/chart blocks; sending without them';

const blocksOf = (call: SlackCall | undefined) => call?.args.blocks;
const hasNewBlock = (call: SlackCall) =>
  ((call.args.blocks ?? []) as { type: string }[]).some(
    (block) => block.type === 'data_table' || block.type === 'data_visualization',
  );

let h: Harness;

beforeAll(async () => {
  forgetNewBlocksRefusal();
  // No still-running update: each path's first post is the answer Slack refuses.
  const env = { LOOKUP_TIMEOUT_MS: '10000', PROGRESS_UPDATE_MS: '9000' };
  h = await startHarness({ env, sandbox: { now }, overrides: { now } });
  h.slack.refuseNewBlocks = true;
});

afterAll(async () => {
  await h?.close();
});

describe('Slack refusing tables and charts', () => {
  it('gets the command answer through response_url again without the table', async () => {
    const text = '#hcsm last week top 20';
    const command = slashCommand({ text });
    await h.send(command);
    const second = await h.slack.waitForResponse(command.responseUrl, 2);
    const [first] = h.slack.responses(command.responseUrl);
    const expected = await expectedAnswer(h, request(text), { shareable: true });
    expect(first && hasNewBlock(first)).toBe(true);
    expect(blocksOf(first)).toEqual(expected.blocks);
    expect(blocksOf(second)).toEqual(withoutNewBlocks(expected).blocks);
    expect(second.args).toMatchObject({ response_type: 'ephemeral', replace_original: true });
  });

  it('gets a DM answer through chat.update again without the chart', async () => {
    const text = '#bcsm last week chart';
    const before = h.slack.calls.length;
    await h.send(eventCallback({ event: directMessageEvent(text) }));
    const retried = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        h.slack.calls.indexOf(call) >= before &&
        call.args.text !== undefined &&
        !hasNewBlock(call) &&
        h.slack.calls
          .slice(before)
          .some((other) => other.method === 'chat.update' && hasNewBlock(other)),
    );
    const expected = await expectedAnswer(h, request(text), { shareable: false });
    expect(blocksOf(retried)).toEqual(withoutNewBlocks(expected).blocks);
  });

  it('gets a button’s answer through chat.update again without the table', async () => {
    const asked = request('#hcsm yesterday');
    const ts = '1700000600.000100';
    await h.send(
      blockAction({
        actionId: actionIds.answerTable,
        value: encodeShareValue(asked),
        container: {
          type: 'message',
          message_ts: ts,
          channel_id: 'D0DIRECT01',
          is_ephemeral: false,
        },
      }),
    );
    const retried = await h.slack.waitFor(
      (call) => call.method === 'chat.update' && call.args.ts === ts && !hasNewBlock(call),
    );
    const tried = h.slack.api('chat.update').filter((call) => call.args.ts === ts);
    expect(tried).toHaveLength(2);
    const expected = await expectedAnswer(h, asked, { shareable: false, presentation: 'table' });
    expect(blocksOf(tried[0])).toEqual(expected.blocks);
    expect(blocksOf(retried)).toEqual(withoutNewBlocks(expected).blocks);
  });

  it('gets an answer posted anew through chat.postMessage again without the table', async () => {
    const posting = await startHarness({
      env: { LOOKUP_TIMEOUT_MS: '10000', PROGRESS_UPDATE_MS: '9000' },
      sharedSandbox: h.sandbox,
      overrides: { now },
    });
    try {
      posting.slack.refuseNewBlocks = true;
      posting.slack.override('chat.update', () => ({ ok: false, error: 'message_not_found' }));
      const text = '#hcsm last week table';
      await posting.send(eventCallback({ event: directMessageEvent(text) }));
      const retried = await posting.slack.waitFor(
        (call) =>
          call.method === 'chat.postMessage' &&
          posting.slack.api('chat.postMessage').length >= 3 &&
          !hasNewBlock(call) &&
          call === posting.slack.api('chat.postMessage')[2],
      );
      const posts = posting.slack.api('chat.postMessage');
      const expected = await expectedAnswer(posting, request(text), { shareable: false });
      expect(blocksOf(posts[1])).toEqual(expected.blocks);
      expect(blocksOf(retried)).toEqual(withoutNewBlocks(expected).blocks);
    } finally {
      await posting.close();
    }
  });

  it('gets a digest with a table into its channel again without the table', async () => {
    const digest = await h.running.digests.database.digests.create(
      {
        teamId,
        channelId: 'C0DIGEST01',
        creatorId: userId,
        databases: ['#hcsm'],
        schedule: { kind: 'cron', expression: '0 9 * * *', zone: 'UTC', cadence: 'daily' },
        window: { kind: 'last', amount: 7, unit: 'days' },
        top: 15,
        presentation: 'table',
        nextRunAt: new Date('2026-11-22T09:00:00Z'),
      },
      fixedNow,
    );
    await h.send(slashCommand({ text: `digest run ${digest.id}` }));
    const posted = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === 'C0DIGEST01' &&
        !hasNewBlock(call),
    );
    const tried = h.slack
      .api('chat.postMessage')
      .filter((call) => call.args.channel === 'C0DIGEST01');
    expect(tried).toHaveLength(2);
    expect(tried[0] && hasNewBlock(tried[0])).toBe(true);
    const first = {
      text: String(tried[0]?.args.text),
      blocks: tried[0]?.args.blocks as SlackMessage['blocks'],
    };
    expect(blocksOf(posted)).toEqual(withoutNewBlocks(first).blocks);
  });

  it('is logged once, however many messages Slack refused', () => {
    expect(h.logs.filter((line) => line.includes(refusalLine))).toHaveLength(1);
  });
});
