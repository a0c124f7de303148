/**
 * A digest's Edit button pressed under the channel list, and its modal submitted with some
 * inputs changed, as Slack sends them: for end-to-end tests of the Edit form.
 */
import type { Digest } from '../../src/model/digest.ts';
import { digestActionIds, digestEditCallbackId } from '../../src/render/ids.ts';
import { blockAction, teamId, userId, viewSubmission } from './payloads.ts';

/** The Edit button pressed under the channel list, by `pressedBy`. */
export function pressEdit(digest: Digest, pressedBy = userId) {
  const payload = blockAction({
    actionId: digestActionIds.edit,
    value: digest.id,
    container: {
      type: 'message',
      message_ts: '1700000000.000100',
      channel_id: digest.channelId,
      is_ephemeral: true,
    },
  });
  const body = JSON.parse(new URLSearchParams(payload.body).get('payload') ?? '{}');
  body.user = { id: pressedBy, username: 'someone', team_id: teamId };
  body.channel = { id: digest.channelId, name: 'digests' };
  return { ...payload, body: new URLSearchParams({ payload: JSON.stringify(body) }).toString() };
}

interface ModalInput {
  readonly type: string;
  readonly block_id?: string;
  readonly element?: {
    readonly action_id: string;
    readonly type: string;
    readonly initial_value?: string;
    readonly initial_option?: unknown;
    readonly initial_options?: unknown[];
  };
}

/**
 * The submitted modal, with `changes` typed over what it was prefilled with: a text or a
 * select's value, or the values chosen in a multi-select or the checkboxes.
 */
export function submittedEdit(
  view: Record<string, unknown>,
  changes: Partial<Record<string, string | readonly string[]>>,
) {
  const values: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const block of view.blocks as ModalInput[]) {
    if (block.type !== 'input' || block.block_id === undefined || block.element === undefined) {
      continue;
    }
    const { action_id: actionId, type } = block.element;
    const change = changes[actionId];
    const several = type === 'multi_static_select' || type === 'checkboxes';
    values[block.block_id] = {
      [actionId]: several
        ? {
            type,
            selected_options: Array.isArray(change)
              ? change.map((value) => ({ value }))
              : (block.element.initial_options ?? []),
          }
        : type === 'static_select'
          ? {
              type,
              selected_option:
                change === undefined ? block.element.initial_option : { value: change },
            }
          : { type, value: change ?? block.element.initial_value },
    };
  }
  return viewSubmission({
    callbackId: digestEditCallbackId,
    values,
    privateMetadata: String(view.private_metadata),
  });
}
