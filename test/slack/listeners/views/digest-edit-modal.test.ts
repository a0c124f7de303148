import type { InputBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { DigestPermissionError } from '../../../../src/errors.ts';
import type { Digest } from '../../../../src/model/digest.ts';
import { renderError } from '../../../../src/render/errors.ts';
import { digestEditCallbackId } from '../../../../src/render/ids.ts';
import { renderDigestEditModal } from '../../../../src/render/management/digest-edit.ts';
import { renderDigestList } from '../../../../src/render/management/digest-management.ts';
import {
  type EditOrigin,
  encodeEditOrigin,
} from '../../../../src/slack/listeners/actions/digest-edit.ts';
import { digestEditSubmit } from '../../../../src/slack/listeners/views/digest-edit-modal.ts';
import {
  type ListenerWorld,
  storedDigest,
  useListenerWorld,
  viewArgs,
} from '../../../helpers/listener-args.ts';
import { fixedNow } from '../../../helpers/lookups.ts';
import { responseUrlFor, teamId, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld();
const channelId = 'C0CHANNEL1';

type Values = Record<string, Record<string, Record<string, unknown>>>;

/** The modal's `state.values` as Slack sends them: what it was prefilled with, `changes` typed over. */
function typedOver(
  digest: Digest,
  changes: Partial<Record<string, string | readonly string[]>>,
): Values {
  const values: Values = {};
  for (const block of renderDigestEditModal(digest, '').blocks) {
    if (block.type !== 'input') continue;
    const element = (block as InputBlock).element as {
      action_id: string;
      type: string;
      initial_value?: string;
      initial_option?: unknown;
      initial_options?: unknown[];
    };
    const change = changes[element.action_id];
    const several = element.type === 'multi_static_select' || element.type === 'checkboxes';
    values[block.block_id as string] = {
      [element.action_id]: several
        ? {
            type: element.type,
            selected_options: Array.isArray(change)
              ? change.map((value) => ({ value }))
              : (element.initial_options ?? []),
          }
        : element.type === 'static_select'
          ? {
              type: element.type,
              selected_option: change === undefined ? element.initial_option : { value: change },
            }
          : { type: element.type, value: change ?? element.initial_value },
    };
  }
  return values;
}

/** The Edit modal of `digest` saved with `changes`, opened from `origin`. */
async function save(
  w: ListenerWorld,
  digest: Digest,
  changes: Partial<Record<string, string | readonly string[]>>,
  origin: EditOrigin | string = { id: digest.id },
) {
  const args = viewArgs(w, {
    callbackId: digestEditCallbackId,
    values: typedOver(digest, changes),
    privateMetadata: typeof origin === 'string' ? origin : encodeEditOrigin(origin),
  });
  await digestEditSubmit(w.deps)(args);
  await w.settle();
  return args;
}

const fromList = (digest: Digest): EditOrigin => ({
  id: digest.id,
  responseUrl: responseUrlFor('list'),
  channelId,
});

describe('digestEditSubmit', () => {
  it('saves the edit, closes the modal, then refreshes the list and confirms under it', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const origin = fromList(digest);
    const args = await save(w, digest, { schedule: 'every tuesday at 10am', top: '7' }, origin);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    const edited = (await w.deps.digests.database.digests.get(digest.id)) as Digest;
    expect(edited).toMatchObject({ schedule: { expression: '0 10 * * 2' }, top: 7 });
    const replies = w.slack.responses(origin.responseUrl).map((reply) => reply.args);
    expect(replies).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: true,
        ...renderDigestList([edited], { now: fixedNow, channelId, viewerId: userId }),
      },
      expect.objectContaining({
        response_type: 'ephemeral',
        replace_original: false,
        text: expect.stringMatching(new RegExp(`^Digest ${digest.id} updated: `)),
      }),
    ]);
  });

  it('refreshes the page of a long list that holds the edited digest', async () => {
    const w = world();
    for (let i = 0; i < 30; i++) await storedDigest(w);
    const listed = await w.deps.digests.database.digests.listByChannel(teamId, channelId);
    const digest = listed.at(-1) as Digest;
    const origin = fromList(digest);
    await save(w, digest, { top: '7' }, origin);
    const digests = await w.deps.digests.database.digests.listByChannel(digest.teamId, channelId);
    const [list] = w.slack.responses(origin.responseUrl).map((reply) => reply.args);
    expect(list).toEqual({
      response_type: 'ephemeral',
      replace_original: true,
      ...renderDigestList(digests, {
        now: fixedNow,
        channelId,
        viewerId: userId,
        holding: digest.id,
      }),
    });
    expect(JSON.stringify(list)).toContain(`"digest_actions:${digest.id}"`);
  });

  it('publishes the Home tab again and confirms in the DM for an edit from the Home tab', async () => {
    const w = world();
    const digest = await storedDigest(w);
    await save(w, digest, { top: '3' });
    expect((await w.deps.digests.database.digests.get(digest.id))?.top).toBe(3);
    expect(w.slack.api('views.publish').map((call) => call.args.user_id)).toEqual([userId]);
    expect(w.slack.api('chat.postMessage').map((call) => call.args)).toEqual([
      expect.objectContaining({
        channel: userId,
        text: expect.stringMatching(new RegExp(`^Digest ${digest.id} updated: `)),
      }),
    ]);
  });

  it('keeps the modal open with the grammar’s words under the input it cannot read', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const args = await save(w, digest, { schedule: 'every 2 months at 9am' }, fromList(digest));
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_action: 'errors',
      errors: { digest_edit_schedule: expect.stringContaining('every 2 months') },
    });
    expect(await w.deps.digests.database.digests.get(digest.id)).toEqual(digest);
    expect(w.slack.calls).toEqual([]);
  });

  it('saves who to keep and the canvas with the rest of the edit', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const args = await save(w, digest, {
      who: ['Doctor'],
      without: ['Spam'],
      canvas: ['on'],
      top: '7',
    });
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(await w.deps.digests.database.digests.get(digest.id)).toMatchObject({
      top: 7,
      stakeholders: { include: ['Doctor'], exclude: ['Spam'] },
      canvas: { enabled: true },
    });
  });

  it('keeps the modal open, saving nothing, when people are both kept and left out', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const args = await save(w, digest, { who: ['Doctor'], without: ['Doctor'], top: '7' });
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_action: 'errors',
      errors: {
        digest_edit_without:
          'Doctors cannot be both kept and left out: take it out of Only or out of Leave out.',
      },
    });
    expect(await w.deps.digests.database.digests.get(digest.id)).toEqual(digest);
    expect(w.slack.calls).toEqual([]);
  });

  it('puts a canvas refused to a watch of one account under the canvas checkbox', async () => {
    const w = world();
    const digest = await storedDigest(w, { postWhen: 'new', account: 'DrFerreiraI' });
    // A checkbox ticked in a modal opened before the digest could keep no canvas.
    const args = viewArgs(w, {
      callbackId: digestEditCallbackId,
      values: {
        digest_edit_top: { top: { type: 'plain_text_input', value: '10' } },
        digest_edit_canvas: { canvas: { type: 'checkboxes', selected_options: [{ value: 'on' }] } },
      },
      privateMetadata: encodeEditOrigin({ id: digest.id }),
    });
    await digestEditSubmit(w.deps)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_action: 'errors',
      errors: { digest_edit_canvas: expect.stringContaining('keeps no channel canvas') },
    });
    expect((await w.deps.digests.database.digests.get(digest.id))?.canvas?.enabled ?? false).toBe(
      false,
    );
  });

  it('closes the modal and says why when the person may not change the digest', async () => {
    const w = world();
    const digest = await storedDigest(w, { creatorId: 'U0OTHER01' });
    const origin = fromList(digest);
    const args = await save(w, digest, { top: '3' }, origin);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(w.slack.responses(origin.responseUrl).map((reply) => reply.args)).toEqual([
      {
        response_type: 'ephemeral',
        replace_original: false,
        ...renderError(new DigestPermissionError(digest.id, 'U0OTHER01')),
      },
    ]);
    expect((await w.deps.digests.database.digests.get(digest.id))?.top).toBe(digest.top);
  });

  it('closes a modal that came back without its digest, and logs it', async () => {
    const w = world();
    const digest = await storedDigest(w);
    const args = await save(w, digest, { top: '3' }, 'garbled');
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(w.logged('an Edit modal came back without its digest')).toHaveLength(1);
    expect(w.slack.calls).toEqual([]);
  });
});
