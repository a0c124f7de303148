import { describe, expect, it } from 'vitest';
import { actionIds, digestActionIds } from '../../../../src/render/ids.ts';
import { register } from '../../../../src/slack/listeners/actions/index.ts';
import { fakeApp, useListenerWorld } from '../../../helpers/listener-args.ts';

const world = useListenerWorld();

describe('actions register', () => {
  it('listens for every answer button, the Look up button and the digest buttons', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    expect(registered.every(({ method }) => method === 'action')).toBe(true);
    expect(registered.map(({ id }) => id)).toEqual([
      actionIds.shareAnswer,
      actionIds.answerCompare,
      actionIds.answerTable,
      actionIds.answerChart,
      actionIds.answerExport,
      actionIds.answerAddDatabase,
      actionIds.openLookup,
      digestActionIds.runNow,
      digestActionIds.pause,
      digestActionIds.resume,
      digestActionIds.remove,
      digestActionIds.edit,
      digestActionIds.postUnconfirmed,
    ]);
  });

  it('leaves no action id the app renders without a listener', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    const listened = new Set(registered.map(({ id }) => id));
    for (const id of [...Object.values(actionIds), ...Object.values(digestActionIds)]) {
      expect(listened).toContain(id);
    }
  });
});
