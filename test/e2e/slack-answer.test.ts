/**
 * The analyst's answer over signed HTTP, the app started for real against the sandbox and Slack
 * faked through the `fetch` Bolt is given: comparisons, the ranking metric, tables, charts, the
 * buttons under every answer, and CSV exports received by the fake Slack and read back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { AnalyticsApi, InfluencersResult } from '../../src/analytics/types.ts';
import { ExportFailedError } from '../../src/errors.ts';
import { shownInMessage, toQuery } from '../../src/flows/lookup/index.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { withPreviousPeriod } from '../../src/parsing/index.ts';
import { errorText } from '../../src/render/errors.ts';
import { actionIds, callbackIds, lookupModalInputs } from '../../src/render/ids.ts';
import { encodeShareValue, renderAnswer, renderShared } from '../../src/render/lookups/answer.ts';
import { renderCsv } from '../../src/render/lookups/csv.ts';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { parseCsv } from '../helpers/csv.ts';
import { dmOf, type SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { expectedAnswer, finalResponse, fixedNow, now, request } from '../helpers/lookups.ts';
import {
  blockAction,
  directMessageEvent,
  eventCallback,
  mentionEvent,
  slashCommand,
  userId,
  viewSubmission,
} from '../helpers/payloads.ts';

const blockTypes = (call: SlackCall) =>
  ((call.args.blocks ?? []) as { type: string }[]).map((b) => b.type);

function answerOf(call: SlackCall): SlackMessage {
  return { text: String(call.args.text), blocks: call.args.blocks as SlackMessage['blocks'] };
}

function dataRequests(h: Harness, from: number) {
  return h.sandbox.log.slice(from).filter((record) => record.endpoint === 'data');
}

/**
 * A button carrying `asked`, pressed under an answer that is not ephemeral: the app's post at `ts`
 * in `channel` (a DM by default), whose text Slack sends along when given.
 */
function pressedUnder(
  actionId: string,
  asked: LookupRequest,
  ts: string,
  where: { readonly channel?: string; readonly text?: string } = {},
) {
  return blockAction({
    actionId,
    value: encodeShareValue(asked),
    container: {
      type: 'message',
      message_ts: ts,
      channel_id: where.channel ?? 'D0DIRECT01',
      is_ephemeral: false,
    },
    ...(where.text === undefined ? {} : { message: { ts, text: where.text } }),
  });
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    env: { LOOKUP_TIMEOUT_MS: '10000' },
    sandbox: { now },
    overrides: { now },
  });
});

afterAll(async () => {
  await h?.close();
});

describe('comparison', () => {
  it('asks for both windows and answers /influencers … vs previous period with the moves', async () => {
    const text = '#hcsm last week vs previous period';
    const asked = request(text);
    const before = h.sandbox.log.length;
    const command = slashCommand({ text });
    expect((await h.send(command)).status).toBe(200);
    const answer = await finalResponse(h, command.responseUrl);

    const windows = dataRequests(h, before).map((record) => [record.query.start, record.query.end]);
    expect(windows.sort()).toEqual(
      [
        [asked.start, asked.end],
        [asked.compare?.start, asked.compare?.end],
      ].sort(),
    );
    expect(answerOf(answer)).toEqual(await expectedAnswer(h, asked, { shareable: true }));
    expect(answer.args).toMatchObject({ response_type: 'ephemeral', replace_original: true });
  });

  it('compares an ephemeral answer with the previous period when its button is pressed', async () => {
    const asked = request('#bcsm last week');
    const action = blockAction({
      actionId: actionIds.answerCompare,
      value: encodeShareValue(asked),
    });
    const ack = await h.send(action);
    expect(ack.status).toBe(200);
    expect(ack.ms).toBeLessThan(3_000);
    const replaced = await h.slack.waitForResponse(action.responseUrl, 1);
    const compared = withPreviousPeriod(asked, { now: fixedNow, zone: asked.timezone });
    if (compared instanceof Error) throw compared;
    expect(replaced.args).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(answerOf(replaced)).toEqual(await expectedAnswer(h, compared, { shareable: true }));
  });

  it('compares a DM answer in place with chat.update', async () => {
    const asked = request('#hcsm yesterday');
    const ts = '1700000200.000100';
    const before = h.slack.calls.length;
    await h.send(pressedUnder(actionIds.answerCompare, asked, ts));
    const update = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        call.args.ts === ts &&
        h.slack.calls.indexOf(call) >= before,
    );
    const compared = withPreviousPeriod(asked, {
      now: fixedNow,
      zone: asked.timezone,
    }) as LookupRequest;
    expect(update.args.channel).toBe('D0DIRECT01');
    expect(answerOf(update)).toEqual(await expectedAnswer(h, compared, { shareable: false }));
  });
});

describe('ranking metric', () => {
  it('sends metric=<chosen>,<the others> and answers ranked by it', async () => {
    const text = '#hcsm last week by impressions';
    const before = h.sandbox.log.length;
    const command = slashCommand({ text });
    await h.send(command);
    const answer = await finalResponse(h, command.responseUrl);
    expect(
      dataRequests(h, before).map((record) => [record.query.metric, record.query.limit]),
    ).toEqual([['impressions,hsg_score,mentions,retweets,tweets,replies', '10']]);
    expect(answerOf(answer)).toEqual(await expectedAnswer(h, request(text), { shareable: true }));
  });

  it('ranks by the metric chosen in the Home tab form', async () => {
    const input = lookupModalInputs;
    const before = h.sandbox.log.length;
    const calls = h.slack.calls.length;
    await h.send(
      viewSubmission({
        callbackId: callbackIds.lookupModal,
        values: {
          [input.databases.blockId]: {
            [input.databases.actionId]: { type: 'plain_text_input', value: '#bcsm' },
          },
          [input.window.blockId]: {
            [input.window.actionId]: { type: 'plain_text_input', value: 'last month' },
          },
          [input.metric.blockId]: {
            [input.metric.actionId]: {
              type: 'static_select',
              selected_option: { value: 'retweets' },
            },
          },
        },
      }),
    );
    const update = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        call.args.channel === dmOf(userId) &&
        !/^Still looking up/.test(String(call.args.text)) &&
        h.slack.calls.indexOf(call) >= calls,
    );
    expect(dataRequests(h, before)[0]?.query.metric).toBe(
      'retweets,hsg_score,mentions,tweets,impressions,replies',
    );
    const asked = request('#bcsm last month by retweets');
    expect(answerOf(update)).toEqual(await expectedAnswer(h, asked, { shareable: false }));
  });
});

describe('table', () => {
  it('answers a count over 10 with a native table', async () => {
    const text = '#hcsm last week top 25';
    const command = slashCommand({ text });
    await h.send(command);
    const answer = await finalResponse(h, command.responseUrl);
    expect(blockTypes(answer)).toContain('data_table');
    expect(answerOf(answer)).toEqual(await expectedAnswer(h, request(text), { shareable: true }));
  });

  it('shows a DM answer as a table in place when its Table button is pressed', async () => {
    const asked = request('#bcsm last week');
    const ts = '1700000300.000100';
    await h.send(pressedUnder(actionIds.answerTable, asked, ts));
    const update = await h.slack.waitFor(
      (call) => call.method === 'chat.update' && call.args.ts === ts,
    );
    expect(blockTypes(update)).toContain('data_table');
    expect(answerOf(update)).toEqual(
      await expectedAnswer(h, asked, { shareable: false, presentation: 'table' }),
    );
  });
});

describe('chart', () => {
  it('answers a mention asking for a chart in its thread', async () => {
    const event = mentionEvent('#hcsm last week vs previous chart');
    await h.send(eventCallback({ event }));
    const update = await h.slack.waitFor(
      (call) => call.method === 'chat.update' && blockTypes(call).includes('data_visualization'),
    );
    expect(update.args.channel).toBe('C0CHANNEL1');
    const asked = request('#hcsm last week vs previous chart');
    expect(answerOf(update)).toEqual(await expectedAnswer(h, asked, { shareable: false }));
  });

  it('shows a shared answer as a chart in place, still saying who shared it', async () => {
    const asked = request('#hcsm past 48 hours');
    const ts = '1700000400.000100';
    const shared = renderShared(renderAnswer(asked, { influencers: [] }), 'U0SHARER1');
    await h.send(
      pressedUnder(actionIds.answerChart, asked, ts, { channel: 'C0CHANNEL1', text: shared.text }),
    );
    const update = await h.slack.waitFor(
      (call) => call.method === 'chat.update' && call.args.ts === ts,
    );
    expect(blockTypes(update)).toContain('data_visualization');
    const expected = await expectedAnswer(h, asked, { shareable: false, presentation: 'chart' });
    expect(answerOf(update)).toEqual(renderShared(expected, 'U0SHARER1'));
  });
});

describe('an unreadable button', () => {
  it('tells the person who pressed it, and leaves the answer alone', async () => {
    const action = blockAction({ actionId: actionIds.answerTable, value: '{"v":99}' });
    await h.send(action);
    const told = await h.slack.waitForResponse(action.responseUrl, 1);
    expect(told.args).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  });
});

/** A cell of a data_table row as Slack receives it. */
interface TableCell {
  readonly type: string;
  readonly text?: string;
  readonly value?: number;
}

/** What a table cell says: its text, or its number written out in full. */
function cellText(cell: TableCell): string {
  return cell.type === 'raw_number' ? String(cell.value) : String(cell.text);
}

/** A formula a spreadsheet would run, as a stranger on social media may call themselves. */
const formulaName = '=HYPERLINK("https://evil.example","Dr Click")';

/**
 * The sandbox's answers through the real client, with the second person renamed to a formula:
 * the sandbox has no such name, so the test makes one.
 */
function withFormulaName(client: AnalyticsClient): AnalyticsApi & { close(): Promise<void> } {
  return {
    async getInfluencers(query, options) {
      const result: InfluencersResult = await client.getInfluencers(query, options);
      return {
        influencers: result.influencers.map((influencer, index) =>
          index === 1 ? { ...influencer, displayName: formulaName } : influencer,
        ),
      };
    },
    close: () => client.close(),
  };
}

describe('CSV export', () => {
  let x: Harness;
  let client: AnalyticsClient;

  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', now });
    client = new AnalyticsClient({
      baseUrl: sandbox.url,
      clientId: demoClient.id,
      clientSecret: demoClient.secret,
    });
    x = await startHarness({
      env: { LOOKUP_TIMEOUT_MS: '10000' },
      sharedSandbox: sandbox,
      overrides: { now, analytics: withFormulaName(client) },
    });
  });

  afterAll(async () => {
    await x?.close();
    await client?.close();
    await sandbox?.close();
  });

  /** What the app's analytics answer for a request, formula name included. */
  async function ranking(asked: LookupRequest): Promise<InfluencersResult> {
    return withFormulaName(client).getInfluencers(toQuery(asked));
  }

  it('uploads the ranking a command asks to export into the DM, readable back as the rows shown', async () => {
    const text = '#hcsm last week top 20 export';
    const asked = request(text);
    const command = slashCommand({ text });
    await x.send(command);
    const answer = await finalResponse(x, command.responseUrl);
    await x.slack.waitFor((call) => call.method === 'files.completeUploadExternal');

    expect(x.slack.api('conversations.open')[0]?.args.users).toBe(userId);
    const [file] = x.slack.files();
    expect(file?.channel).toBe(`D${userId.slice(1)}`);
    expect(file?.threadTs).toBeUndefined();
    const result = await ranking(asked);
    const csv = renderCsv(asked, result);
    expect(file?.filename).toBe(csv.filename);
    expect(file?.comment).toBe(csv.comment);
    expect([...(file?.bytes.subarray(0, 3) ?? [])]).toEqual([0xef, 0xbb, 0xbf]);

    expect(answerOf(answer)).toEqual(
      renderAnswer(shownInMessage(asked), result, { shareable: true, actions: true }),
    );
    const [header = [], ...rows] = parseCsv(file?.bytes.toString('utf8') ?? '');
    expect(header.slice(0, 3)).toEqual(['Rank', 'Display name', 'Handle']);
    // The rows shown: the answer's table, rank, name and handle of each person, in order.
    const table = (answer.args.blocks as { type: string; rows?: TableCell[][] }[]).find(
      (block) => block.type === 'data_table',
    );
    const shown = (table?.rows ?? []).slice(1).map((cells) => cells.slice(0, 3).map(cellText));
    expect(shown).toHaveLength(20);
    // The table shortens long names ("Dr C…"); the file has them whole.
    const asShown = (name = '', width = 0) =>
      width > 0 && name.length > width ? `${name.slice(0, width - 1)}…` : name;
    expect(
      rows.map(([rank, name, handle], index) => [
        rank,
        asShown(
          index === 1 ? name?.slice(1) : name,
          shown[index]?.[1]?.endsWith('…') ? shown[index]?.[1]?.length : 0,
        ),
        `@${handle}`,
      ]),
    ).toEqual(shown);
    // The formula a stranger chose as a name arrives as text: a quote before it.
    expect(rows[1]?.[1]).toBe(`'${formulaName}`);
  });

  it('exports from the button under a shared answer into its thread', async () => {
    const asked = request('#bcsm last week');
    const ts = '1700000500.000100';
    const uploads = x.slack.files().length;
    await x.send(pressedUnder(actionIds.answerExport, asked, ts, { channel: 'C0CHANNEL1' }));
    await x.slack.waitFor(() => x.slack.files().length > uploads);
    const file = x.slack.files().at(-1);
    expect(file).toMatchObject({ channel: 'C0CHANNEL1', threadTs: ts });
    const whole = { ...asked, top: 500, export: true };
    expect(file?.bytes.toString('utf8')).toBe(renderCsv(whole, await ranking(whole)).content);
  });

  it('exports from the button under an ephemeral answer into the DM', async () => {
    const asked = request('#hcsm yesterday');
    const uploads = x.slack.files().length;
    await x.send(blockAction({ actionId: actionIds.answerExport, value: encodeShareValue(asked) }));
    await x.slack.waitFor(() => x.slack.files().length > uploads);
    expect(x.slack.files().at(-1)?.channel).toBe(`D${userId.slice(1)}`);
  });

  it('sends the export of a DM lookup into that DM, after the answer', async () => {
    const uploads = x.slack.files().length;
    await x.send(eventCallback({ event: directMessageEvent('#bcsm yesterday csv') }));
    await x.slack.waitFor(() => x.slack.files().length > uploads);
    expect(x.slack.files().at(-1)?.channel).toBe('D0DIRECT01');
    const update = x.slack.api('chat.update').at(-1);
    expect(update?.args.channel).toBe('D0DIRECT01');
  });

  // Last: the fake Slack refuses uploads from here on.
  it('tells the person why, when the app was installed without the upload scope', async () => {
    x.slack.override('files.getUploadURLExternal', () => ({
      ok: false,
      error: 'missing_scope',
      needed: 'files:write',
    }));
    const asked = request('#hcsm last week');
    const action = blockAction({
      actionId: actionIds.answerExport,
      value: encodeShareValue(asked),
    });
    await x.send(action);
    const told = await x.slack.waitForResponse(action.responseUrl, 1);
    expect(told.args).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: errorText(new ExportFailedError('missing_scope')),
    });
  });
});
