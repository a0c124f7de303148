import { describe, expect, it } from 'vitest';
import { renderDigestHomeSection } from '../../../../src/render/management/digest-management.ts';
import { renderHome } from '../../../../src/render/management/home.ts';
import { appHomeOpened } from '../../../../src/slack/listeners/events/app-home-opened.ts';
import { eventArgs, storedDigest, useListenerWorld } from '../../../helpers/listener-args.ts';
import { fixedNow } from '../../../helpers/lookups.ts';
import { homeOpenedEvent, otherTeamId, userId } from '../../../helpers/payloads.ts';

const world = useListenerWorld();

describe('appHomeOpened', () => {
  it('publishes the Home tab with the digests the person created in this workspace', async () => {
    const w = world();
    const mine = await storedDigest(w);
    await storedDigest(w, { creatorId: 'U0OTHER01' });
    await storedDigest(w, { teamId: otherTeamId });
    await appHomeOpened(w.deps)(eventArgs<'app_home_opened'>(w, homeOpenedEvent()));
    const published = w.slack.api('views.publish');
    expect(published.map((call) => call.args)).toEqual([
      {
        user_id: userId,
        view: renderHome({
          sections: renderDigestHomeSection([mine], { now: fixedNow, viewerId: userId }),
        }),
      },
    ]);
  });

  it('leaves the Messages tab alone', async () => {
    const w = world();
    const event = { ...homeOpenedEvent(), tab: 'messages' };
    await appHomeOpened(w.deps)(eventArgs<'app_home_opened'>(w, event));
    expect(w.slack.calls).toEqual([]);
  });

  it('logs, and throws nothing, when Slack refuses the view', async () => {
    const w = world();
    w.slack.override('views.publish', () => ({ ok: false, error: 'not_enabled' }));
    await appHomeOpened(w.deps)(eventArgs<'app_home_opened'>(w, homeOpenedEvent()));
    expect(w.logged('could not publish the Home tab')).toHaveLength(1);
  });
});
