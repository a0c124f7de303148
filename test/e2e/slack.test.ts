import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  CredentialsRejectedError,
  InvalidResponseError,
  type ParseError,
  RateLimitedError,
  ServiceUnavailableError,
  TeamNotAllowedError,
  UnknownDatabaseError,
} from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { errorText, renderError } from '../../src/render/errors.ts';
import { actionIds, callbackIds, lookupModalInputs } from '../../src/render/ids.ts';
import { encodeShareValue } from '../../src/render/lookups/answer.ts';
import {
  digestInConversationHint,
  digestVerbHint,
  renderHelp,
} from '../../src/render/lookups/help.ts';
import {
  renderPending,
  renderStoppedByRestart,
  renderTimedOut,
  utcFallbackNote,
} from '../../src/render/lookups/status.ts';
import {
  lookupModalUnavailableText,
  modalErrors,
  renderRefusedHome,
} from '../../src/render/management/home.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import { dmOf, type SlackCall } from '../helpers/fake-slack.ts';
import { botToken, type Harness, signingSecret, startHarness } from '../helpers/harness.ts';
import {
  finalResponse,
  fixedNow,
  now,
  request,
  startLookupHarness,
  userZone,
} from '../helpers/lookups.ts';
import {
  blockAction,
  directMessageEvent,
  eventCallback,
  homeOpenedEvent,
  mentionEvent,
  otherTeamId,
  slashCommand,
  teamId,
  userId,
  viewSubmission,
} from '../helpers/payloads.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function headerOf(call: SlackCall): string | undefined {
  const blocks = call.args.blocks as { type: string; text?: { text: string } }[] | undefined;
  return blocks?.find((block) => block.type === 'header')?.text?.text;
}

function actionIdsOf(call: SlackCall): string[] {
  const blocks = (call.args.blocks ?? []) as {
    type: string;
    elements?: { action_id?: string }[];
  }[];
  return blocks.flatMap((block) =>
    block.type === 'actions' ? (block.elements ?? []).map((e) => e.action_id ?? '') : [],
  );
}

/** The buttons under every answer; only an ephemeral one adds Share in channel. */
const askAgain = [
  actionIds.answerCompare,
  actionIds.answerTable,
  actionIds.answerChart,
  actionIds.answerExport,
];

let harness: Harness;

beforeAll(async () => {
  harness = await startLookupHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('/influencers over HTTP', () => {
  it('acks with what is looked up, then replaces it with the answer through response_url', async () => {
    const command = slashCommand({ text: '#hcsm last week' });
    const ack = await harness.send(command);
    expect(ack.status).toBe(200);
    expect(ack.json).toEqual({
      response_type: 'ephemeral',
      ...renderPending(request('#hcsm last week'), { now: fixedNow }),
    });

    const answer = await finalResponse(harness, command.responseUrl);
    expect(answer.args.replace_original).toBe(true);
    expect(answer.args.response_type).toBe('ephemeral');
    expect(headerOf(answer)).toBe('Top influencers for #hcsm');
    expect(actionIdsOf(answer)).toEqual([...askAgain, actionIds.shareAnswer]);
    await harness.settled();
    expect(harness.slack.responses(command.responseUrl).length).toBeLessThanOrEqual(2);
    expect(harness.slack.api('users.info')[0]?.args.user).toBe(userId);
  });

  it.each([
    ['help', 'help'],
    ['empty text', ''],
    ['an unknown verb', 'version'],
    ['a greeting', 'hi'],
    ['another greeting', 'hello'],
    ['help with more words', 'Help me'],
    ['help before a lookup', 'help #hcsm'],
  ])('answers %s with the usage in the ack', async (_name, text) => {
    const command = slashCommand({ text });
    const ack = await harness.send(command);
    expect(ack.json).toEqual({
      response_type: 'ephemeral',
      ...renderHelp({ command: '/influencers' }),
    });
  });

  it.each([
    ['pause X', 'pause', 'X'],
    ['remove', 'remove', ''],
    ['delete 4', 'delete', '4'],
    ['run', 'run', ''],
    ['stop', 'stop', ''],
  ])(
    'answers %j, a digest verb without digest, with the usage and a hint',
    async (text, verb, rest) => {
      const before = harness.sandbox.log.length;
      const command = slashCommand({ text });
      const ack = await harness.send(command);
      expect(ack.json).toEqual({
        response_type: 'ephemeral',
        ...renderHelp({
          command: '/influencers',
          hint: digestVerbHint(verb, rest, '/influencers'),
        }),
      });
      await harness.settled();
      expect(harness.slack.responses(command.responseUrl)).toHaveLength(0);
      expect(
        harness.sandbox.log.slice(before).filter((entry) => entry.endpoint === 'data'),
      ).toEqual([]);
    },
  );

  it('answers a parse error in the ack itself', async () => {
    const parsed = parseLookup('last week', { now: fixedNow, zone: userZone }) as ParseError;
    expect(parsed).toBeInstanceOf(Error);
    const command = slashCommand({ text: 'last week' });
    const ack = await harness.send(command);
    expect(ack.json?.response_type).toBe('ephemeral');
    expect(ack.json?.text).toBe(errorText(parsed));
    await harness.settled();
    expect(harness.slack.responses(command.responseUrl)).toHaveLength(0);
  });

  const failures: [string, string, () => void, string][] = [
    [
      'an unknown database',
      '#nosuchdb last week',
      () => {},
      errorText(new UnknownDatabaseError('#nosuchdb')),
    ],
    [
      'a database the account may not read',
      '"breast cancer" last week',
      () => {},
      errorText(new AccessDeniedError('breast cancer')),
    ],
    [
      'rejected credentials',
      '#hcsm yesterday',
      () => {
        harness.sandbox.revokeAllTokens();
        harness.sandbox.script(
          { kind: 'revoked-token' },
          { kind: 'status', status: 401, endpoint: 'token' },
        );
      },
      errorText(new CredentialsRejectedError(401)),
    ],
    [
      'rate limiting',
      '#hcsm past 48 hours',
      () => harness.sandbox.script({ kind: 'status', status: 429, retryAfter: '3600' }),
      errorText(new RateLimitedError(3_600_000)),
    ],
    [
      'a service that stays unavailable',
      '#bcsm last week',
      () =>
        harness.sandbox.script(
          ...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })),
        ),
      errorText(new ServiceUnavailableError(503, 4)),
    ],
    [
      'an invalid response',
      '#bcsm yesterday',
      () => harness.sandbox.script({ kind: 'malformed-json' }),
      errorText(new InvalidResponseError(200, 'not JSON')),
    ],
  ];

  it.each(failures)('explains %s in the replaced message', async (_name, text, setup, expected) => {
    setup();
    const command = slashCommand({ text });
    const ack = await harness.send(command);
    expect(ack.status).toBe(200);
    const answer = await finalResponse(harness, command.responseUrl);
    expect(answer.args.text).toBe(expected);
    expect(answer.args.replace_original).toBe(true);
  });

  it('posts a shared answer in the channel and removes the ephemeral copy', async () => {
    const action = blockAction({
      actionId: actionIds.shareAnswer,
      value: encodeShareValue(request('#hcsm last week')),
    });
    const ack = await harness.send(action);
    expect(ack.status).toBe(200);
    const shared = await harness.slack.waitForResponse(action.responseUrl, 1);
    expect(shared.args.response_type).toBe('in_channel');
    expect(shared.args.replace_original).toBe(false);
    expect(headerOf(shared)).toBe('Top influencers for #hcsm');
    expect(actionIdsOf(shared)).toEqual(askAgain);
    expect(String(shared.args.text)).toMatch(new RegExp(`^<@${userId}> shared: `));
    const removed = await harness.slack.waitForResponse(action.responseUrl, 2);
    expect(removed.args).toEqual({ delete_original: true });
  });

  it('says once that a slow lookup is still running, then answers', async () => {
    harness.sandbox.setLatency(1_200);
    try {
      const command = slashCommand({ text: '#quiet last week' });
      await harness.send(command);
      const progress = await harness.slack.waitForResponse(command.responseUrl, 1);
      expect(String(progress.args.text)).toMatch(/^Still looking up top influencers for #quiet/);
      const answer = await harness.slack.waitForResponse(command.responseUrl, 2);
      expect(headerOf(answer)).toBe('Top influencers for #quiet');
      await harness.settled();
      expect(harness.slack.responses(command.responseUrl)).toHaveLength(2);
    } finally {
      harness.sandbox.setLatency(0);
    }
  });
});

describe('direct messages and mentions', () => {
  it('answers a DM by posting what is looked up and updating it with the answer', async () => {
    const event = directMessageEvent('#hcsm last week');
    const before = harness.slack.calls.length;
    expect((await harness.send(eventCallback({ event }))).status).toBe(200);
    const update = await harness.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        call.args.channel === 'D0DIRECT01' &&
        headerOf(call) !== undefined &&
        harness.slack.calls.indexOf(call) >= before,
    );
    const post = harness.slack.calls
      .slice(before)
      .find((call) => call.method === 'chat.postMessage');
    expect(post?.args.channel).toBe('D0DIRECT01');
    expect(post?.args.text).toBe(renderPending(request('#hcsm last week'), { now: fixedNow }).text);
    expect(update.args.channel).toBe('D0DIRECT01');
    expect(headerOf(update)).toBe('Top influencers for #hcsm');
    expect(actionIdsOf(update)).toEqual(askAgain);
  });

  it('posts the pending message once when chat.postMessage answers 500, and the answer anew', async () => {
    const dm = await startHarness({ sandbox: { now }, overrides: { now } });
    try {
      dm.slack.failHttp('chat.postMessage', 500, 1);
      const event = directMessageEvent('#hcsm last week');
      await dm.send(eventCallback({ event }));
      const answer = await dm.slack.waitFor(
        (call) => call.method === 'chat.postMessage' && headerOf(call) !== undefined,
      );
      await dm.settled();
      const pending = renderPending(request('#hcsm last week'), { now: fixedNow }).text;
      expect(dm.slack.api('chat.postMessage').map((call) => call.args.text)).toEqual([
        pending,
        answer.args.text,
      ]);
      expect(dm.slack.api('chat.update')).toEqual([]);
    } finally {
      await dm.close();
    }
  });

  it('posts the answer as a new message, once, when chat.update fails', async () => {
    // No progress update: on a busy machine the lookup outlasts the harness's 400 ms and would
    // update (and fail) once more before the answer.
    const dm = await startHarness({
      sandbox: { now },
      overrides: { now },
      env: { PROGRESS_UPDATE_MS: '30000', LOOKUP_TIMEOUT_MS: '60000' },
    });
    try {
      dm.slack.override('chat.update', () => ({ ok: false, error: 'message_not_found' }));
      const event = directMessageEvent('#bcsm last week');
      await dm.send(eventCallback({ event }));
      const answer = await dm.slack.waitFor(
        (call) => call.method === 'chat.postMessage' && headerOf(call) !== undefined,
      );
      await dm.settled();
      expect(headerOf(answer)).toBe('Top influencers for #bcsm');
      expect(dm.slack.api('chat.update')).toHaveLength(1);
      expect(dm.slack.api('chat.postMessage')).toHaveLength(2);
    } finally {
      await dm.close();
    }
  });

  it('answers help in a DM', async () => {
    const event = directMessageEvent('help');
    await harness.send(eventCallback({ event }));
    const post = await harness.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.text === renderHelp({}).text,
    );
    expect(post.args.channel).toBe('D0DIRECT01');
  });

  it('answers a mention in a thread under it', async () => {
    const event = mentionEvent('#bcsm yesterday');
    await harness.send(eventCallback({ event }));
    const post = await harness.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.thread_ts === event.ts,
    );
    expect(post.args.channel).toBe('C0CHANNEL1');
    expect(post.args.text).toBe(renderPending(request('#bcsm yesterday'), { now: fixedNow }).text);
    const update = await harness.slack.waitFor(
      (call) => call.method === 'chat.update' && headerOf(call) === 'Top influencers for #bcsm',
    );
    expect(update.args.channel).toBe('C0CHANNEL1');
  });

  it.each([
    ['hello', renderHelp({})],
    ['help me', renderHelp({})],
    ['pause 3', renderHelp({ hint: digestVerbHint('pause', '3') })],
  ])('answers the DM %j with the usage', async (text, expected) => {
    const event = directMessageEvent(text);
    await harness.send(eventCallback({ event }));
    const post = await harness.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === 'D0DIRECT01' &&
        call.args.text === expected.text,
    );
    expect(post.args.blocks).toEqual(expected.blocks);
  });

  it('creates a watch typed in the DM, delivered to that DM', async () => {
    const event = directMessageEvent('watch #hcsm top 10');
    await harness.send(eventCallback({ event }));
    const post = await harness.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === 'D0DIRECT01' &&
        String(call.args.text).includes('created'),
    );
    expect(JSON.stringify(post.args.blocks)).toContain('your DM with me');
  });

  it.each([
    ['hi', renderHelp({}).text],
    // A digest or watch is created with the slash command in the channel that receives it.
    ['watch #hcsm top 10', digestInConversationHint('watch #hcsm top 10')],
  ])('answers a mention saying %j with the usage in its thread', async (text, expected) => {
    const event = mentionEvent(text);
    await harness.send(eventCallback({ event }));
    const post = await harness.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.thread_ts === event.ts,
    );
    expect(post.args.text).toBe(expected);
  });

  it('answers a DM typed in a thread in that thread', async () => {
    const threadTs = '1700000123.000100';
    const event = directMessageEvent('#hcsm yesterday', { thread_ts: threadTs });
    const before = harness.slack.calls.length;
    await harness.send(eventCallback({ event }));
    const update = await harness.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        headerOf(call) !== undefined &&
        harness.slack.calls.indexOf(call) >= before,
    );
    const post = harness.slack.calls
      .slice(before)
      .find((call) => call.method === 'chat.postMessage');
    expect(post?.args.thread_ts).toBe(threadTs);
    expect(post?.args.channel).toBe('D0DIRECT01');
    expect(update.args.ts).toBeDefined();
  });

  it.each([
    ['an edit', { subtype: 'message_changed', message: { text: '#hcsm last week' } }],
    ['a bot message', { bot_id: 'B0OTHER01', subtype: 'bot_message' }],
    ['a bot message without subtype', { bot_id: 'B0OTHER01' }],
    ['a join notice', { subtype: 'channel_join' }],
  ])('ignores %s', async (_name, extra) => {
    const before = harness.slack.calls.length;
    await harness.send(eventCallback({ event: directMessageEvent('#hcsm last week', extra) }));
    await harness.settled();
    expect(harness.slack.calls.slice(before)).toEqual([]);
  });

  it('answers a retried delivery of the same event once', async () => {
    const before = harness.slack.calls.length;
    const delivery = eventCallback({ event: directMessageEvent('help') });
    await harness.send(delivery);
    await harness.send(delivery, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    await harness.settled();
    expect(
      harness.slack.calls.slice(before).filter((call) => call.method === 'chat.postMessage'),
    ).toHaveLength(1);
  });
});

describe('App Home and the lookup modal', () => {
  it('publishes the Home tab when it is opened', async () => {
    await harness.send(eventCallback({ event: homeOpenedEvent() }));
    const publish = await harness.slack.waitFor((call) => call.method === 'views.publish');
    expect(publish.args.user_id).toBe(userId);
    expect((publish.args.view as { callback_id: string }).callback_id).toBe(callbackIds.home);
  });

  it('opens the modal from the Look up button', async () => {
    const action = blockAction({
      actionId: actionIds.openLookup,
      view: { id: 'V0HOME', type: 'home' },
      container: { type: 'view', view_id: 'V0HOME' },
    });
    expect((await harness.send(action)).status).toBe(200);
    const open = await harness.slack.waitFor((call) => call.method === 'views.open');
    expect((open.args.view as { callback_id: string }).callback_id).toBe(callbackIds.lookupModal);
    expect(open.args.trigger_id).toMatch(/\.trigger$/);
  });

  const values = (databases: string, window: string) => {
    const input = lookupModalInputs;
    return {
      [input.databases.blockId]: {
        [input.databases.actionId]: { type: 'plain_text_input', value: databases },
      },
      [input.window.blockId]: {
        [input.window.actionId]: { type: 'plain_text_input', value: window },
      },
      [input.zone.blockId]: {
        [input.zone.actionId]: { type: 'plain_text_input', value: userZone },
      },
      [input.top.blockId]: { [input.top.actionId]: { type: 'plain_text_input', value: '5' } },
    };
  };

  it('keeps a parse error in the modal under its input', async () => {
    const submit = viewSubmission({
      callbackId: callbackIds.lookupModal,
      values: values('#hcsm', 'since next year'),
    });
    const ack = await harness.send(submit);
    const parsed = parseLookup(`#hcsm since next year in ${userZone} top 5`, {
      now: fixedNow,
      zone: userZone,
    });
    expect(parsed).toBeInstanceOf(Error);
    expect(ack.json).toEqual({
      response_action: 'errors',
      errors: modalErrors(parsed as ParseError),
    });
  });

  it('closes the modal on a valid lookup and sends the answer as a DM', async () => {
    const before = harness.slack.calls.length;
    const ack = await harness.send(
      viewSubmission({ callbackId: callbackIds.lookupModal, values: values('#hcsm', 'last week') }),
    );
    expect(ack.status).toBe(200);
    expect(ack.json).toBeUndefined();
    const update = await harness.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        call.args.channel === dmOf(userId) &&
        headerOf(call) !== undefined &&
        harness.slack.calls.indexOf(call) >= before,
    );
    const post = harness.slack.calls
      .slice(before)
      .find((call) => call.method === 'chat.postMessage');
    expect(post?.args.channel).toBe(userId);
    expect(headerOf(update)).toBe('Top influencers for #hcsm');
  });
});

describe('request authenticity and access', () => {
  it.each([
    ['a forged signature', { secret: 'not-the-signing-secret' }],
    ['a stale timestamp', { timestamp: Math.floor(Date.now() / 1000) - 301 }],
  ])('answers 401 to %s and runs no handler', async (_name, options) => {
    const stranger = 'U0STRANGER';
    const command = slashCommand({ text: '#quiet past 3 hours', userId: stranger });
    const response = await harness.send(command, options);
    expect(response.status).toBe(401);
    expect(response.text).toBe('');
    await harness.settled();
    expect(
      harness.slack.calls.filter(
        (call) => call.args.user === stranger || call.url === command.responseUrl,
      ),
    ).toEqual([]);
    const start = request('#quiet past 3 hours').start;
    expect(
      harness.sandbox.log.filter((entry) => Object.values(entry.query).includes(start)),
    ).toEqual([]);
  });

  it.each([
    ['more than 5 minutes ahead', (now: number) => now + 302],
    ['ten years ahead', (now: number) => now + 10 * 365 * 86_400],
    ['1e10', () => 1e10],
  ])('answers 401 to a timestamp %s', async (_name, timestampAt) => {
    const command = slashCommand({ text: '#hcsm last week' });
    const timestamp = timestampAt(Math.floor(Date.now() / 1000));
    const response = await harness.send(command, { timestamp });
    expect(response.status).toBe(401);
    await harness.settled();
    expect(harness.slack.responses(command.responseUrl)).toEqual([]);
  });

  it.each([
    [
      'a form body payload=null',
      { body: 'payload=null', contentType: 'application/x-www-form-urlencoded' },
    ],
    ['a JSON body null', { body: 'null', contentType: 'application/json' }],
  ])('answers 400 to %s and keeps serving', async (_name, payload) => {
    const response = await harness.send(payload);
    expect(response.status).toBe(400);
    const command = slashCommand({ text: '#hcsm last week' });
    expect((await harness.send(command)).status).toBe(200);
    expect(headerOf(await finalResponse(harness, command.responseUrl))).toBe(
      'Top influencers for #hcsm',
    );
  });

  it('runs a command replayed with its signature once', async () => {
    const command = slashCommand({ text: '#bcsm past 5 hours' });
    const timestamp = Math.floor(Date.now() / 1000);
    const first = await harness.send(command, { timestamp });
    const replays = await Promise.all([1, 2, 3].map(() => harness.send(command, { timestamp })));
    expect(first.status).toBe(200);
    expect(replays.map((replay) => [replay.status, replay.text])).toEqual([
      [200, ''],
      [200, ''],
      [200, ''],
    ]);
    await finalResponse(harness, command.responseUrl);
    await harness.settled();
    expect(harness.slack.responses(command.responseUrl)).toHaveLength(1);
  });

  it('answers /healthz with status, version and mode', async () => {
    const response = await fetch(`${harness.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      version: harness.config.version,
      mode: 'http',
    });
  });

  it('never writes a secret to the logs', () => {
    expect(harness.logs.length).toBeGreaterThan(0);
    const all = harness.logs.join('\n');
    for (const secret of [signingSecret, botToken, demoClient.secret])
      expect(all).not.toContain(secret);
    expect(all).not.toMatch(/Bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/-]{8,}/);
    expect(all).not.toMatch(/xox[a-z]-[A-Za-z0-9]/);
  });
});

describe('profile pictures Slack cannot fetch', () => {
  const hasPicture = (call: SlackCall) =>
    ((call.args.blocks ?? []) as { accessory?: { type?: string } }[]).some(
      (block) => block.accessory?.type === 'image',
    );

  it('leave the answer, sent again without them, in every place it goes', async () => {
    const pictures = await startHarness({ sandbox: { now }, overrides: { now } });
    try {
      pictures.slack.refuseImages = true;
      const command = slashCommand({ text: '#hcsm last week' });
      await pictures.send(command);
      const answer = await pictures.slack.waitFor(
        (call) =>
          call.url === command.responseUrl && headerOf(call) !== undefined && !hasPicture(call),
      );
      expect(headerOf(answer)).toBe('Top influencers for #hcsm');
      expect(pictures.slack.responses(command.responseUrl).filter(hasPicture)).toHaveLength(1);

      await pictures.send(eventCallback({ event: directMessageEvent('#bcsm last week') }));
      const update = await pictures.slack.waitFor(
        (call) =>
          call.method === 'chat.update' && headerOf(call) !== undefined && !hasPicture(call),
      );
      expect(headerOf(update)).toBe('Top influencers for #bcsm');
      expect(pictures.slack.api('chat.postMessage')).toHaveLength(1);
    } finally {
      await pictures.close();
    }
  });
});

describe('secrets at the edges', () => {
  const userinfo = 'edge-user:edge-password-0123';
  const echoed = 'xoxb-echoed-by-slack-0123456789';

  it('keeps URL credentials and Slack error payloads out of every log line', async () => {
    const edges = await startHarness({
      urlUserinfo: userinfo,
      sandbox: { now },
      overrides: { now },
    });
    try {
      const refusal = (error: string) => () => ({
        ok: false,
        error,
        echoed,
        response_metadata: { messages: [`[ERROR] ${echoed}`] },
      });
      edges.slack.override('users.info', refusal('user_not_found'));
      edges.slack.override('chat.update', refusal('msg_too_long'));
      const command = slashCommand({ text: '#hcsm last week' });
      await edges.send(command);
      expect(headerOf(await finalResponse(edges, command.responseUrl))).toBe(
        'Top influencers for #hcsm',
      );
      await edges.send(eventCallback({ event: directMessageEvent('#hcsm yesterday') }));
      await edges.slack.waitFor((call) => call.method === 'chat.update');
      await edges.settled();

      const all = edges.logs.join('\n');
      for (const secret of ['edge-user', 'edge-password-0123', echoed]) {
        expect(all).not.toContain(secret);
      }
      const records = edges.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records.find((record) => record.msg === 'users.info failed; using UTC')).toMatchObject(
        { method: 'users.info', code: 'slack_webapi_platform_error', slackError: 'user_not_found' },
      );
    } finally {
      await edges.close();
    }
  });
});

describe('an analytics service that expects another auth scheme', () => {
  it('answers when ANALYTICS_AUTH_SCHEME names it', async () => {
    const tokenScheme = await startHarness({
      env: { ANALYTICS_AUTH_SCHEME: 'Token' },
      sandbox: { now, tokenScheme: 'Token' },
      overrides: { now },
    });
    try {
      const command = slashCommand({ text: '#hcsm last week' });
      await tokenScheme.send(command);
      const answer = await finalResponse(tokenScheme, command.responseUrl);
      expect(headerOf(answer)).toBe('Top influencers for #hcsm');
      const data = tokenScheme.sandbox.log.filter((entry) => entry.endpoint === 'data');
      expect(data.map((entry) => [entry.authSchemeSent, entry.status])).toEqual([['Token', 200]]);
    } finally {
      await tokenScheme.close();
    }
  });
});

describe('a workspace outside the allow-list', () => {
  it('is refused with no data', async () => {
    const guarded = await startHarness({
      env: { SLACK_ALLOWED_TEAM_IDS: teamId },
      sandbox: { now },
      overrides: { now },
    });
    try {
      const command = slashCommand({ text: '#hcsm last week', teamId: otherTeamId });
      const ack = await guarded.send(command);
      expect(ack.json?.text).toBe(errorText(new TeamNotAllowedError(otherTeamId)));
      await guarded.settled();
      expect(guarded.sandbox.log.filter((entry) => entry.endpoint === 'data')).toEqual([]);
      expect(guarded.slack.calls.filter((call) => call.method !== 'auth.test')).toEqual([]);

      const allowed = await guarded.send(slashCommand({ text: '#hcsm last week' }));
      expect(allowed.json?.text).toBe(
        renderPending(request('#hcsm last week'), { now: fixedNow }).text,
      );
    } finally {
      await guarded.close();
    }
  });

  describe('outside commands', () => {
    let guarded: Harness;
    const refusal = renderError(new TeamNotAllowedError(otherTeamId));

    beforeAll(async () => {
      guarded = await startHarness({
        env: { SLACK_ALLOWED_TEAM_IDS: `${teamId},E0GRID001` },
        sandbox: { now },
        overrides: { now },
      });
    });

    afterAll(async () => {
      await guarded?.close();
    });

    const dataRequests = () => guarded.sandbox.log.filter((entry) => entry.endpoint === 'data');

    it('answers a DM with the refusal and no data', async () => {
      const event = { ...directMessageEvent('#hcsm yesterday'), team: otherTeamId };
      await guarded.send(eventCallback({ event, teamId: otherTeamId }));
      const post = await guarded.slack.waitFor(
        (call) => call.method === 'chat.postMessage' && call.args.channel === 'D0DIRECT01',
      );
      expect(post.args.text).toBe(refusal.text);
      expect(post.args.blocks).toEqual(refusal.blocks);
      expect(post.args.thread_ts).toBeUndefined();
      await guarded.settled();
      expect(guarded.slack.api('chat.postMessage')).toHaveLength(1);
      expect(dataRequests()).toEqual([]);
    });

    it('answers a mention with the refusal in its thread', async () => {
      const event = { ...mentionEvent('#hcsm yesterday'), team: otherTeamId };
      await guarded.send(eventCallback({ event, teamId: otherTeamId }));
      const post = await guarded.slack.waitFor(
        (call) => call.method === 'chat.postMessage' && call.args.thread_ts === event.ts,
      );
      expect(post.args.text).toBe(refusal.text);
      expect(dataRequests()).toEqual([]);
    });

    it('publishes a Home tab holding only the refusal', async () => {
      await guarded.send(eventCallback({ event: homeOpenedEvent(), teamId: otherTeamId }));
      const publish = await guarded.slack.waitFor((call) => call.method === 'views.publish');
      expect(publish.args.view).toEqual(renderRefusedHome(refusal.text));
    });

    it('keeps a modal submission open with the refusal under its first input', async () => {
      const input = lookupModalInputs.databases;
      const ack = await guarded.send(
        viewSubmission({
          callbackId: callbackIds.lookupModal,
          values: {
            [input.blockId]: { [input.actionId]: { type: 'plain_text_input', value: '#hcsm' } },
          },
          teamId: otherTeamId,
        }),
      );
      expect(ack.json).toEqual({
        response_action: 'errors',
        errors: { [input.blockId]: errorText(new TeamNotAllowedError(otherTeamId)) },
      });
      await guarded.settled();
      expect(dataRequests()).toEqual([]);
    });

    it('admits any workspace of an allowed Enterprise Grid organization, and only those', async () => {
      const gridCommand = (enterpriseId: string) => {
        const command = slashCommand({ text: '#hcsm last week', teamId: 'T0GRIDWS1' });
        return { ...command, body: `${command.body}&enterprise_id=${enterpriseId}` };
      };
      const admitted = await guarded.send(gridCommand('E0GRID001'));
      expect(admitted.json?.text).toBe(
        renderPending(request('#hcsm last week'), { now: fixedNow }).text,
      );
      const refused = await guarded.send(gridCommand('E0OTHER01'));
      expect(refused.json?.text).toBe(errorText(new TeamNotAllowedError('T0GRIDWS1')));
    });
  });
});

describe('Slack rate limiting on interactive paths', () => {
  let limited: Harness;

  beforeAll(async () => {
    limited = await startHarness({ sandbox: { now }, overrides: { now } });
  });

  afterAll(async () => {
    await limited?.close();
  });

  it('still answers a DM and opens the modal while users.info is rate limited for 20 s', async () => {
    limited.slack.rateLimit('users.info', 20);
    try {
      const sent = Date.now();
      await limited.send(eventCallback({ event: directMessageEvent('#hcsm yesterday') }));
      const post = await limited.slack.waitFor((call) => call.method === 'chat.postMessage', 5_000);
      expect(post.at - sent).toBeLessThan(2_000);
      expect(post.args.text).toBe(
        renderPending(request('#hcsm yesterday', 'UTC'), { now: fixedNow, note: utcFallbackNote })
          .text,
      );

      const clicked = Date.now();
      await limited.send(
        blockAction({
          actionId: actionIds.openLookup,
          view: { id: 'V0HOME', type: 'home' },
          container: { type: 'view', view_id: 'V0HOME' },
        }),
      );
      const open = await limited.slack.waitFor((call) => call.method === 'views.open', 5_000);
      expect(open.at - clicked).toBeLessThan(3_000);
    } finally {
      limited.slack.rateLimit('users.info', undefined);
    }
  });

  it('tells the person by DM when views.open is rate limited', async () => {
    limited.slack.rateLimit('views.open', 30);
    try {
      await limited.send(
        blockAction({
          actionId: actionIds.openLookup,
          view: { id: 'V0HOME', type: 'home' },
          container: { type: 'view', view_id: 'V0HOME' },
        }),
      );
      const notice = await limited.slack.waitFor(
        (call) =>
          call.method === 'chat.postMessage' && call.args.text === lookupModalUnavailableText,
        5_000,
      );
      expect(notice.args.channel).toBe(userId);
    } finally {
      limited.slack.rateLimit('views.open', undefined);
    }
  });

  it('posts a rate-limited DM answer once more after Retry-After, then gives up and logs', async () => {
    const before = limited.slack.api('chat.postMessage').length;
    limited.slack.rateLimit('chat.postMessage', 1, 1);
    await limited.send(eventCallback({ event: directMessageEvent('help') }));
    await limited.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        limited.slack.api('chat.postMessage').length >= before + 2,
      5_000,
    );
    const [first, second] = limited.slack.api('chat.postMessage').slice(before);
    expect(second && first && second.at - first.at).toBeGreaterThanOrEqual(950);
    expect(second?.args.text).toBe(renderHelp({}).text);

    const logged = limited.logs.length;
    const attempts = limited.slack.api('chat.postMessage').length;
    limited.slack.rateLimit('chat.postMessage', 1);
    try {
      await limited.send(eventCallback({ event: directMessageEvent('help') }));
      await limited.settled();
      expect(limited.slack.api('chat.postMessage').length - attempts).toBe(2);
      expect(
        limited.logs
          .slice(logged)
          .some((line) => line.includes('could not answer a direct message')),
      ).toBe(true);
    } finally {
      limited.slack.rateLimit('chat.postMessage', undefined);
    }
  });
});

describe('a restart while a lookup runs', () => {
  it('ends the lookup saying the app restarted, not that it took too long', async () => {
    const h = await startHarness({
      env: { LOOKUP_TIMEOUT_MS: '20000', PROGRESS_UPDATE_MS: '15000' },
      sandbox: { now, latencyMs: 10_000 },
      overrides: { now },
    });
    try {
      const command = slashCommand({ text: '#hcsm last week' });
      expect((await h.send(command)).status).toBe(200);
      await sleep(100);
      expect(await h.running.deps.inFlight.drain(50, 3_000)).toBe(false);
      const final = await h.slack.waitForResponse(command.responseUrl, 1);
      expect(final.args.text).toBe(
        renderStoppedByRestart(request('#hcsm last week'), { now: fixedNow }).text,
      );
      expect(final.args.replace_original).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe('a lookup after its ack', () => {
  it('goes on after the listener has returned and still answers through response_url', async () => {
    // When the listeners of each request have returned (Bolt's global middleware wraps them).
    const returned: { url: string; postsSoFar: number }[] = [];
    let slack: Harness['slack'] | undefined;
    const h = await startHarness({
      sandbox: { now, latencyMs: 1_500 },
      overrides: {
        now,
        modules: [
          (app) =>
            app.use(async ({ body, next }) => {
              await next();
              const url = (body as { response_url?: string }).response_url ?? '';
              returned.push({ url, postsSoFar: slack?.responses(url).length ?? -1 });
            }),
        ],
      },
    });
    slack = h.slack;
    try {
      const command = slashCommand({ text: '#hcsm last week' });
      expect((await h.send(command)).status).toBe(200);
      const answer = await finalResponse(h, command.responseUrl);
      expect(headerOf(answer)).toBe('Top influencers for #hcsm');
      // Returned before the still-looking update (after 400 ms here) and the answer were posted.
      expect(returned).toEqual([{ url: command.responseUrl, postsSoFar: 0 }]);
      expect(h.slack.responses(command.responseUrl)).toHaveLength(2);
    } finally {
      await h.close();
    }
  });
});

describe("Bolt's conversation store", () => {
  it('is left out: no request is looked up in it', async () => {
    const contexts: boolean[] = [];
    const h = await startHarness({
      sandbox: { now },
      overrides: {
        now,
        modules: [
          (app) =>
            app.use(async ({ context, next }) => {
              contexts.push('updateConversation' in context || 'conversation' in context);
              await next();
            }),
        ],
      },
    });
    try {
      expect((await h.send(slashCommand({ text: '#hcsm last week' }))).status).toBe(200);
      const event = directMessageEvent('help');
      expect((await h.send(eventCallback({ event }))).status).toBe(200);
      expect(contexts).toEqual([false, false]);
    } finally {
      await h.close();
    }
  });
});

describe('a service slower than every limit', () => {
  it('acks well within 3 s while the sandbox takes 10 s, then reports the timeout', async () => {
    const slow = await startHarness({
      env: { LOOKUP_TIMEOUT_MS: '1500' },
      sandbox: { now, latencyMs: 10_000 },
      overrides: { now },
    });
    try {
      const command = slashCommand({ text: '#hcsm last week' });
      const ack = await slow.send(command);
      expect(ack.ms).toBeLessThan(1_000);
      expect(ack.json?.text).toBe(
        renderPending(request('#hcsm last week'), { now: fixedNow }).text,
      );
      const progress = await slow.slack.waitForResponse(command.responseUrl, 1);
      expect(String(progress.args.text)).toMatch(/^Still looking up/);
      const final = await slow.slack.waitForResponse(command.responseUrl, 2);
      expect(final.args.text).toBe(
        renderTimedOut(request('#hcsm last week'), { now: fixedNow }).text,
      );
      expect(final.args.replace_original).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('acks with UTC and says so when users.info is slower than the bounded wait', async () => {
    const slowZone = await startHarness({
      env: { USER_ZONE_WAIT_MS: '100' },
      sandbox: { now },
      overrides: { now },
    });
    slowZone.slack.usersInfoDelayMs = 1_000;
    try {
      const ack = await slowZone.send(slashCommand({ text: '#hcsm yesterday' }));
      expect(ack.ms).toBeLessThan(1_000);
      const expected = renderPending(request('#hcsm yesterday', 'UTC'), {
        now: fixedNow,
        note: 'Your Slack time zone could not be read in time, so dates are in UTC. Add "in <zone>" (e.g. in America/New_York) to choose one.',
      });
      expect(ack.json).toEqual({ response_type: 'ephemeral', ...expected });
    } finally {
      await slowZone.close();
    }
  });
});
