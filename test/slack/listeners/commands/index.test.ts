import { describe, expect, it } from 'vitest';
import { renderHelp } from '../../../../src/render/lookups/help.ts';
import { register } from '../../../../src/slack/listeners/commands/index.ts';
import {
  type CommandArgs,
  commandArgs,
  fakeApp,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';

const world = useListenerWorld();

describe('commands register', () => {
  it('listens for /influencers only, with the command’s listener', async () => {
    const w = world();
    const { app, registered, listener } = fakeApp();
    register(app, w.deps);
    expect(registered.map(({ method, id }) => [method, id])).toEqual([['command', '/influencers']]);
    const args = commandArgs(w, { text: 'help' });
    await listener<CommandArgs>('command', '/influencers')(args);
    expect(args.ack).toHaveBeenCalledExactlyOnceWith({
      response_type: 'ephemeral',
      ...renderHelp({ command: '/influencers' }),
    });
  });
});
