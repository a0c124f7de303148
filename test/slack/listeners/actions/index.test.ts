import { describe, expect, it } from 'vitest';
import { actionIds, digestActionIds, digestListPageIds } from '../../../../src/render/ids.ts';
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
      String(/^answer_choice_\d+$/),
      actionIds.openLookup,
      digestActionIds.runNow,
      digestActionIds.pause,
      digestActionIds.resume,
      digestActionIds.remove,
      digestActionIds.edit,
      digestActionIds.postUnconfirmed,
      digestListPageIds.previous,
      digestListPageIds.next,
    ]);
  });

  it('leaves no action id the app renders without a listener', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    const listened = new Set(registered.map(({ id }) => id));
    // A question's readings are numbered: `answer_choice_1`, `answer_choice_2`…
    const { answerChoice, ...single } = actionIds;
    for (const id of [
      ...Object.values(single),
      ...Object.values(digestActionIds),
      ...Object.values(digestListPageIds),
    ]) {
      expect(listened).toContain(id);
    }
    const numbered = [...listened].filter((id) => id.startsWith('/'));
    expect(numbered.some((id) => new RegExp(id.slice(1, -1)).test(`${answerChoice}_2`))).toBe(true);
  });
});
