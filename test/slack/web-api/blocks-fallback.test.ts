/**
 * Every send that may carry a table or a chart, refused by a Slack that does not accept them yet:
 * sent again without them (then without pictures), and the refusal logged once per process.
 */
import type { HomeView, KnownBlock } from '@slack/types';
import { WebClient } from '@slack/web-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InfluencersResult } from '../../../src/analytics/types.ts';
import { createLogger } from '../../../src/logger.ts';
import type { LookupRequest } from '../../../src/model/lookup.ts';
import type { SlackMessage } from '../../../src/model/message.ts';
import { section, withoutImages, withoutNewBlocks } from '../../../src/render/blocks.ts';
import { renderAnswer } from '../../../src/render/lookups/answer.ts';
import {
  blocksFallbackPoster,
  forgetNewBlocksRefusal,
  withBlocksFallback,
} from '../../../src/slack/web-api/blocks-fallback.ts';
import { singleAttemptClientOptions } from '../../../src/slack/web-api/client.ts';
import {
  postInConversation,
  updateInConversation,
} from '../../../src/slack/web-api/conversation.ts';
import { publishView } from '../../../src/slack/web-api/home.ts';
import { backgroundWebClient, SlackDigestPoster } from '../../../src/slack/web-api/poster.ts';
import { ResponseUrl } from '../../../src/slack/web-api/response-url.ts';
import { FakeSlack, type SlackCall } from '../../helpers/fake-slack.ts';

const request: LookupRequest = {
  databases: ['#hcsm'],
  start: '2026-11-09T00:00:00+00:00',
  end: '2026-11-16T00:00:00+00:00',
  timezone: 'UTC',
  top: 3,
  presentation: 'table',
};

const result: InfluencersResult = {
  influencers: ['DrJane', 'NurseSam', 'PatientPat'].map((screenName, i) => ({
    rank: i + 1,
    screenName,
    displayName: screenName.replace(/([a-z])([A-Z])/g, '$1 $2'),
    stakeholderCategories: [{ name: 'Doctor' }],
    metrics: { mentions: 90 - i * 20, impressions: 9000 - i * 1000 },
  })),
};

/** A table answer with a picture beside it: all three versions differ. */
const table = renderAnswer(request, result, { actions: true });
const message: SlackMessage = {
  text: table.text,
  blocks: [
    ...table.blocks,
    section('*1. Dr Jane*', {
      type: 'image',
      image_url: 'https://pictures.example/jane.png',
      alt_text: 'Dr Jane',
    }),
  ],
};
const withoutTable = withoutNewBlocks(message);
const plain = withoutImages(withoutTable);

function memoryLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => lines.push(line) },
  });
  const refusals = () =>
    lines.filter((line) =>
      line.includes('Slack refused the table/chart blocks; sending without them'),
    );
  return { logger, refusals };
}

const blocksOf = (call: SlackCall | undefined) =>
  (call?.args.blocks ??
    (call?.args.view as { blocks?: unknown } | undefined)?.blocks) as KnownBlock[];

beforeAll(forgetNewBlocksRefusal);

function webClient(slack: FakeSlack): WebClient {
  return new WebClient('xoxb-fallback', singleAttemptClientOptions({ fetch: slack.fetch }));
}

describe('the message the fallback sends', () => {
  it('is a real table answer, with the table in place of the blocks Slack refuses', () => {
    expect(message.blocks.some((block) => block.type === 'data_table')).toBe(true);
    expect(withoutTable.blocks.some((block) => (block.type as string) === 'data_table')).toBe(
      false,
    );
    expect(withoutTable).not.toBe(message);
    expect(plain).not.toBe(withoutTable);
  });
});

describe('withBlocksFallback', () => {
  it('logs the refused table once per process, however many messages Slack refuses', async () => {
    const { logger, refusals } = memoryLogger();
    for (let i = 0; i < 3; i++) {
      const sent: SlackMessage[] = [];
      await withBlocksFallback(
        message,
        async (attempt) => {
          sent.push(attempt);
          if (attempt === message)
            throw Object.assign(new Error('invalid_blocks'), {
              code: 'slack_webapi_platform_error',
              data: { ok: false, error: 'invalid_blocks' },
            });
          return 'sent';
        },
        logger,
      );
      expect(sent).toEqual([message, withoutTable]);
    }
    expect(refusals()).toHaveLength(1);
  });
});

describe('chat.postMessage', () => {
  it('posts again without the table, then without pictures, while Slack refuses', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    slack.refuseImages = true;
    expect(
      await postInConversation(webClient(slack), { channel: 'D0DM00001' }, message),
    ).toMatchObject({
      ts: expect.any(String),
    });
    expect(slack.api('chat.postMessage').map(blocksOf)).toEqual([
      message.blocks,
      withoutTable.blocks,
      plain.blocks,
    ]);
  });

  it('sends the message as it is where Slack takes tables', async () => {
    const slack = new FakeSlack();
    await postInConversation(webClient(slack), { channel: 'D0DM00001' }, message);
    expect(slack.api('chat.postMessage').map(blocksOf)).toEqual([message.blocks]);
  });
});

describe('chat.update', () => {
  it('updates again without the table when Slack refuses it', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    await updateInConversation(
      webClient(slack),
      { channel: 'C0CHANNEL1' },
      '1700000000.000100',
      message,
    );
    expect(slack.api('chat.update').map(blocksOf)).toEqual([message.blocks, withoutTable.blocks]);
  });
});

describe('response_url', () => {
  it('posts again without the table when Slack answers an error status', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    const url = 'https://hooks.slack.test/commands/T1/2/table';
    const reply = new ResponseUrl(url, slack.fetch, memoryLogger().logger);
    expect(
      await reply.send({ response_type: 'ephemeral', replace_original: true, ...message }),
    ).toBe(true);
    expect(slack.responses(url).map(blocksOf)).toEqual([message.blocks, withoutTable.blocks]);
    expect(slack.responses(url)[1]?.args).toMatchObject({
      response_type: 'ephemeral',
      replace_original: true,
    });
  });

  it('leaves out the pictures too when Slack still refuses', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    slack.refuseImages = true;
    const url = 'https://hooks.slack.test/commands/T1/3/both';
    const reply = new ResponseUrl(url, slack.fetch, memoryLogger().logger);
    expect(await reply.send(message)).toBe(true);
    expect(slack.responses(url).map(blocksOf)).toEqual([
      message.blocks,
      withoutTable.blocks,
      plain.blocks,
    ]);
  });

  it('does not post again to a used-up URL', async () => {
    const posted: string[] = [];
    const reply = new ResponseUrl(
      'https://hooks.slack.test/gone',
      async (_input, init) => {
        posted.push(String(init?.body));
        return new Response('used_url', { status: 404 });
      },
      memoryLogger().logger,
    );
    expect(await reply.send(message)).toBe(false);
    expect(posted).toHaveLength(1);
  });
});

describe('views.publish', () => {
  it('publishes the Home tab again without the table when Slack refuses it', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    const view: HomeView = { type: 'home', blocks: table.blocks };
    await publishView(webClient(slack), 'U0PERSON1', view, memoryLogger().logger);
    expect(slack.api('views.publish').map(blocksOf)).toEqual([
      table.blocks,
      withoutNewBlocks(table).blocks,
    ]);
  });
});

describe('digest posts', () => {
  it('post again without the table, then without pictures', async () => {
    const slack = new FakeSlack();
    slack.refuseNewBlocks = true;
    slack.refuseImages = true;
    const poster = blocksFallbackPoster(
      new SlackDigestPoster({
        client: backgroundWebClient({ token: 'xoxb-poster', fetch: slack.fetch }),
      }),
    );
    expect(await poster.post('C0PUBLIC1', message)).toEqual({ ts: expect.any(String) });
    expect(slack.api('chat.postMessage').map(blocksOf)).toEqual([
      message.blocks,
      withoutTable.blocks,
      plain.blocks,
    ]);
  });
});
