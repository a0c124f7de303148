import { describe, expect, it } from 'vitest';
import { type ParseError, UnknownDatabaseError } from '../../../../src/errors.ts';
import { parseLookup } from '../../../../src/parsing/index.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { actionIds } from '../../../../src/render/ids.ts';
import { renderHelp } from '../../../../src/render/lookups/help.ts';
import { renderPending, utcFallbackNote } from '../../../../src/render/lookups/status.ts';
import { renderConferenceHelp } from '../../../../src/render/management/conference-management.ts';
import { renderDigestHelp } from '../../../../src/render/management/digest-help.ts';
import { renderDigestList } from '../../../../src/render/management/digest-management.ts';
import { influencersCommand } from '../../../../src/slack/listeners/commands/influencers.ts';
import { commandArgs, useListenerWorld } from '../../../helpers/listener-args.ts';
import { fixedNow, request, userZone } from '../../../helpers/lookups.ts';
import { teamId, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });

describe('influencersCommand', () => {
  it('acks with what is looked up, then replaces it with the answer through response_url', async () => {
    const w = world();
    const args = commandArgs(w, { text: '#hcsm last week' });
    await influencersCommand(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderPending(request('#hcsm last week'), { now: fixedNow }),
    });
    expect(w.slack.api('users.info').map((call) => call.args.user)).toEqual([userId]);

    await w.settle();
    const answers = w.slack.responses(args.command.response_url);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.args).toMatchObject({
      response_type: 'ephemeral',
      replace_original: true,
      text: expect.stringMatching(/influencers for #hcsm/),
    });
    expect(JSON.stringify(answers[0]?.args.blocks)).toContain(actionIds.shareAnswer);
  });

  it.each([
    ['help', 'help'],
    ['empty text', ''],
    ['a greeting', 'hello'],
  ])(
    'answers %s with the usage in the ack, without asking Slack for a zone',
    async (_name, text) => {
      const w = world();
      const args = commandArgs(w, { text });
      await influencersCommand(w.deps)(args);
      expect(args.ack).toHaveBeenCalledExactlyOnceWith({
        response_type: 'ephemeral',
        ...renderHelp({ command: '/influencers' }),
      });
      await w.settle();
      expect(w.slack.calls).toEqual([]);
    },
  );

  it('answers a parse error in the ack and looks nothing up', async () => {
    const w = world();
    const parsed = parseLookup('last week', { now: fixedNow, zone: userZone }) as ParseError;
    expect(parsed).toBeInstanceOf(Error);
    const args = commandArgs(w, { text: 'last week' });
    await influencersCommand(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderError(parsed),
    });
    await w.settle();
    expect(w.slack.responses()).toEqual([]);
    expect(w.asked()).toBe(0);
  });

  it('reads the lookup in UTC, and says so, when Slack cannot give the person’s zone', async () => {
    const w = world();
    w.slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    const args = commandArgs(w, { text: '#hcsm yesterday' });
    await influencersCommand(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderPending(request('#hcsm yesterday', 'UTC'), {
        now: fixedNow,
        note: utcFallbackNote,
      }),
    });
    await w.settle();
  });

  it('replaces the ack with the service’s refusal in words', async () => {
    const w = world();
    const args = commandArgs(w, { text: '#nosuchdb last week' });
    await influencersCommand(w.deps)(args);
    await w.settle();
    const [answer] = w.slack.responses(args.command.response_url);
    expect(answer?.args).toMatchObject({
      response_type: 'ephemeral',
      replace_original: true,
      ...renderError(new UnknownDatabaseError('#nosuchdb')),
    });
  });

  it('sends the CSV file a lookup asks for to the person’s DM', async () => {
    const w = world();
    const args = commandArgs(w, { text: '#hcsm last week export' });
    await influencersCommand(w.deps)(args);
    await w.settle();
    expect(w.slack.api('conversations.open')[0]?.args.users).toBe(userId);
    expect(w.slack.files()).toEqual([
      expect.objectContaining({ channel: `D${userId.slice(1)}`, threadTs: undefined }),
    ]);
  });

  it('hands `digest help` to the digest command, which answers in the ack', async () => {
    const w = world();
    const args = commandArgs(w, { text: 'digest help' });
    await influencersCommand(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderDigestHelp({ command: '/influencers' }),
    });
  });

  it('hands `digests` to the digest command, which lists the channel’s digests', async () => {
    const w = world();
    const args = commandArgs(w, { text: 'digests', channelId: 'C0DIGESTS1' });
    await influencersCommand(w.deps)(args);
    await w.settle();
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(w.slack.responses(args.command.response_url).map((call) => call.args)).toEqual([
      {
        response_type: 'ephemeral',
        ...renderDigestList([], {
          now: fixedNow,
          channelId: 'C0DIGESTS1',
          viewerId: userId,
          command: '/influencers',
        }),
      },
    ]);
    expect(w.asked()).toBe(0);
  });

  it('hands `watch …` to the digest command, which creates a digest', async () => {
    const w = world();
    const args = commandArgs(w, { text: 'watch #hcsm every monday at 9am' });
    await influencersCommand(w.deps)(args);
    await w.settle();
    const stored = await w.deps.digests.database.digests.listByChannel(teamId, 'C0CHANNEL1');
    expect(stored.map((digest) => digest.databases)).toEqual([['#hcsm']]);
  });

  it('answers `conference help` with the conference usage in the ack, asking Slack nothing', async () => {
    const w = world();
    const args = commandArgs(w, { text: 'conference help' });
    await influencersCommand(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderConferenceHelp('/influencers'),
    });
    await w.settle();
    expect(w.slack.calls).toEqual([]);
  });

  it('answers a conference command it cannot read in the ack, creating nothing', async () => {
    const w = world();
    const args = commandArgs(w, { text: 'conference #ASCO26 from May 29' });
    await influencersCommand(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        response_type: 'ephemeral',
        text: expect.stringContaining('Say the last day too'),
      }),
    );
  });
});
