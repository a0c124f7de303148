import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runWindow } from '../../src/digests/run-window.ts';
import {
  ChannelUnreachableError,
  DigestNotFoundError,
  DigestPermissionError,
  ParseError,
} from '../../src/errors.ts';
import type { Digest, NewDigest } from '../../src/model/digest.ts';
import { parseDigestCommand } from '../../src/parsing/digest.ts';
import { pauseReasonWords } from '../../src/render/digests/digest-failures.ts';
import { renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import { renderError } from '../../src/render/errors.ts';
import { digestActionIds, digestHomeBlockId } from '../../src/render/ids.ts';
import {
  renderDigestActionResult,
  renderDigestCreated,
  renderDigestList,
} from '../../src/render/management/digest-management.ts';
import type { Database } from '../../src/store/database.ts';
import { nextRuns } from '../../src/time/schedule.ts';
import { FakeSlack, type SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, slackApiUrl, startHarness } from '../helpers/harness.ts';
import {
  blockAction,
  botUserId,
  eventCallback,
  homeOpenedEvent,
  otherTeamId,
  slashCommand,
  teamId,
  userId,
} from '../helpers/payloads.ts';

/** A clock that starts on a Saturday afternoon and moves with real time, so waits still pass. */
const startedAt = new Date('2026-11-21T15:00:00Z').getTime();
const realStart = Date.now();
const now = () => new Date(startedAt + (Date.now() - realStart));
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const adminId = 'U0ADMIN01';
const otherUserId = 'U0OTHER01';
const userZone = 'America/New_York';

/** Channels as conversations.info describes them; absent ones are public without the bot. */
const privateWithoutBot = 'C0PRIVATE1';
const archived = 'C0ARCHIVE1';
/** Public channels where chat.postMessage says not_in_channel until the bot joins. */
const notJoined = new Set<string>();
/** Channels deleted since the digest was created. */
const deleted = new Set<string>();

const slack = new FakeSlack({ apiUrl: slackApiUrl });
const joined = new Set<string>();
let postTs = 1_800_000_000;
/** chat.postMessage answers 429 (Retry-After: 1) this many more times. */
let rateLimitedPosts = 0;
const rateLimitedAt: number[] = [];

slack.override('users.info', (args) => ({
  ok: true,
  user: {
    id: args.user,
    tz: userZone,
    is_admin: args.user === adminId,
    is_owner: false,
    profile: { display_name: args.user === userId ? 'Jane Doe' : '', real_name: 'Some One' },
  },
}));
slack.override('conversations.info', (args) => {
  const id = String(args.channel);
  if (id === privateWithoutBot || id.startsWith('D'))
    return { ok: false, error: 'channel_not_found' };
  return {
    ok: true,
    channel: {
      id,
      is_channel: true,
      is_private: false,
      is_member: false,
      is_archived: id === archived,
    },
  };
});
slack.override('conversations.join', (args) => {
  joined.add(String(args.channel));
  return { ok: true, channel: { id: args.channel } };
});
slack.override('chat.postMessage', (args) => {
  const channel = String(args.channel);
  if (deleted.has(channel)) return { ok: false, error: 'channel_not_found' };
  if (notJoined.has(channel) && !joined.has(channel)) return { ok: false, error: 'not_in_channel' };
  postTs += 1;
  return { ok: true, channel, ts: `${postTs}.000100` };
});

const fetchWithRateLimits: typeof fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (rateLimitedPosts > 0 && url === `${slackApiUrl}chat.postMessage`) {
    rateLimitedPosts -= 1;
    rateLimitedAt.push(Date.now());
    return new Response('{"ok":false,"error":"ratelimited"}', {
      status: 429,
      headers: { 'retry-after': '1', 'content-type': 'application/json' },
    });
  }
  return slack.fetch(input, init);
};

let harness: Harness;
let store: Database;
let channelSequence = 0;
/** A channel no other test uses, so each list holds only its own digests. */
const freshChannel = () => `C0TEST${String(++channelSequence).padStart(4, '0')}`;

beforeAll(async () => {
  harness = await startHarness({
    env: {
      DIGESTS_SQLITE_PATH: ':memory:',
      DIGESTS_ENABLED: 'false',
      DIGEST_MAX_FAILURES: '2',
      RESPONSE_CACHE_TTL_MS: '0',
    },
    sandbox: { now },
    overrides: {
      fetch: fetchWithRateLimits,
      now,
      digests: {
        clock: { now, sleep: realSleep },
        runnerOptions: { backoffMs: 20, channelIntervalMs: 50 },
      },
    },
  });
  store = harness.running.digests.database;
});

afterAll(async () => {
  await harness?.close();
});

beforeEach(() => {
  rateLimitedPosts = 0;
  rateLimitedAt.length = 0;
});

function digestInput(overrides: Partial<NewDigest> = {}): NewDigest {
  return {
    teamId,
    channelId: freshChannel(),
    creatorId: userId,
    databases: ['#hcsm'],
    schedule: { kind: 'cron', expression: '0 9 * * *', zone: 'UTC', cadence: 'daily' },
    window: { kind: 'since-previous-run' },
    top: 5,
    nextRunAt: new Date('2026-11-22T09:00:00Z'),
    ...overrides,
  };
}

async function command(text: string, options: { channelId?: string; userId?: string } = {}) {
  const payload = slashCommand({ text, ...options });
  const ack = await harness.send(payload);
  expect(ack.status).toBe(200);
  expect(ack.ms).toBeLessThan(3_000);
  return { ack, url: payload.responseUrl };
}

/** The `count`-th response_url post of a command or action. */
const response = (url: string, count = 1) => slack.waitForResponse(url, count);

function actionIdsOf(call: SlackCall): string[] {
  const blocks = (call.args.blocks ?? []) as {
    type: string;
    elements?: { action_id?: string }[];
  }[];
  return blocks.flatMap((block) =>
    block.type === 'actions' ? (block.elements ?? []).map((e) => e.action_id ?? '') : [],
  );
}

function posts(channel: string): SlackCall[] {
  return slack.api('chat.postMessage').filter((call) => call.args.channel === channel);
}

function textOf(call: SlackCall): string {
  return JSON.stringify(call.args.blocks);
}

/** A button press as Slack sends it, from any person. */
function button(
  actionId: string,
  value: string,
  options: { userId?: string; channelId?: string; home?: boolean } = {},
) {
  const payload = blockAction({
    actionId,
    value,
    ...(options.home
      ? {
          container: { type: 'view', view_id: 'V0HOME0001' },
          view: { id: 'V0HOME0001', type: 'home', callback_id: 'influencers_home' },
        }
      : {
          container: {
            type: 'message',
            message_ts: '1700000000.000100',
            channel_id: options.channelId ?? 'C0CHANNEL1',
            is_ephemeral: true,
          },
        }),
  });
  if (options.userId === undefined && options.channelId === undefined) return payload;
  const form = new URLSearchParams(payload.body);
  const body = JSON.parse(form.get('payload') ?? '{}') as Record<string, unknown>;
  if (options.userId !== undefined)
    body.user = { id: options.userId, username: 'someone', team_id: teamId };
  if (options.channelId !== undefined && body.channel !== undefined)
    body.channel = { id: options.channelId, name: 'digests' };
  return {
    ...payload,
    body: new URLSearchParams({ payload: JSON.stringify(body) }).toString(),
  };
}

describe('/influencers digest: creation', () => {
  it('creates a digest and confirms it with the next three runs and their windows', async () => {
    const channelId = freshChannel();
    const { ack, url } = await command('digest #hcsm every monday at 9am', { channelId });
    expect(ack.text).toBe('');

    const confirmation = await response(url);
    const [digest] = await store.digests.listByChannel(teamId, channelId);
    if (digest === undefined) throw new Error('no digest stored');
    expect(digest).toMatchObject({
      teamId,
      channelId,
      creatorId: userId,
      databases: ['#hcsm'],
      schedule: { expression: '0 9 * * 1', zone: userZone, cadence: 'weekly' },
      window: { kind: 'since-previous-run' },
      status: 'active',
      nextRunAt: new Date('2026-11-23T14:00:00Z'),
    });
    const upcoming = nextRuns(digest.schedule, now(), 3);
    expect(confirmation.args).toEqual({
      response_type: 'ephemeral',
      ...renderDigestCreated(digest, {
        now: now(),
        nextRuns: upcoming,
        windows: upcoming.map((slot) => runWindow(digest, slot)),
        notes: [],
        command: '/influencers',
        botUserId,
      }),
    });
    const words = textOf(confirmation);
    for (const run of ['Mon Nov 23, 09:00 EST', 'Mon Nov 30, 09:00 EST', 'Mon Dec 7, 09:00 EST']) {
      expect(words).toContain(run);
    }
    expect(slack.api('conversations.info').at(-1)?.args.channel).toBe(channelId);
  });

  it.each([
    ['a bad cron expression', 'digest #hcsm cron "61 9 * * 1"'],
    ['a schedule more often than hourly', 'digest #hcsm cron "*/5 * * * *"'],
    ['an unknown zone', 'digest #hcsm every monday at 9am in Mars/Olympus_Mons'],
    ['no schedule', 'digest #hcsm'],
  ])('refuses %s in the ack, with the grammar’s words', async (_name, text) => {
    const expected = parseDigestCommand(text, { now: now(), zone: userZone });
    expect(expected).toBeInstanceOf(ParseError);
    const channelId = freshChannel();
    const { ack, url } = await command(text, { channelId });
    expect(ack.json).toEqual({ response_type: 'ephemeral', ...renderError(expected) });
    await realSleep(50);
    expect(slack.responses(url)).toHaveLength(0);
    expect(await store.digests.listByChannel(teamId, channelId)).toEqual([]);
  });

  it.each([
    [
      'a private channel without the bot, saying to /invite it',
      privateWithoutBot,
      renderError(new ChannelUnreachableError(privateWithoutBot, 'not_in_channel'), { botUserId }),
      `/invite <@${botUserId}>`,
    ],
    [
      'an archived channel',
      archived,
      renderError(new ChannelUnreachableError(archived, 'archived'), { botUserId }),
      'is archived',
    ],
    [
      'a direct message between people',
      'D0PEOPLE01',
      renderError(new ChannelUnreachableError('D0PEOPLE01', 'direct_message'), { botUserId }),
      'direct message between people',
    ],
  ])('refuses %s at creation', async (_name, channelId, expected, words) => {
    const { url } = await command('digest #hcsm every monday at 9am', { channelId });
    const answer = await response(url);
    expect(answer.args).toEqual({ response_type: 'ephemeral', ...expected });
    expect(String(answer.args.text)).toContain(words);
    expect(await store.digests.listByChannel(teamId, channelId)).toEqual([]);
  });
});

describe('/influencers digests: the list and its buttons', () => {
  it('lists this channel’s digests with Run now, Pause and Remove buttons', async () => {
    const channelId = freshChannel();
    const first = await store.digests.create(digestInput({ channelId }), now());
    const second = await store.digests.create(
      digestInput({ channelId, databases: ['#bcsm'], creatorId: otherUserId }),
      now(),
    );
    await store.digests.create(digestInput(), now());

    const { ack, url } = await command('digests', { channelId });
    expect(ack.text).toBe('');
    const list = await response(url);
    const digests = await store.digests.listByChannel(teamId, channelId);
    expect(digests.map((d) => d.id).sort()).toEqual([first.id, second.id].sort());
    expect(list.args).toEqual({
      response_type: 'ephemeral',
      ...renderDigestList(digests, {
        now: now(),
        channelId,
        viewerId: userId,
        command: '/influencers',
      }),
    });
    expect(actionIdsOf(list)).toEqual([
      digestActionIds.runNow,
      digestActionIds.pause,
      digestActionIds.edit,
      digestActionIds.remove,
      digestActionIds.runNow,
      digestActionIds.pause,
      digestActionIds.edit,
      digestActionIds.remove,
    ]);
  });

  it('pauses, resumes and removes by text', async () => {
    const digest = await store.digests.create(digestInput(), now());

    const paused = await command(`digest pause ${digest.id.toLowerCase()}`);
    expect((await response(paused.url)).args.text).toBe(
      renderDigestActionResult(
        { action: 'pause', digest: { ...digest, status: 'paused' } },
        { now: now(), command: '/influencers' },
      ).text,
    );
    expect((await store.digests.get(digest.id))?.status).toBe('paused');

    const resumed = await command(`digest resume ${digest.id}`);
    await response(resumed.url);
    const active = await store.digests.get(digest.id);
    expect(active?.status).toBe('active');
    expect(active?.nextRunAt).toEqual(new Date('2026-11-22T09:00:00Z'));
    expect((await response(resumed.url)).args.text).toBe(
      renderDigestActionResult(
        { action: 'resume', digest: active as Digest },
        { now: now(), command: '/influencers' },
      ).text,
    );

    const removed = await command(`digest remove ${digest.id}`);
    expect(String((await response(removed.url)).args.text)).toContain('was removed');
    expect(await store.digests.get(digest.id)).toBeUndefined();
  });

  it('pauses from the list’s button, then replaces the list and says what happened', async () => {
    const digest = await store.digests.create(digestInput(), now());
    const press = button(digestActionIds.pause, digest.id, { channelId: digest.channelId });
    expect((await harness.send(press)).status).toBe(200);

    const list = await response(press.responseUrl, 1);
    const result = await response(press.responseUrl, 2);
    const current = (await store.digests.get(digest.id)) as Digest;
    expect(current.status).toBe('paused');
    expect(list.args).toEqual({
      response_type: 'ephemeral',
      replace_original: true,
      ...renderDigestList([current], { now: now(), channelId: digest.channelId, viewerId: userId }),
    });
    expect(actionIdsOf(list)).toContain(digestActionIds.resume);
    expect(result.args.replace_original).toBe(false);
    expect(String(result.args.text)).toContain('is paused');
  });

  it('resumes and removes with the buttons', async () => {
    const digest = await store.digests.create(digestInput(), now());
    await store.digests.pause(digest.id, now());
    const resume = button(digestActionIds.resume, digest.id, { channelId: digest.channelId });
    await harness.send(resume);
    await response(resume.responseUrl, 2);
    expect((await store.digests.get(digest.id))?.status).toBe('active');

    const remove = button(digestActionIds.remove, digest.id, { channelId: digest.channelId });
    await harness.send(remove);
    const list = await response(remove.responseUrl, 1);
    expect(String(list.args.text)).toBe(
      renderDigestList([], { now: now(), channelId: digest.channelId, viewerId: userId }).text,
    );
    expect(await store.digests.get(digest.id)).toBeUndefined();
  });
});

describe('who may change a digest', () => {
  it('refuses a person who is neither the creator nor an admin', async () => {
    const digest = await store.digests.create(digestInput(), now());
    const { url } = await command(`digest pause ${digest.id}`, { userId: otherUserId });
    const answer = await response(url);
    expect(answer.args).toEqual({
      response_type: 'ephemeral',
      ...renderError(new DigestPermissionError(digest.id, userId), { botUserId }),
    });
    expect(String(answer.args.text)).toBe(
      `Only the digest's creator (<@${userId}>) or a workspace admin can change this digest.`,
    );
    expect((await store.digests.get(digest.id))?.status).toBe('active');
  });

  it('refuses the button of a person who is neither the creator nor an admin', async () => {
    const digest = await store.digests.create(digestInput({ creatorId: otherUserId }), now());
    const press = button(digestActionIds.remove, digest.id, { channelId: digest.channelId });
    await harness.send(press);
    const answer = await response(press.responseUrl);
    expect(answer.args.text).toBe(
      renderError(new DigestPermissionError(digest.id, otherUserId)).text,
    );
    expect(await store.digests.get(digest.id)).toBeDefined();
  });

  it('lets a workspace admin pause someone else’s digest', async () => {
    const digest = await store.digests.create(digestInput(), now());
    const { url } = await command(`digest pause ${digest.id}`, { userId: adminId });
    expect(String((await response(url)).args.text)).toContain('is paused');
    expect((await store.digests.get(digest.id))?.status).toBe('paused');
  });

  it('answers "not found" for a digest of another workspace', async () => {
    const digest = await store.digests.create(digestInput({ teamId: otherTeamId }), now());
    const { url } = await command(`digest remove ${digest.id}`);
    expect((await response(url)).args.text).toBe(
      renderError(new DigestNotFoundError(digest.id)).text,
    );
    expect(await store.digests.get(digest.id)).toBeDefined();
  });
});

describe('Run now', () => {
  it('posts the digest in its channel, by text, and says so', async () => {
    const digest = await store.digests.create(digestInput(), now());
    const { url } = await command(`digest run ${digest.id}`);
    const started = await response(url, 1);
    expect(String(started.args.text)).toContain('Running Digest');
    const done = await response(url, 2);
    expect(done.args.replace_original).toBe(true);
    expect(String(done.args.text)).toContain(`was posted in <#${digest.channelId}>`);

    const [post] = posts(digest.channelId);
    expect(post?.args.text).toMatch(/^Daily digest: /);
    expect(textOf(post as SlackCall)).toContain('Top influencers for #hcsm');
    expect(textOf(post as SlackCall)).toContain('created by Jane Doe');
    expect((await store.digests.get(digest.id))?.lastRun?.outcome).toBe('posted');
  });

  it('posts with the Run now button and refreshes the list', async () => {
    const digest = await store.digests.create(digestInput(), now());
    const press = button(digestActionIds.runNow, digest.id, { channelId: digest.channelId });
    await harness.send(press);
    await response(press.responseUrl, 3);
    const [started, list, result] = slack.responses(press.responseUrl);
    expect(String(started?.args.text)).toContain('Running Digest');
    expect(list?.args.replace_original).toBe(true);
    expect(JSON.stringify(list?.args.blocks)).toContain('posted');
    expect(String(result?.args.text)).toContain('was posted');
    expect(posts(digest.channelId)).toHaveLength(1);
  });
});

describe('the App Home', () => {
  it('lists the digests the person created, with the same buttons, and refreshes after one', async () => {
    const mine = await store.digests.create(digestInput({ creatorId: 'U0HOMEUSER' }), now());
    await store.digests.create(digestInput({ creatorId: otherUserId }), now());
    const opened = eventCallback({ event: { ...homeOpenedEvent(), user: 'U0HOMEUSER' } });
    const publishes = () =>
      slack.api('views.publish').filter((call) => call.args.user_id === 'U0HOMEUSER');
    await harness.send(opened);
    await slack.waitFor(() => publishes().length >= 1);

    const view = publishes()[0]?.args.view as { blocks: { block_id?: string }[] };
    const home = JSON.stringify(view.blocks);
    expect(view.blocks.some((block) => block.block_id === digestHomeBlockId)).toBe(true);
    expect(home).toContain('*Your digests* (1)');
    expect(home).toContain(mine.id);
    expect(home).toContain(digestActionIds.pause);

    const press = button(digestActionIds.pause, mine.id, { home: true });
    const form = new URLSearchParams(press.body);
    const body = JSON.parse(form.get('payload') ?? '{}') as Record<string, unknown>;
    body.user = { id: 'U0HOMEUSER', username: 'home', team_id: teamId };
    await harness.send({
      ...press,
      body: new URLSearchParams({ payload: JSON.stringify(body) }).toString(),
    });
    await slack.waitFor(() => publishes().length >= 2);
    expect(JSON.stringify(publishes()[1]?.args.view)).toContain('Paused');
    expect((await store.digests.get(mine.id))?.status).toBe('paused');
  });
});

describe('scheduled delivery through the Slack poster', () => {
  it('posts a due digest once, joining a public channel the bot is not in', async () => {
    const channelId = freshChannel();
    notJoined.add(channelId);
    const digest = await store.digests.create(
      digestInput({ channelId, nextRunAt: new Date('2026-11-21T09:00:00Z') }),
      now(),
    );
    const runner = harness.running.digests.runner;
    const report = await runner.runDue(new Date('2026-11-21T09:05:00Z'));
    expect(report).toMatchObject({ claimed: 1, posted: 1, failed: 0 });

    const attempts = posts(channelId);
    expect(attempts).toHaveLength(2);
    expect(slack.api('conversations.join').map((call) => call.args.channel)).toContain(channelId);
    const joinedAt = slack.api('conversations.join').find((c) => c.args.channel === channelId)?.at;
    expect(joinedAt).toBeGreaterThanOrEqual(attempts[0]?.at ?? 0);
    expect(joinedAt).toBeLessThanOrEqual(attempts[1]?.at ?? 0);
    // Named, not mentioned: a weekly post must not ping its creator every week.
    expect(textOf(attempts[1] as SlackCall)).toContain('created by Jane Doe');
    expect(textOf(attempts[1] as SlackCall)).not.toContain(`<@${userId}>`);

    const after = await store.digests.get(digest.id);
    expect(after?.lastRun).toMatchObject({
      outcome: 'posted',
      slot: new Date('2026-11-21T09:00:00Z'),
    });
    expect(after?.nextRunAt).toEqual(new Date('2026-11-22T09:00:00Z'));
    expect(await runner.runDue(new Date('2026-11-21T09:06:00Z'))).toMatchObject({ claimed: 0 });
    expect(posts(channelId)).toHaveLength(2);
  });

  it('waits out a 429 for its Retry-After, then posts', async () => {
    const channelId = freshChannel();
    await store.digests.create(
      digestInput({ channelId, nextRunAt: new Date('2026-11-21T09:00:00Z') }),
      now(),
    );
    rateLimitedPosts = 1;
    const report = await harness.running.digests.runner.runDue(new Date('2026-11-21T09:05:00Z'));
    expect(report).toMatchObject({ posted: 1, failed: 0 });
    expect(rateLimitedAt).toHaveLength(1);
    const [post] = posts(channelId);
    expect(post).toBeDefined();
    expect((post?.at ?? 0) - (rateLimitedAt[0] ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('pauses a digest after repeated failures and tells its creator why by DM', async () => {
    const channelId = freshChannel();
    deleted.add(channelId);
    const digest = await store.digests.create(
      digestInput({
        channelId,
        creatorId: 'U0CREATOR9',
        nextRunAt: new Date('2026-11-20T09:00:00Z'),
      }),
      now(),
    );
    const runner = harness.running.digests.runner;
    expect(await runner.runDue(new Date('2026-11-20T09:01:00Z'))).toMatchObject({
      failed: 1,
      paused: 0,
    });
    expect(await runner.runDue(new Date('2026-11-21T09:01:00Z'))).toMatchObject({
      failed: 1,
      paused: 1,
    });

    const paused = (await store.digests.get(digest.id)) as Digest;
    expect(paused.status).toBe('paused');
    expect(paused.lastRun).toMatchObject({ outcome: 'failed', errorCode: 'channel_unreachable' });
    expect(paused.pauseReason && pauseReasonWords(paused.pauseReason)).toBe(
      'the channel no longer exists, or I can no longer see it (2 failed runs in a row)',
    );
    const [dm] = posts('U0CREATOR9');
    expect(dm?.args.text).toBe(renderDigestPaused(paused).text);
    expect(String(dm?.args.text)).toContain('the channel no longer exists');
    expect(String(dm?.args.text)).toContain(`/influencers digest resume ${digest.id}`);

    const { url } = await command('digests', { channelId });
    expect(JSON.stringify((await response(url)).args.blocks)).toContain(
      'failed: the channel no longer exists, or I can no longer see it',
    );
  });
});
