import { describe, expect, it } from 'vitest';
import { DigestNotFoundError, DigestPermissionError } from '../../../../src/errors.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { digestActionIds } from '../../../../src/render/ids.ts';
import { renderDigestEditModal } from '../../../../src/render/management/digest-edit.ts';
import {
  decodeEditOrigin,
  digestEditButton,
  encodeEditOrigin,
} from '../../../../src/slack/listeners/actions/digest-edit.ts';
import {
  buttonArgs,
  type ListenerWorld,
  storedDigest,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { botUserId, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld();

const home = {
  container: { type: 'view', view_id: 'V0HOME0001' },
  view: { id: 'V0HOME0001', type: 'home', callback_id: 'influencers_home' },
};

/** Edit pressed under the channel list, or on the Home tab with `home`. */
async function pressEdit(w: ListenerWorld, value: string, where: Partial<typeof home> = {}) {
  const args = buttonArgs(w, { actionId: digestActionIds.edit, value, ...where });
  await digestEditButton(w.deps)(args);
  expect(args.ack).toHaveBeenCalledExactlyOnceWith();
  return args;
}

describe('digestEditButton', () => {
  it('opens the Edit modal, prefilled, remembering the list it was pressed under', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const args = await pressEdit(w, digest.id.toLowerCase());
    const origin = encodeEditOrigin({
      id: digest.id,
      responseUrl: args.body.response_url as string,
      channelId: 'C0CHANNEL1',
    });
    expect(w.slack.api('views.open').map((call) => call.args)).toEqual([
      { trigger_id: args.body.trigger_id, view: renderDigestEditModal(digest, origin) },
    ]);
  });

  it('opens the Edit modal from the Home tab, remembering only the digest', async () => {
    const w = world();
    const digest = await storedDigest(w);
    await pressEdit(w, digest.id, home);
    const view = w.slack.api('views.open')[0]?.args.view as { private_metadata: string };
    expect(decodeEditOrigin(view.private_metadata)).toEqual({ id: digest.id });
  });

  it('refuses, under the list, someone who may not change the digest', async () => {
    const w = world();
    const digest = await storedDigest(w, { creatorId: 'U0OTHER01' });
    const args = await pressEdit(w, digest.id);
    expect(w.slack.api('views.open')).toEqual([]);
    expect(w.slack.responses(args.body.response_url).map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: false,
        ...renderError(new DigestPermissionError(digest.id, 'U0OTHER01'), { botUserId }),
      },
    ]);
  });

  it('says in the DM that a digest pressed on the Home tab is gone', async () => {
    const w = world();
    await pressEdit(w, 'ZZZZZZ', home);
    expect(w.slack.api('chat.postMessage').map((call) => call.args)).toEqual([
      expect.objectContaining({
        channel: userId,
        text: renderError(new DigestNotFoundError('ZZZZZZ'), { botUserId }).text,
      }),
    ]);
  });
});

describe('the Edit modal’s origin', () => {
  it('comes back as it was written', () => {
    const origin = { id: '7K3M9Q', responseUrl: 'https://hooks.slack.test/x', channelId: 'C1' };
    expect(decodeEditOrigin(encodeEditOrigin(origin))).toEqual(origin);
  });

  it.each(['', 'not json', '{"responseUrl":"https://hooks.slack.test/x"}', '{"id":7}'])(
    'reads %j as no origin',
    (metadata) => {
      expect(decodeEditOrigin(metadata)).toBeUndefined();
    },
  );
});
