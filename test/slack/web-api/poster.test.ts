import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { classifyFailure, mayHavePosted } from '../../../src/digests/failures.ts';
import {
  ChannelUnreachableError,
  ConfigError,
  SlackBlocksRefusedError,
  SlackRateLimitedError,
  SlackTokenRejectedError,
} from '../../../src/errors.ts';
import {
  backgroundWebClient,
  SlackDigestPoster,
  toDigestError,
} from '../../../src/slack/web-api/poster.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const message = { text: 'Weekly digest', blocks: [] };

function platformError(error: string) {
  return { code: 'slack_webapi_platform_error', data: { ok: false, error } };
}

function poster(slack: FakeSlack, sleeps: number[] = []) {
  return new SlackDigestPoster({
    client: backgroundWebClient({ token: 'xoxb-poster', fetch: slack.fetch }),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

describe('toDigestError', () => {
  it.each([
    ['not_in_channel', 'not_in_channel'],
    ['channel_not_found', 'not_found'],
    ['is_archived', 'archived'],
    ['restricted_action', 'restricted'],
    ['method_not_supported_for_channel_type', 'not_in_channel'],
  ] as const)('reads %s as a channel the bot cannot post in (%s)', (error, problem) => {
    const mapped = toDigestError('C1', platformError(error));
    expect(mapped).toBeInstanceOf(ChannelUnreachableError);
    expect(mapped).toMatchObject({ channelId: 'C1', problem });
    expect(classifyFailure(mapped)).toEqual({
      kind: 'permanent',
      code: 'channel_unreachable',
      channelProblem: problem,
    });
  });

  it.each(['invalid_auth', 'account_inactive', 'token_revoked'])(
    'reads %s as a configuration problem no retry fixes',
    (error) => {
      const mapped = toDigestError('C1', platformError(error));
      expect(mapped).toBeInstanceOf(ConfigError);
      expect((mapped as ConfigError).problems).toEqual([
        `Slack refused the bot token (${error}): reinstall the app from manifest.yml or update SLACK_BOT_TOKEN.`,
      ]);
      expect(classifyFailure(mapped).kind).toBe('permanent');
    },
  );

  it('says which token error Slack gave, and keeps it as the cause', () => {
    const slackError = platformError('token_revoked');
    const mapped = toDigestError('C1', slackError);
    expect(mapped).toBeInstanceOf(SlackTokenRejectedError);
    expect(mapped).toMatchObject({ code: 'config_invalid', reason: 'token_revoked' });
    expect((mapped as SlackTokenRejectedError).cause).toBe(slackError);
  });

  it('keeps Retry-After of a 429 in milliseconds, as Slack rate limiting', () => {
    const mapped = toDigestError('C1', {
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 7,
    });
    expect(mapped).toBeInstanceOf(SlackRateLimitedError);
    expect(classifyFailure(mapped)).toEqual({
      kind: 'transient',
      code: 'slack_rate_limited',
      retryAfterMs: 7_000,
    });
  });

  it('names the block Slack refused, from the pointer into the blocks sent', () => {
    const refused = {
      ...platformError('invalid_blocks'),
      data: {
        ok: false,
        error: 'invalid_blocks',
        response_metadata: {
          messages: ['[ERROR] failed to match all allowed schemas [json-pointer:/blocks/1]'],
        },
      },
    };
    const sent = {
      text: 'x',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x' } }, { type: 'divider' }],
    } as const;
    const mapped = toDigestError('C1', refused, { ...sent, blocks: [...sent.blocks] });
    expect(mapped).toBeInstanceOf(SlackBlocksRefusedError);
    expect(classifyFailure(mapped)).toEqual({
      kind: 'permanent',
      code: 'slack_blocks_refused',
      blockType: 'divider',
    });
    expect(mayHavePosted(mapped)).toBe(false);
  });

  it('turns any other Slack failure into a SlackCallError and hands other errors back unchanged', () => {
    const other = platformError('internal_error');
    expect(toDigestError('C1', other)).toMatchObject({
      code: 'slack_call_failed',
      reason: 'internal_error',
      transient: true,
      mayHaveActed: true,
      cause: other,
    });
    const network = new Error('socket hang up');
    expect(toDigestError('C1', network)).toBe(network);
  });
});

describe('SlackDigestPoster', () => {
  it('posts with the message text, blocks and no unfurls, and returns the ts', async () => {
    const slack = new FakeSlack();
    const { ts } = await poster(slack).post('C0PUBLIC1', message);
    const [call] = slack.api('chat.postMessage');
    expect(call?.args).toMatchObject({
      channel: 'C0PUBLIC1',
      text: 'Weekly digest',
      unfurl_links: 'false',
      unfurl_media: 'false',
    });
    expect(ts).toMatch(/^\d+\.\d+$/);
    expect(call?.authorization).toBe('Bearer xoxb-poster');
  });

  it('joins a public channel it is not in, then posts once more', async () => {
    const slack = new FakeSlack();
    let joined = false;
    slack.override('conversations.join', () => {
      joined = true;
      return { ok: true };
    });
    slack.override('chat.postMessage', () =>
      joined ? { ok: true, ts: '1800000000.000100' } : { ok: false, error: 'not_in_channel' },
    );
    expect(await poster(slack).post('C0PUBLIC1', message)).toEqual({ ts: '1800000000.000100' });
    expect(slack.summary()).toBe('chat.postMessage, conversations.join, chat.postMessage');
  });

  it('says to invite it when the channel cannot be joined (a private channel)', async () => {
    const slack = new FakeSlack();
    slack.override('chat.postMessage', () => ({ ok: false, error: 'not_in_channel' }));
    slack.override('conversations.join', () => ({
      ok: false,
      error: 'method_not_supported_for_channel_type',
    }));
    const failure = poster(slack).post('C0PRIVATE1', message);
    await expect(failure).rejects.toBeInstanceOf(ChannelUnreachableError);
    await expect(failure).rejects.toMatchObject({ problem: 'not_in_channel' });
    expect(slack.api('chat.postMessage')).toHaveLength(1);
  });

  it('does not join for an archived channel', async () => {
    const slack = new FakeSlack();
    slack.override('chat.postMessage', () => ({ ok: false, error: 'is_archived' }));
    await expect(poster(slack).post('C0OLD0001', message)).rejects.toMatchObject({
      problem: 'archived',
    });
    expect(slack.api('conversations.join')).toHaveLength(0);
  });

  it('sends a digest once when Slack does not answer in time, since it may have posted it', async () => {
    let calls = 0;
    const silent: typeof fetch = async (_input, init) => {
      calls += 1;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    };
    const slow = new SlackDigestPoster({
      client: backgroundWebClient({ token: 'xoxb-poster', fetch: silent, timeoutMs: 30 }),
    });
    const failure = slow.post('C0PUBLIC1', message);
    await expect(failure).rejects.toMatchObject({
      code: 'slack_call_failed',
      cause: { code: 'slack_webapi_request_error' },
    });
    expect(mayHavePosted(await failure.catch((error: unknown) => error))).toBe(true);
    expect(calls).toBe(1);
  });

  it.each([500, 502, 503])('sends a digest once when Slack answers %i', async (status) => {
    const slack = new FakeSlack();
    let calls = 0;
    const failing: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.endsWith('chat.postMessage')) return slack.fetch(input, init);
      calls += 1;
      return new Response('upstream error', { status });
    };
    const failure = new SlackDigestPoster({
      client: backgroundWebClient({ token: 'xoxb-poster', fetch: failing }),
    }).post('C0PUBLIC1', message);
    await expect(failure).rejects.toMatchObject({
      code: 'slack_call_failed',
      cause: { code: 'slack_webapi_http_error' },
    });
    expect(mayHavePosted(await failure.catch((error: unknown) => error))).toBe(true);
    expect(calls).toBe(1);
  });

  it('still retries conversations.join, which is safe to repeat', async () => {
    const slack = new FakeSlack();
    let joins = 0;
    slack.override('conversations.join', () => ({ ok: true }));
    slack.override('chat.postMessage', () =>
      joins >= 2 ? { ok: true, ts: '1800000000.000200' } : { ok: false, error: 'not_in_channel' },
    );
    const flaky: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('conversations.join')) {
        joins += 1;
        if (joins === 1) return new Response('upstream error', { status: 503 });
      }
      return slack.fetch(input, init);
    };
    const joining = new SlackDigestPoster({
      client: backgroundWebClient({ token: 'xoxb-poster', fetch: flaky }),
    });
    expect(await joining.post('C0PUBLIC1', message)).toEqual({ ts: '1800000000.000200' });
    expect(joins).toBe(2);
    expect(slack.api('chat.postMessage')).toHaveLength(2);
  });

  it('hands blocks Slack does not accept yet back as a refusal naming them, for the fallback', async () => {
    const slack = new FakeSlack();
    slack.override('chat.postMessage', () => ({
      ok: false,
      error: 'invalid_blocks',
      response_metadata: { messages: ['[ERROR] unsupported type: data_table'] },
    }));
    const table = { type: 'data_table' } as unknown as KnownBlock;
    const section: KnownBlock = { type: 'section', text: { type: 'mrkdwn', text: 'ranking' } };
    const rich = { text: 'Weekly digest', blocks: [section, table] };
    await expect(poster(slack).post('C0PUBLIC1', rich)).rejects.toMatchObject({
      code: 'slack_blocks_refused',
      blockType: 'data_table',
    });
    expect(slack.api('chat.postMessage')).toHaveLength(1);
  });

  it('names the refused block when the message has nothing it could leave out', async () => {
    const slack = new FakeSlack();
    slack.override('chat.postMessage', () => ({
      ok: false,
      error: 'invalid_blocks',
      response_metadata: { messages: ['[ERROR] invalid block [json-pointer:/blocks/0/text]'] },
    }));
    const plain = {
      text: 'Weekly digest',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ranking' } } as KnownBlock],
    };
    await expect(poster(slack).post('C0PUBLIC1', plain)).rejects.toMatchObject({
      code: 'slack_blocks_refused',
      blockType: 'section',
    });
    expect(slack.api('chat.postMessage')).toHaveLength(1);
  });

  it('tells only the creators Slack calls admins or owners about an outage, each by DM', async () => {
    const slack = new FakeSlack();
    slack.override('users.info', (args) => ({
      ok: true,
      user: { id: args.user, is_admin: args.user === 'U0ADMIN', is_owner: args.user === 'U0OWNER' },
    }));
    await poster(slack).notifyAdmins(['U0ADMIN', 'U0PLAIN', 'U0OWNER'], message);
    expect(slack.api('chat.postMessage').map((call) => call.args.channel)).toEqual([
      'U0ADMIN',
      'U0OWNER',
    ]);
  });

  it('still tells the other admins when one DM is refused', async () => {
    const slack = new FakeSlack();
    slack.override('users.info', (args) => ({ ok: true, user: { id: args.user, is_admin: true } }));
    slack.override('chat.postMessage', (args) =>
      args.channel === 'U0GONE'
        ? { ok: false, error: 'channel_not_found' }
        : { ok: true, channel: args.channel, ts: '1.2' },
    );
    await poster(slack).notifyAdmins(['U0GONE', 'U0ADMIN'], message);
    expect(slack.api('chat.postMessage').map((call) => call.args.channel)).toEqual([
      'U0GONE',
      'U0ADMIN',
    ]);
  });

  it('sends the pause notice to the creator’s DM, waiting out one rate limit', async () => {
    const slack = new FakeSlack();
    let calls = 0;
    const sleeps: number[] = [];
    const rateLimitedFetch: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls === 1) return new Response('', { status: 429, headers: { 'retry-after': '2' } });
      return slack.fetch(input, init);
    };
    const dm = new SlackDigestPoster({
      client: backgroundWebClient({ token: 'xoxb-poster', fetch: rateLimitedFetch }),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await dm.notifyCreator('U0CREATOR', message);
    expect(sleeps).toEqual([2_000]);
    expect(slack.api('chat.postMessage').map((call) => call.args.channel)).toEqual(['U0CREATOR']);
  });
});
