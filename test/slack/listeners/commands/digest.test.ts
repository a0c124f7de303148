import { describe, expect, it } from 'vitest';
import {
  ChannelUnreachableError,
  DigestPermissionError,
  ParseError,
} from '../../../../src/errors.ts';
import { confirmation } from '../../../../src/flows/digest-commands.ts';
import type { Digest } from '../../../../src/model/digest.ts';
import { parseDigestCommand } from '../../../../src/parsing/digest.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { digestUtcFallbackNote } from '../../../../src/render/lookups/status.ts';
import { renderDigestHelp } from '../../../../src/render/management/digest-help.ts';
import { renderDigestList } from '../../../../src/render/management/digest-management.ts';
import { digestCommand } from '../../../../src/slack/listeners/commands/digest.ts';
import { nextRuns } from '../../../../src/time/schedule.ts';
import {
  commandArgs,
  type ListenerWorld,
  storedDigest,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { fixedNow, now, userZone } from '../../../helpers/lookups.ts';
import { botUserId, teamId, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });
const channelId = 'C0CHANNEL1';
const create = 'digest #hcsm every monday at 9am';

/** `/influencers <text>` in the channel, as the slash command's listener hands it on. */
async function typed(w: ListenerWorld, text: string) {
  const args = commandArgs(w, { text, channelId });
  await digestCommand(w.deps)(args, text);
  await w.settle();
  return { ack: args.ack, replies: w.slack.responses(args.command.response_url) };
}

/** What a new digest's creator is told: what it does and its next three runs. */
function confirmed(digest: Digest, notes: readonly string[] = []) {
  return {
    response_type: 'ephemeral',
    ...confirmation(
      { now, commandName: '/influencers', botUserId },
      { digest, nextRuns: nextRuns(digest.schedule, fixedNow, 3) },
      { notes },
    ),
  };
}

const stored = (w: ListenerWorld) =>
  w.deps.digests.database.digests.listByChannel(teamId, channelId);

describe('digestCommand', () => {
  it('answers `digest help` in the ack and touches nothing', async () => {
    const w = world();
    const { ack, replies } = await typed(w, 'digest help');
    expect(ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderDigestHelp({ command: '/influencers' }),
    });
    expect(replies).toEqual([]);
    expect(w.slack.calls).toEqual([]);
  });

  it('refuses a schedule the grammar cannot read in the ack, and stores nothing', async () => {
    const w = world();
    const text = 'digest #hcsm cron "61 9 * * 1"';
    const parsed = parseDigestCommand(text, { now: fixedNow, zone: userZone });
    expect(parsed).toBeInstanceOf(ParseError);
    const { ack, replies } = await typed(w, text);
    expect(ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderError(parsed),
    });
    expect(replies).toEqual([]);
    expect(await stored(w)).toEqual([]);
  });

  it('acks at once, creates the digest in the creator’s zone, then confirms it', async () => {
    const w = world();
    const { ack, replies } = await typed(w, create);
    expect(ack).toHaveBeenCalledExactlyOnceWith();
    const [digest, ...others] = await stored(w);
    expect(others).toEqual([]);
    expect(digest).toMatchObject({
      creatorId: userId,
      databases: ['#hcsm'],
      schedule: { expression: '0 9 * * 1', zone: userZone },
      nextRunAt: new Date('2026-11-23T14:00:00Z'),
    });
    expect(replies.map((reply) => reply.args)).toEqual([confirmed(digest as Digest)]);
    expect(w.slack.api('conversations.info')[0]?.args.channel).toBe(channelId);
  });

  it('reads the creator’s zone again after the ack when Slack was too slow for it', async () => {
    const w = world();
    let asked = 0;
    w.slack.override('users.info', (args) =>
      ++asked === 1
        ? { ok: false, error: 'fatal_error' }
        : { ok: true, user: { id: args.user, tz: 'Europe/Berlin' } },
    );
    const { replies } = await typed(w, create);
    const [digest] = await stored(w);
    expect(digest?.schedule.zone).toBe('Europe/Berlin');
    expect(replies.map((reply) => reply.args)).toEqual([confirmed(digest as Digest)]);
  });

  it('creates the digest in UTC, and says so, when Slack never gives the zone', async () => {
    const w = world();
    w.slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    const { replies } = await typed(w, create);
    const [digest] = await stored(w);
    expect(digest?.schedule.zone).toBe('UTC');
    expect(replies.map((reply) => reply.args)).toEqual([
      confirmed(digest as Digest, [digestUtcFallbackNote]),
    ]);
  });

  it('refuses a channel the bot could never post in, after the ack', async () => {
    const w = world();
    w.slack.override('conversations.info', () => ({ ok: false, error: 'channel_not_found' }));
    const { ack, replies } = await typed(w, create);
    expect(ack).toHaveBeenCalledExactlyOnceWith();
    expect(replies.map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        ...renderError(new ChannelUnreachableError(channelId, 'not_in_channel'), { botUserId }),
      },
    ]);
    expect(await stored(w)).toEqual([]);
  });

  it('lists the channel’s digests without asking Slack for a zone', async () => {
    const w = world();
    const digest = await storedDigest(w, { channelId });
    const { ack, replies } = await typed(w, 'digests');
    expect(ack).toHaveBeenCalledExactlyOnceWith();
    expect(replies.map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        ...renderDigestList([digest], {
          now: fixedNow,
          channelId,
          viewerId: userId,
          command: '/influencers',
        }),
      },
    ]);
    expect(w.slack.api('users.info')).toEqual([]);
  });

  it('refuses to pause someone else’s digest for a person who is not an admin', async () => {
    const w = world();
    const digest = await storedDigest(w, { channelId, creatorId: 'U0OTHER01' });
    const { replies } = await typed(w, `digest pause ${digest.id}`);
    expect(replies.map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        ...renderError(new DigestPermissionError(digest.id, 'U0OTHER01'), { botUserId }),
      },
    ]);
    expect((await w.deps.digests.database.digests.get(digest.id))?.status).toBe('active');
  });
});
