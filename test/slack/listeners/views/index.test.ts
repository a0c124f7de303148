import { describe, expect, it } from 'vitest';
import {
  callbackIds,
  digestEditCallbackId,
  lookupModalInputs,
} from '../../../../src/render/ids.ts';
import { register } from '../../../../src/slack/listeners/views/index.ts';
import {
  fakeApp,
  useListenerWorld,
  type ViewArgs,
  viewArgs,
} from '../../../helpers/listener-args.ts';

const world = useListenerWorld();

describe('views register', () => {
  it('listens for the lookup modal’s and the Edit modal’s submissions', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    expect(registered.map(({ method, id }) => [method, id])).toEqual([
      ['view', callbackIds.lookupModal],
      ['view', digestEditCallbackId],
    ]);
  });

  it('gives the lookup modal the listener that reads its inputs', async () => {
    const w = world();
    const { app, listener } = fakeApp();
    register(app, w.deps);
    const { blockId, actionId } = lookupModalInputs.databases;
    const args = viewArgs(w, {
      callbackId: callbackIds.lookupModal,
      values: { [blockId]: { [actionId]: { type: 'plain_text_input', value: '' } } },
    });
    await listener<ViewArgs>('view', callbackIds.lookupModal)(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_action: 'errors',
      errors: { [blockId]: expect.any(String) },
    });
  });
});
