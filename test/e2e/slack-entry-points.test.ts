import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackIds, shortcutIds } from '../../src/render/ids.ts';
import type { Harness } from '../helpers/harness.ts';
import { startLookupHarness, userZone } from '../helpers/lookups.ts';
import { globalShortcut, userId } from '../helpers/payloads.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await startLookupHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('the Look up influencers shortcut over HTTP', () => {
  it('opens the lookup modal with its trigger, the zone prefilled', async () => {
    const shortcut = globalShortcut(shortcutIds.lookup);
    expect((await harness.send(shortcut)).status).toBe(200);
    const open = await harness.slack.waitFor(
      (call) => call.method === 'views.open' && call.args.trigger_id === shortcut.triggerId,
    );
    const view = open.args.view as { callback_id: string };
    expect(view.callback_id).toBe(callbackIds.lookupModal);
    expect(JSON.stringify(view)).toContain(userZone);
    expect(harness.slack.api('users.info').some((call) => call.args.user === userId)).toBe(true);
  });
});
