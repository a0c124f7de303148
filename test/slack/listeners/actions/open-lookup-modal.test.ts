import { describe, expect, it } from 'vitest';
import { actionIds } from '../../../../src/render/ids.ts';
import {
  lookupModalUnavailableText,
  renderLookupModal,
} from '../../../../src/render/management/home.ts';
import { openLookupModal } from '../../../../src/slack/listeners/actions/open-lookup-modal.ts';
import {
  buttonArgs,
  type ListenerWorld,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { userZone } from '../../../helpers/lookups.ts';
import { userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld();

/** "Look up" pressed on the Home tab. */
async function pressLookUp(w: ListenerWorld) {
  const args = buttonArgs(w, {
    actionId: actionIds.openLookup,
    container: { type: 'view', view_id: 'V0HOME0001' },
    view: { id: 'V0HOME0001', type: 'home', callback_id: 'influencers_home' },
  });
  await openLookupModal(w.deps)(args);
  expect(args.ack).toHaveBeenCalledExactlyOnceWith();
  return args;
}

describe('openLookupModal', () => {
  it('opens the lookup modal with the trigger, the person’s zone prefilled', async () => {
    const w = world();
    const args = await pressLookUp(w);
    expect(w.slack.api('views.open').map((call) => call.args)).toEqual([
      { trigger_id: args.body.trigger_id, view: renderLookupModal({ zone: userZone }) },
    ]);
  });

  it('leaves the zone empty when Slack cannot give it', async () => {
    const w = world();
    w.slack.override('users.info', () => ({ ok: false, error: 'user_not_found' }));
    await pressLookUp(w);
    expect(w.slack.api('views.open')[0]?.args.view).toEqual(renderLookupModal({}));
  });

  it('says in the DM to press again when Slack rate limits views.open', async () => {
    const w = world();
    w.slack.rateLimit('views.open', 30);
    await pressLookUp(w);
    expect(w.slack.api('views.open')).toHaveLength(1);
    expect(w.slack.api('chat.postMessage').map((call) => call.args)).toEqual([
      expect.objectContaining({ channel: userId, text: lookupModalUnavailableText }),
    ]);
    expect(w.logged('Slack rate limited views.open; telling the person')).toEqual([
      expect.objectContaining({ retryAfterMs: 30_000 }),
    ]);
  });

  it('logs, and posts nothing, when Slack refuses the modal otherwise', async () => {
    const w = world();
    w.slack.override('views.open', () => ({ ok: false, error: 'expired_trigger_id' }));
    await pressLookUp(w);
    expect(w.slack.api('chat.postMessage')).toEqual([]);
    expect(w.logged('could not open the lookup modal')).toEqual([
      expect.objectContaining({ method: 'views.open', slackError: 'expired_trigger_id' }),
    ]);
  });
});
