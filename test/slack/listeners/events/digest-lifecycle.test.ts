import { describe, expect, it } from 'vitest';
import {
  appUninstalled,
  tokensRevoked,
} from '../../../../src/slack/listeners/events/digest-lifecycle.ts';
import {
  eventArgs,
  type ListenerWorld,
  storedDigest,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { otherTeamId } from '../../../helpers/payloads.ts';

const world = useListenerWorld();

/** A digest of the payloads' workspace and one of another, both active. */
async function twoWorkspaces(w: ListenerWorld) {
  const ours = await storedDigest(w);
  const theirs = await storedDigest(w, { teamId: otherTeamId });
  const statusOf = async (id: string) => {
    const digest = await w.deps.digests.database.digests.get(id);
    return { status: digest?.status, reason: digest?.pauseReason?.kind };
  };
  return { ours: () => statusOf(ours.id), theirs: () => statusOf(theirs.id) };
}

const tokensRevokedEvent = (tokens: Record<string, string[]>) => ({
  type: 'tokens_revoked',
  tokens,
  event_ts: '1700000000.000700',
});

describe('appUninstalled', () => {
  it('pauses every digest of the workspace, and only of that one', async () => {
    const w = world();
    const digests = await twoWorkspaces(w);
    await appUninstalled(w.deps)(
      eventArgs<'app_uninstalled'>(w, { type: 'app_uninstalled', event_ts: '1700000000.000700' }),
    );
    expect(await digests.ours()).toEqual({ status: 'paused', reason: 'app_uninstalled' });
    expect(await digests.theirs()).toEqual({ status: 'active', reason: undefined });
  });

  it('only logs when the event names no workspace', async () => {
    const w = world();
    const digests = await twoWorkspaces(w);
    const args = eventArgs<'app_uninstalled'>(w, { type: 'app_uninstalled' });
    delete (args.body as { team_id?: string }).team_id;
    delete args.context.teamId;
    await appUninstalled(w.deps)(args);
    expect(w.logged('the app left a workspace that the event does not name')).toEqual([
      expect.objectContaining({ kind: 'app_uninstalled' }),
    ]);
    expect(await digests.ours()).toEqual({ status: 'active', reason: undefined });
  });
});

describe('tokensRevoked', () => {
  it('pauses the workspace’s digests when the bot’s token is revoked', async () => {
    const w = world();
    const digests = await twoWorkspaces(w);
    await tokensRevoked(w.deps)(
      eventArgs<'tokens_revoked'>(w, tokensRevokedEvent({ bot: ['U0BOT0001'] })),
    );
    expect(await digests.ours()).toEqual({ status: 'paused', reason: 'tokens_revoked' });
    expect(await digests.theirs()).toEqual({ status: 'active', reason: undefined });
  });

  it('leaves the digests running when only people’s tokens are revoked', async () => {
    const w = world();
    const digests = await twoWorkspaces(w);
    await tokensRevoked(w.deps)(
      eventArgs<'tokens_revoked'>(w, tokensRevokedEvent({ oauth: ['U0PERSON1'] })),
    );
    expect(await digests.ours()).toEqual({ status: 'active', reason: undefined });
  });
});
