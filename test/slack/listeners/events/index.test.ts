import { describe, expect, it } from 'vitest';
import { register } from '../../../../src/slack/listeners/events/index.ts';
import {
  type EventArgs,
  eventArgs,
  fakeApp,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';
import { homeOpenedEvent } from '../../../helpers/payloads.ts';

const world = useListenerWorld();

describe('events register', () => {
  it('listens for the Home tab, the app leaving, DMs and mentions', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    expect(registered.map(({ method, id }) => [method, id])).toEqual([
      ['event', 'app_home_opened'],
      ['event', 'app_uninstalled'],
      ['event', 'tokens_revoked'],
      ['event', 'message'],
      ['event', 'app_mention'],
    ]);
  });

  it('gives app_home_opened the listener that publishes the Home tab', async () => {
    const w = world();
    const { app, listener } = fakeApp();
    register(app, w.deps);
    const opened = listener<EventArgs<'app_home_opened'>>('event', 'app_home_opened');
    await opened(eventArgs<'app_home_opened'>(w, homeOpenedEvent()));
    expect(w.slack.api('views.publish')).toHaveLength(1);
  });
});
