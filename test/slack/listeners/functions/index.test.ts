import { describe, expect, it } from 'vitest';
import { type ParseError, UnknownDatabaseError } from '../../../../src/errors.ts';
import { errorText } from '../../../../src/render/errors.ts';
import { functionIds } from '../../../../src/render/ids.ts';
import {
  stepOutputsRefusedText,
  stepTopOutOfRange,
} from '../../../../src/render/lookups/workflow-step.ts';
import {
  register,
  topInfluencersFunction,
} from '../../../../src/slack/listeners/functions/index.ts';
import {
  type FunctionArgs,
  fakeApp,
  functionArgs,
  type ListenerWorld,
  useListenerWorld,
} from '../../../helpers/listener-args.ts';

const world = useListenerWorld({ sandbox: true });

/** A run of the step with these inputs, finished. */
async function run(w: ListenerWorld, inputs: Record<string, unknown>, args?: FunctionArgs) {
  const step = args ?? functionArgs(w, functionIds.topInfluencers, inputs);
  await topInfluencersFunction(w.deps)(step);
  await w.settle();
  return step;
}

describe('functions register', () => {
  it('provides the top_influencers step', () => {
    const { app, registered } = fakeApp();
    register(app, world().deps);
    expect(registered.map(({ method, id }) => [method, id])).toEqual([
      ['function', functionIds.topInfluencers],
    ]);
  });
});

describe('topInfluencersFunction', () => {
  it('completes with the ranking as mrkdwn, the first handle and the count', async () => {
    const w = world();
    const step = await run(w, { databases: '#hcsm', window: 'last week', top: 5 });
    expect(step.fail).not.toHaveBeenCalled();
    expect(step.complete).toHaveBeenCalledExactlyOnceWith({
      outputs: {
        summary: expect.stringMatching(/^\*Top 5 influencers for #hcsm\*/),
        top_handle: expect.stringMatching(/^[^@]\S*$/),
        count: 5,
      },
    });
    expect(w.slack.api('functions.completeSuccess')[0]?.args.function_execution_id).toBe(
      step.executionId,
    );
  });

  it('reads the window in UTC, a workflow having no person whose zone to use', async () => {
    const w = world();
    const step = await run(w, { databases: '#hcsm', window: 'yesterday' });
    const [asked] = w.sandbox?.log.filter((entry) => entry.endpoint === 'data') ?? [];
    expect(asked?.query).toMatchObject({
      start: '2026-11-20T00:00:00+00:00',
      end: '2026-11-21T00:00:00+00:00',
      timezone: 'UTC',
    });
    expect(step.complete).toHaveBeenCalledOnce();
  });

  it('reads the window in the Slack zone of the person the workflow names', async () => {
    const w = world();
    const step = await run(w, { databases: '#hcsm', window: 'yesterday', person: 'U0PERSON01' });
    const [asked] = w.sandbox?.log.filter((entry) => entry.endpoint === 'data') ?? [];
    expect(asked?.query).toMatchObject({
      start: '2026-11-20T00:00:00-05:00',
      end: '2026-11-21T00:00:00-05:00',
      timezone: 'America/New_York',
    });
    expect(w.slack.api('users.info')[0]?.args.user).toBe('U0PERSON01');
    expect(step.complete).toHaveBeenCalledOnce();
  });

  it.each([0, 51, 'many'])('fails when top is %j, asking nothing', async (top) => {
    const w = world();
    const step = await run(w, { databases: '#hcsm', top });
    expect(step.complete).not.toHaveBeenCalled();
    expect(step.fail).toHaveBeenCalledExactlyOnceWith({
      error: stepTopOutOfRange(String(top), 1, 50),
    });
    expect(w.asked()).toBe(0);
  });

  it('fails with the parser’s own message when the window cannot be read', async () => {
    const w = world();
    const parsed = w.deps.flow.parse('#hcsm from Nov 15 to Nov 1', 'UTC', true) as ParseError;
    expect(parsed).toBeInstanceOf(Error);
    const step = await run(w, { databases: '#hcsm', window: 'from Nov 15 to Nov 1' });
    expect(step.fail).toHaveBeenCalledExactlyOnceWith({ error: parsed.message });
  });

  it('fails with a lookup’s words when the service refuses the database', async () => {
    const w = world();
    const step = await run(w, { databases: '#nosuchdb', window: 'yesterday' });
    expect(step.fail).toHaveBeenCalledExactlyOnceWith({
      error: errorText(new UnknownDatabaseError('#nosuchdb')),
    });
  });

  it('runs Slack’s redeliveries of one execution once', async () => {
    const w = world();
    const step = functionArgs(w, functionIds.topInfluencers, { databases: '#hcsm' });
    await run(w, {}, step);
    await run(w, {}, step);
    expect(step.complete).toHaveBeenCalledOnce();
  });

  it('logs, and throws nothing, when Slack refuses the completion', async () => {
    const w = world();
    const step = functionArgs(w, functionIds.topInfluencers, { databases: '#hcsm' });
    step.complete.mockRejectedValueOnce(new Error('invalid_function_execution'));
    await run(w, {}, step);
    expect(w.logged('could not finish a run of the top_influencers workflow step')).toEqual([
      expect.objectContaining({ ok: true }),
    ]);
  });

  it('ends the run with completeError when Slack refuses its outputs', async () => {
    const w = world();
    w.slack.override('functions.completeSuccess', () => ({
      ok: false,
      error: 'parameter_validation_failed',
    }));
    const step = await run(w, { databases: '#hcsm', window: 'last week' });
    expect(step.fail).toHaveBeenCalledExactlyOnceWith({ error: stepOutputsRefusedText });
    expect(w.slack.endedExecutions.get(step.executionId)).toBe('functions.completeError');
  });

  it('sends no required output empty: nobody ranking leaves the handle out, and the run ends', async () => {
    const w = world();
    const step = await run(w, { databases: '@NobodyRanks in #hcsm', window: 'last month' });
    expect(w.slack.endedExecutions.get(step.executionId)).toBe('functions.completeSuccess');
    const [completed] = w.slack.api('functions.completeSuccess');
    expect(completed?.args.outputs).toMatchObject({ count: 0 });
    expect(completed?.args.outputs).not.toHaveProperty('top_handle');
  });
});
