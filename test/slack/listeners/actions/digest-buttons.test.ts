import { describe, expect, it } from 'vitest';
import { DigestNotFoundError, DigestPermissionError } from '../../../../src/errors.ts';
import type { DigestAction } from '../../../../src/model/commands.ts';
import type { Digest } from '../../../../src/model/digest.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { digestActionIds, digestListPageIds } from '../../../../src/render/ids.ts';
import {
  renderDigestActionResult,
  renderDigestList,
} from '../../../../src/render/management/digest-management.ts';
import {
  digestButton,
  digestListPageButton,
} from '../../../../src/slack/listeners/actions/digest-buttons.ts';
import {
  buttonArgs,
  type ListenerWorld,
  storedDigest,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { fixedNow } from '../../../helpers/lookups.ts';
import { botUserId, teamId, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });
const channelId = 'C0CHANNEL1';
const adminId = 'U0ADMIN01';

const actionIdOf: Readonly<Record<DigestAction, string>> = {
  run: digestActionIds.runNow,
  pause: digestActionIds.pause,
  resume: digestActionIds.resume,
  remove: digestActionIds.remove,
};

/** Slack's users.info: only {@link adminId} administers the workspace. */
function withAdmin(w: ListenerWorld): void {
  w.slack.override('users.info', (args) => ({
    ok: true,
    user: { id: args.user, tz: 'UTC', is_admin: args.user === adminId, is_owner: false },
  }));
}

/**
 * Presses a digest's button under the channel list, or on the Home tab, as `by`; returns what
 * reached the list's response_url.
 */
async function press(
  w: ListenerWorld,
  action: DigestAction,
  value: string,
  options: { readonly home?: boolean; readonly by?: string } = {},
) {
  withAdmin(w);
  const args = buttonArgs(w, {
    actionId: actionIdOf[action],
    value,
    ...(options.home === true
      ? {
          container: { type: 'view', view_id: 'V0HOME0001' },
          view: { id: 'V0HOME0001', type: 'home', callback_id: 'influencers_home' },
        }
      : {}),
  });
  if (options.by !== undefined) args.body.user.id = options.by;
  await digestButton(w.deps, action)(args);
  await w.settle();
  expect(args.ack).toHaveBeenCalledExactlyOnceWith();
  return (
    args.body.response_url === undefined ? [] : w.slack.responses(args.body.response_url)
  ).map((reply) => reply.args);
}

const listed = (digests: readonly Digest[], viewerId = userId) => ({
  response_type: 'ephemeral',
  replace_original: true,
  ...renderDigestList(digests, { now: fixedNow, channelId, viewerId }),
});

const told = (message: { text: string }) => ({
  response_type: 'ephemeral',
  replace_original: false,
  ...message,
});

const stored = (w: ListenerWorld, id: string) => w.deps.digests.database.digests.get(id);

describe('digestButton', () => {
  it('pauses a digest from the channel list, then shows the list again and says so', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const replies = await press(w, 'pause', digest.id);
    const paused = (await stored(w, digest.id)) as Digest;
    expect(paused.status).toBe('paused');
    expect(replies).toEqual([
      listed([paused]),
      told(
        renderDigestActionResult(
          { action: 'pause', digest: paused, changed: true },
          { now: fixedNow },
        ),
      ),
    ]);
  });

  it('resumes a digest from the Home tab and publishes the tab again', async () => {
    const w = world();
    const digest = await storedDigest(w);
    await w.deps.digests.database.digests.pause(digest.id, fixedNow);
    const replies = await press(w, 'resume', digest.id, { home: true });
    expect(replies).toEqual([]);
    expect((await stored(w, digest.id))?.status).toBe('active');
    expect(w.slack.api('views.publish').map((call) => call.args.user_id)).toEqual([userId]);
  });

  it('lets a workspace admin remove someone else’s digest', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const replies = await press(w, 'remove', digest.id, { by: adminId });
    expect(await stored(w, digest.id)).toBeUndefined();
    expect(replies).toEqual([
      listed([], adminId),
      told(renderDigestActionResult({ action: 'remove', digest }, { now: fixedNow })),
    ]);
  });

  it('refuses someone else’s digest to a person who is not an admin', async () => {
    const w = world();
    const digest = await storedDigest(w, { creatorId: 'U0OTHER01' });
    const replies = await press(w, 'remove', digest.id);
    expect(replies).toEqual([
      told(renderError(new DigestPermissionError(digest.id, 'U0OTHER01'), { botUserId })),
    ]);
    expect((await stored(w, digest.id))?.status).toBe('active');
  });

  it('says the digest is gone when the button names none', async () => {
    const w = world();
    const replies = await press(w, 'pause', 'ZZZZZZ');
    expect(replies).toEqual([told(renderError(new DigestNotFoundError('ZZZZZZ'), { botUserId }))]);
  });

  it('tells a refusal on the Home tab in the DM, then shows the tab as it is', async () => {
    const w = world();
    const digest = await storedDigest(w, { creatorId: 'U0OTHER01' });
    await press(w, 'pause', digest.id, { home: true });
    expect(w.slack.api('chat.postMessage').map((call) => call.args)).toEqual([
      expect.objectContaining({
        channel: userId,
        text: renderError(new DigestPermissionError(digest.id, 'U0OTHER01'), { botUserId }).text,
      }),
    ]);
    expect(w.slack.api('views.publish')).toHaveLength(1);
  });

  it('runs a digest now: says it started, posts it in its channel, then says how it went', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const replies = await press(w, 'run', digest.id);
    expect(replies[0]).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      ...renderDigestActionResult({ action: 'run', digest, outcome: 'started' }, { now: fixedNow }),
    });
    expect(replies.slice(1).map((reply) => reply.replace_original)).toEqual([true, false]);
    expect(String(replies[2]?.text)).toContain('was posted');
    const posted = w.slack
      .api('chat.postMessage')
      .filter((call) => call.args.channel === channelId);
    expect(posted).toHaveLength(1);
    expect(await w.deps.digests.database.digests.listByChannel(teamId, channelId)).toHaveLength(1);
  });
});

describe('the digest list’s pages', () => {
  async function thirty(w: ListenerWorld): Promise<Digest[]> {
    for (let i = 0; i < 30; i++) await storedDigest(w);
    return w.deps.digests.database.digests.listByChannel(teamId, channelId);
  }

  it('shows the page Next names in place of the one pressed', async () => {
    const w = world();
    const digests = await thirty(w);
    const args = buttonArgs(w, { actionId: digestListPageIds.next, value: '1' });
    await digestListPageButton(w.deps)(args);
    await w.settle();
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    const replies = w.slack.responses(args.body.response_url ?? '').map((reply) => reply.args);
    expect(replies).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: true,
        ...renderDigestList(digests, { now: fixedNow, channelId, viewerId: userId, page: 1 }),
      },
    ]);
  });

  it('shows again the page of the digest whose button was pressed', async () => {
    const w = world();
    const digests = await thirty(w);
    const last = digests.at(-1) as Digest;
    const [list] = await press(w, 'pause', last.id);
    const now = await w.deps.digests.database.digests.listByChannel(teamId, channelId);
    expect(list).toEqual({
      response_type: 'ephemeral',
      replace_original: true,
      ...renderDigestList(now, { now: fixedNow, channelId, viewerId: userId, holding: last.id }),
    });
    expect(JSON.stringify(list)).toContain(`"digest_actions:${last.id}"`);
  });
});
