import { describe, expect, it } from 'vitest';
import type { ParseError } from '../../../../src/errors.ts';
import { callbackIds, lookupModalInputs } from '../../../../src/render/ids.ts';
import { renderPending, utcFallbackNote } from '../../../../src/render/lookups/status.ts';
import { modalErrors } from '../../../../src/render/management/home.ts';
import { lookupModalSubmit } from '../../../../src/slack/listeners/views/lookup-modal.ts';
import { dmOf } from '../../../helpers/fake-slack.ts';
import { type ListenerWorld, useListenerWorld, viewArgs } from '../../../helpers/listener-args.ts';
import { fixedNow, request, userZone } from '../../../helpers/lookups.ts';
import { userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld({ sandbox: true });

type Typed = Partial<Record<'databases' | 'window' | 'zone' | 'top', string>>;

/** The lookup modal submitted with these inputs typed (the others left empty). */
async function submit(w: ListenerWorld, typed: Typed) {
  const values: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [input, value] of Object.entries(typed)) {
    const { blockId, actionId } = lookupModalInputs[input as keyof Typed];
    values[blockId] = { [actionId]: { type: 'plain_text_input', value } };
  }
  const args = viewArgs(w, { callbackId: callbackIds.lookupModal, values });
  await lookupModalSubmit(w.deps)(args);
  await w.settle();
  return args;
}

/** What the app posted in the person's DM (posted to their user id, updated by the DM's), in order. */
function dm(w: ListenerWorld) {
  return w.slack.calls
    .filter((call) => call.method === 'chat.postMessage' || call.method === 'chat.update')
    .map((call) => ({ method: call.method, channel: call.args.channel, text: call.args.text }));
}

describe('lookupModalSubmit', () => {
  it('closes the modal, then answers in the DM: what is looked up, replaced by the answer', async () => {
    const w = world();
    const args = await submit(w, { databases: '#hcsm', window: 'last week', top: '10' });
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(dm(w)).toEqual([
      {
        method: 'chat.postMessage',
        channel: userId,
        text: renderPending(request('#hcsm last week top 10'), { now: fixedNow }).text,
      },
      {
        method: 'chat.update',
        channel: dmOf(userId),
        text: expect.stringMatching(/influencers for #hcsm/),
      },
    ]);
  });

  it('replaces the pending post by the DM id Slack answered, never the person’s id', async () => {
    const w = world();
    await submit(w, { databases: '#hcsm', window: 'last week' });
    const [update, ...more] = w.slack.api('chat.update');
    expect(update?.args.channel).toBe(dmOf(userId));
    expect(more).toEqual([]);
    expect(w.slack.api('chat.postMessage')).toHaveLength(1);
  });

  it('reads the window in the zone typed in the modal', async () => {
    const w = world();
    await submit(w, { databases: '#hcsm', window: 'yesterday', zone: 'Europe/London' });
    expect(dm(w)[0]?.text).toBe(
      renderPending(request('#hcsm yesterday in Europe/London'), { now: fixedNow }).text,
    );
  });

  it('reads the window in UTC, and says so, when no zone is typed or known', async () => {
    const w = world();
    w.slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    await submit(w, { databases: '#hcsm', window: 'yesterday' });
    expect(dm(w)[0]?.text).toBe(
      renderPending(request('#hcsm yesterday', 'UTC'), { now: fixedNow, note: utcFallbackNote })
        .text,
    );
  });

  it('keeps the modal open with the parser’s words under the input they concern', async () => {
    const w = world();
    const parsed = w.deps.flow.parse('#hcsm from Nov 15 to Nov 1', userZone) as ParseError;
    expect(parsed).toBeInstanceOf(Error);
    const args = await submit(w, { databases: '#hcsm', window: 'from Nov 15 to Nov 1' });
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_action: 'errors',
      errors: modalErrors(parsed),
    });
    expect(Object.keys(modalErrors(parsed))).toEqual([lookupModalInputs.window.blockId]);
    expect(dm(w)).toEqual([]);
    expect(w.asked()).toBe(0);
  });

  it('logs, and throws nothing, when Slack refuses the DM', async () => {
    const w = world();
    w.slack.override('chat.postMessage', () => ({ ok: false, error: 'messages_tab_disabled' }));
    const args = await submit(w, { databases: '#hcsm', window: 'last week' });
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(w.logged('could not deliver a lookup from the modal')).toHaveLength(1);
  });
});
