import { describe, expect, it } from 'vitest';
import { shortcutIds } from '../../../../src/render/ids.ts';
import { renderLookupModal } from '../../../../src/render/management/home.ts';
import { register } from '../../../../src/slack/listeners/shortcuts/index.ts';
import {
  fakeApp,
  type ShortcutArgs,
  shortcutArgs,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { userZone } from '../../../helpers/lookups.ts';

const world = useListenerWorld();

describe('shortcuts register', () => {
  it('listens for the Look up influencers shortcut only', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    expect(registered.map(({ method, id }) => [method, id])).toEqual([
      ['shortcut', shortcutIds.lookup],
    ]);
  });

  it('opens the lookup modal with the shortcut’s trigger, the zone prefilled', async () => {
    const w = world();
    const { app, listener } = fakeApp();
    register(app, w.deps);
    const args = shortcutArgs(w, shortcutIds.lookup);
    await listener<ShortcutArgs>('shortcut', shortcutIds.lookup)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith();
    expect(w.slack.api('views.open').map((call) => call.args)).toEqual([
      { trigger_id: args.body.trigger_id, view: renderLookupModal({ zone: userZone }) },
    ]);
  });
});
