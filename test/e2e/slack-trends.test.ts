/**
 * Trends and one person's answer over signed HTTP, the app started for real against the sandbox
 * (whose people carry categories and follower counts) and Slack faked through the `fetch` Bolt is
 * given: the slash command's trend with its table and chart, its CSV file, Share in channel, the
 * fallback where Slack refuses the new blocks, and a person asked about in a DM.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/core/core.ts';
import { type LookupFlow, shownInMessage } from '../../src/flows/lookup/index.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { withoutNewBlocks } from '../../src/render/blocks.ts';
import { actionIds } from '../../src/render/ids.ts';
import { encodeShareValue, renderShared } from '../../src/render/lookups/answer.ts';
import { renderPerson } from '../../src/render/lookups/person.ts';
import { renderTrend } from '../../src/render/lookups/trend.ts';
import { renderTrendCsv } from '../../src/render/lookups/trend-csv.ts';
import { testCore } from '../helpers/core.ts';
import { parseCsv } from '../helpers/csv.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { finalResponse, now, request } from '../helpers/lookups.ts';
import {
  blockAction,
  directMessageEvent,
  eventCallback,
  slashCommand,
  userId,
} from '../helpers/payloads.ts';

let h: Harness;
let core: Core;
/** The lookup flow at the app's clock on a client of the test's own: what the app should answer. */
let flow: LookupFlow;

beforeAll(async () => {
  h = await startHarness({
    env: { LOOKUP_TIMEOUT_MS: '10000', PROGRESS_UPDATE_MS: '9000' },
    sandbox: { now },
    overrides: { now },
  });
  core = testCore({
    sandboxUrl: h.sandbox.url,
    lookup: { progressUpdateMs: 10_000, timeoutMs: 10_000 },
    now,
  });
  flow = core.lookup;
});

afterAll(async () => {
  await core?.close(1_000);
  await h?.close();
});

function answerOf(call: SlackCall): SlackMessage {
  return { text: String(call.args.text), blocks: call.args.blocks as SlackMessage['blocks'] };
}

const dataRequests = (from: number) =>
  h.sandbox.log.slice(from).filter((record) => record.endpoint === 'data');

async function expectedTrend(asked: LookupRequest): Promise<SlackMessage> {
  return renderTrend(shownInMessage(asked), await flow.trendRankings(asked), {
    shareable: true,
    actions: true,
  });
}

describe('a trend', () => {
  it('answers /influencers #hcsm last 8 weeks weekly with ranks over time and a line chart', async () => {
    const text = '#hcsm last 8 weeks weekly';
    const asked = request(text);
    const before = h.sandbox.log.length;
    const command = slashCommand({ text });
    expect((await h.send(command)).status).toBe(200);
    const answer = await finalResponse(h, command.responseUrl);

    const weeks = dataRequests(before);
    expect(weeks).toHaveLength(8);
    expect(new Set(weeks.map((record) => record.query.limit))).toEqual(new Set(['500']));
    expect(answerOf(answer)).toEqual(await expectedTrend(asked));
    const types = answerOf(answer).blocks.map((block) => block.type);
    expect(types).toContain('data_table');
    expect(types).toContain('data_visualization');
    // People carry their categories: the answer says who the top 10 are.
    expect(JSON.stringify(answer.args.blocks)).toMatch(/Who: \w/);
  });

  it('sends every week and person of the trend as a CSV file to the DM', async () => {
    const text = '#hcsm last 4 weeks weekly export';
    const asked = request(text);
    const uploads = h.slack.files().length;
    await h.send(slashCommand({ text }));
    await h.slack.waitFor(() => h.slack.files().length > uploads);
    const file = h.slack.files().at(-1);
    expect(file?.channel).toBe(`D${userId.slice(1)}`);
    const expected = renderTrendCsv(asked, await flow.trendRankings(asked));
    expect(file?.filename).toBe(expected.filename);
    expect(file?.bytes.toString('utf8')).toBe(expected.content);
    const [header = [], ...rows] = parseCsv(expected.content);
    expect(header.slice(0, 4)).toEqual(['Period start', 'Period end', 'Partial', 'Rank']);
    expect(rows.length % 4).toBe(0);
    expect(rows.filter((row) => row[2] === 'yes')).toHaveLength(rows.length / 4);
  });

  it('is shared in the channel as the same trend', async () => {
    const asked = request('#hcsm last 4 weeks weekly');
    const action = blockAction({
      actionId: actionIds.shareAnswer,
      value: encodeShareValue(asked),
    });
    await h.send(action);
    const shared = await h.slack.waitFor(
      (call) => call.url === action.responseUrl && call.args.response_type === 'in_channel',
    );
    const trend = renderTrend(asked, await flow.trendRankings(asked), { actions: true });
    expect(answerOf(shared)).toEqual(renderShared(trend, userId));
  });

  it('comes without its table and chart where Slack refuses them, ranks and sparklines instead', async () => {
    h.slack.refuseNewBlocks = true;
    try {
      const text = '#bcsm last 6 weeks weekly';
      const command = slashCommand({ text });
      await h.send(command);
      const second = await h.slack.waitForResponse(command.responseUrl, 2);
      const expected = await expectedTrend(request(text));
      expect(answerOf(second)).toEqual(withoutNewBlocks(expected));
      expect(JSON.stringify(second.args.blocks)).toMatch(/```\\n\s+\w{3} \d+ → \w{3} \d+/);
    } finally {
      h.slack.refuseNewBlocks = false;
    }
  });
});

describe('one person', () => {
  it('answers a DM asking how someone did in #hcsm last month, with their weeks', async () => {
    const month = request('#hcsm last month');
    const third = (await flow.result({ ...month, top: 3 })).influencers[2]?.screenName ?? '';
    expect(third).not.toBe('');
    const text = `how did @${third} do in #hcsm last month?`;
    const before = h.slack.calls.length;
    const asked = await h.send(eventCallback({ event: directMessageEvent(text) }));
    expect(asked.status).toBe(200);
    const update = await h.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        call.args.channel === 'D0DIRECT01' &&
        h.slack.calls.indexOf(call) >= before,
    );
    const person = request(`@${third} in #hcsm last month`);
    expect(person).toEqual({
      ...request('#hcsm last month vs previous period'),
      person: third,
    });
    const expected = renderPerson(person, await flow.personRankings(person), {
      shareable: false,
      actions: true,
    });
    expect(answerOf(update)).toEqual(expected);
    expect(update.args.text).toMatch(
      new RegExp(`^@${third} in #hcsm, Oct 1–Oct 31: #3 of the top 500 by mentions`),
    );
    const post = h.slack.calls.slice(before).find((call) => call.method === 'chat.postMessage');
    expect(post?.args.text).toMatch(new RegExp(`^Looking up @${third} in #hcsm, Oct 1 – Oct 31`));
  });
});
