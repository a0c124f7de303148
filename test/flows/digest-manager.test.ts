import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunNowResult } from '../../src/digests/runner.ts';
import {
  ChannelUnreachableError,
  DigestNotFoundError,
  DigestPermissionError,
} from '../../src/errors.ts';
import { type DigestAccess, DigestManager } from '../../src/flows/digest-manager.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Digest } from '../../src/model/digest.ts';
import { type DigestSpec, parseDigestCommand } from '../../src/parsing/digest.ts';
import { AdminDirectory, assertBotCanPost } from '../../src/slack/web-api/digest-access.ts';
import type { Database } from '../../src/store/database.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';
import { FakeSlack } from '../helpers/fake-slack.ts';

const now = new Date('2026-03-27T10:00:00Z');
const spec: DigestSpec = {
  databases: ['#hcsm'],
  schedule: {
    kind: 'cron',
    expression: '0 9 * * 1',
    zone: 'America/New_York',
    cadence: 'weekly',
  },
  window: { kind: 'since-previous-run' },
  top: 10,
  zone: 'America/New_York',
  postWhen: 'always',
  presentation: 'list',
};
const creator = { teamId: 'T1', userId: 'U1' };

let store: Database;
let runs: Digest[];
let manager: DigestManager;
let adminChecks: string[];

function access(options: { admins?: string[]; channelError?: Error } = {}): DigestAccess {
  return {
    assertCanPost: async () => {
      if (options.channelError) throw options.channelError;
    },
    isAdmin: async (caller) => {
      adminChecks.push(caller.userId);
      return options.admins?.includes(caller.userId) ?? false;
    },
  };
}

beforeEach(async () => {
  store = openSqliteDatabase({ path: ':memory:' });
  await store.migrate();
  runs = [];
  adminChecks = [];
  manager = new DigestManager({
    db: store,
    now: () => now,
    runNow: async (digest): Promise<RunNowResult> => {
      runs.push(digest);
      return { outcome: 'posted', ts: '1.2' };
    },
  });
});

afterEach(async () => {
  await store.close();
});

describe('DigestManager', () => {
  it('creates a digest whose next run is the first of the three it returns', async () => {
    const created = await manager.create(creator, 'C1', spec, access());
    // Across the US spring-forward (Mar 8) nothing moves; 09:00 New York is 13:00 UTC in March.
    expect(created.nextRuns).toEqual([
      new Date('2026-03-30T13:00:00Z'),
      new Date('2026-04-06T13:00:00Z'),
      new Date('2026-04-13T13:00:00Z'),
    ]);
    expect(created.digest).toMatchObject({
      teamId: 'T1',
      channelId: 'C1',
      creatorId: 'U1',
      nextRunAt: new Date('2026-03-30T13:00:00Z'),
      status: 'active',
    });
    expect(await store.digests.get(created.digest.id)).toEqual(created.digest);
  });

  it('stores nothing when the bot could not post in the channel', async () => {
    const refusal = new ChannelUnreachableError('C9', 'not_in_channel');
    await expect(
      manager.create(creator, 'C9', spec, access({ channelError: refusal })),
    ).rejects.toBe(refusal);
    expect(await store.digests.listByChannel('T1', 'C9')).toEqual([]);
  });

  it('lets the creator act without asking whether they are an admin', async () => {
    const { digest } = await manager.create(creator, 'C1', spec, access());
    const outcome = await manager.act(creator, 'pause', digest.id, access());
    expect(outcome).toMatchObject({ action: 'pause', changed: true, digest: { status: 'paused' } });
    expect(adminChecks).toEqual([]);
  });

  it.each(['pause', 'resume', 'remove', 'run'] as const)(
    'refuses %s to someone who is neither the creator nor an admin',
    async (action) => {
      const { digest } = await manager.create(creator, 'C1', spec, access());
      await expect(
        manager.act({ teamId: 'T1', userId: 'U2' }, action, digest.id, access()),
      ).rejects.toEqual(new DigestPermissionError(digest.id, 'U1'));
      expect(adminChecks).toEqual(['U2']);
      expect(runs).toEqual([]);
      expect((await store.digests.get(digest.id))?.status).toBe('active');
    },
  );

  it('lets an admin run someone else’s digest', async () => {
    const { digest } = await manager.create(creator, 'C1', spec, access());
    const outcome = await manager.act(
      { teamId: 'T1', userId: 'UADMIN' },
      'run',
      digest.id,
      access({ admins: ['UADMIN'] }),
    );
    expect(outcome).toMatchObject({ action: 'run', result: { outcome: 'posted' } });
    expect(runs.map((run) => run.id)).toEqual([digest.id]);
  });

  it('treats an id of another workspace as not found', async () => {
    const { digest } = await manager.create(creator, 'C1', spec, access());
    await expect(
      manager.act({ teamId: 'T2', userId: 'U1' }, 'remove', digest.id, access()),
    ).rejects.toEqual(new DigestNotFoundError(digest.id));
    expect(await store.digests.get(digest.id)).toBeDefined();
  });

  it('edits a digest: a new time moves its next run, and the next three runs come back', async () => {
    const { digest } = await manager.create(creator, 'C1', spec, access());
    const edit = parseDigestCommand(`digest edit ${digest.id} at 10am top 5 by retweets`, {
      now,
      zone: 'UTC',
    });
    if (edit instanceof Error || edit.kind !== 'edit') throw new Error('not an edit');
    const edited = await manager.edit(creator, digest.id, edit.edit, access());
    if (edited.kind !== 'edited') throw new Error('refused as a duplicate');
    expect(edited.nextRuns).toEqual([
      new Date('2026-03-30T14:00:00Z'),
      new Date('2026-04-06T14:00:00Z'),
      new Date('2026-04-13T14:00:00Z'),
    ]);
    expect(edited.digest).toMatchObject({
      top: 5,
      metric: 'retweets',
      schedule: { expression: '0 10 * * 1', zone: 'America/New_York' },
      nextRunAt: new Date('2026-03-30T14:00:00Z'),
    });
    expect(await store.digests.get(digest.id)).toEqual(edited.digest);
  });

  it('refuses an edit to someone who is neither the creator nor an admin', async () => {
    const { digest } = await manager.create(creator, 'C1', spec, access());
    await expect(
      manager.edit({ teamId: 'T1', userId: 'U2' }, digest.id, { top: 3 }, access()),
    ).rejects.toEqual(new DigestPermissionError(digest.id, 'U1'));
    expect((await store.digests.get(digest.id))?.top).toBe(10);
  });

  it('resumes at the first slot after now, and leaves an active digest alone', async () => {
    const { digest } = await manager.create(creator, 'C1', spec, access());
    expect(await manager.act(creator, 'resume', digest.id, access())).toMatchObject({
      changed: false,
    });
    await store.digests.pause(digest.id, now);
    const outcome = await manager.act(creator, 'resume', digest.id, access());
    expect(outcome).toMatchObject({
      changed: true,
      digest: { status: 'active', nextRunAt: new Date('2026-03-30T13:00:00Z') },
    });
  });
});

function slackWith(channel: Record<string, unknown> | string): WebClient {
  const slack = new FakeSlack();
  slack.override('conversations.info', () =>
    typeof channel === 'string' ? { ok: false, error: channel } : { ok: true, channel },
  );
  return new WebClient('xoxb-test', {
    fetch: slack.fetch,
    retryConfig: { retries: 0 },
  });
}

describe('assertBotCanPost', () => {
  it.each([
    ['a public channel without the bot', { is_channel: true, is_member: false }, 'C1'],
    ['a private channel with the bot', { is_private: true, is_member: true }, 'C1'],
    ['the app’s own DM', { is_im: true }, 'D1'],
    ['a group DM with the bot', { is_mpim: true, is_member: true }, 'G1'],
  ])('accepts %s', async (_name, facts, id) => {
    await expect(assertBotCanPost(slackWith(facts), { id }, silentLogger)).resolves.toBe(undefined);
  });

  it.each([
    [
      'a private channel without the bot',
      'channel_not_found',
      { id: 'C2', name: 'secret' },
      new ChannelUnreachableError('C2', 'not_in_channel'),
    ],
    [
      'a DM between people',
      'channel_not_found',
      { id: 'D2', name: 'directmessage' },
      new ChannelUnreachableError('D2', 'direct_message'),
    ],
    [
      'a group DM without the bot',
      'channel_not_found',
      { id: 'C3', name: 'mpdm-ann--bob-1' },
      new ChannelUnreachableError('C3', 'direct_message'),
    ],
    [
      'an archived channel',
      { is_channel: true, is_archived: true },
      { id: 'C4' },
      new ChannelUnreachableError('C4', 'archived'),
    ],
  ])('refuses %s', async (_name, answer, channel, expected) => {
    const check = assertBotCanPost(slackWith(answer), channel, silentLogger);
    await expect(check).rejects.toEqual(expected);
    await expect(check).rejects.toBeInstanceOf(expected.constructor);
  });

  it('lets creation go on when the app lacks the scope to check', async () => {
    await expect(
      assertBotCanPost(slackWith('missing_scope'), { id: 'C5' }, silentLogger),
    ).resolves.toBe(undefined);
  });
});

describe('AdminDirectory', () => {
  it('reads is_admin and is_owner from users.info once per person', async () => {
    const slack = new FakeSlack();
    slack.override('users.info', (args) => ({
      ok: true,
      user: { id: args.user, is_admin: args.user === 'UA', is_owner: args.user === 'UO' },
    }));
    const client = new WebClient('xoxb-test', { fetch: slack.fetch });
    const admins = new AdminDirectory({ logger: silentLogger });
    const ask = (userId: string) => admins.isAdmin(client, { teamId: 'T1', userId });
    expect([await ask('UA'), await ask('UO'), await ask('UP'), await ask('UA')]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect(slack.api('users.info').map((call) => call.args.user)).toEqual(['UA', 'UO', 'UP']);
  });

  it('says no, and asks again next time, when Slack cannot answer', async () => {
    const slack = new FakeSlack();
    slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    const client = new WebClient('xoxb-test', { fetch: slack.fetch, retryConfig: { retries: 0 } });
    const admins = new AdminDirectory({ logger: silentLogger });
    expect(await admins.isAdmin(client, { teamId: 'T1', userId: 'UX' })).toBe(false);
    expect(await admins.isAdmin(client, { teamId: 'T1', userId: 'UX' })).toBe(false);
    expect(slack.api('users.info')).toHaveLength(2);
  });
});
