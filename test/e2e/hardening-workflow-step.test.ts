import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParseError } from '../../src/errors.ts';
import { parseLookup } from '../../src/parsing/index.ts';
import { functionIds } from '../../src/render/ids.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import type { SlackCall } from '../helpers/fake-slack.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { now } from '../helpers/lookups.ts';
import { eventCallback, functionExecutedEvent } from '../helpers/payloads.ts';

let folder: string;
let sandbox: Sandbox;
/** Two instances sharing one store, as two dynos share one database. */
let instances: [Harness, Harness];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'workflow-step-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', now });
  const env = { DIGESTS_SQLITE_PATH: join(folder, 'digests.sqlite') };
  instances = [
    await startHarness({ env, sharedSandbox: sandbox, overrides: { now } }),
    await startHarness({ env, sharedSandbox: sandbox, overrides: { now } }),
  ];
});

afterAll(async () => {
  await Promise.all((instances ?? []).map((instance) => instance.close()));
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

const completions = ['functions.completeSuccess', 'functions.completeError'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every completion of `executionId` either instance sent, once a late delivery has had time to
 * start its run and both instances have nothing left running.
 */
async function endsOf(executionId: string): Promise<SlackCall[]> {
  await sleep(200);
  const deadline = Date.now() + 10_000;
  const running = () => instances.some((h) => h.running.deps.inFlight.size > 0);
  while (running() && Date.now() < deadline) await sleep(10);
  return instances.flatMap((h) =>
    h.slack.calls.filter(
      (call) =>
        completions.includes(call.method ?? '') && call.args.function_execution_id === executionId,
    ),
  );
}

function firstEnd(h: Harness, executionId: string): Promise<SlackCall> {
  return h.slack.waitFor(
    (call) =>
      completions.includes(call.method ?? '') && call.args.function_execution_id === executionId,
  );
}

describe('a run of the top_influencers step', () => {
  it.each([
    ['null', (event: Record<string, unknown>) => Object.assign(event, { inputs: null })],
    [
      'missing',
      (event: Record<string, unknown>) => {
        delete event.inputs;
        return event;
      },
    ],
    ['a list', (event: Record<string, unknown>) => Object.assign(event, { inputs: ['#hcsm'] })],
    ['a string', (event: Record<string, unknown>) => Object.assign(event, { inputs: '#hcsm' })],
  ])('whose inputs are %s ends once with completeError', async (_name, shape) => {
    const [a] = instances;
    const run = functionExecutedEvent(functionIds.topInfluencers, {});
    const response = await a.send(eventCallback({ event: shape(run.event) }));
    expect(response.status).toBe(200);
    const end = await firstEnd(a, run.executionId);
    expect(end.method).toBe('functions.completeError');
    // Read as no inputs at all: the parser says what is missing.
    const none = parseLookup('', { now: now(), zone: 'UTC', conversation: true });
    expect(none).toBeInstanceOf(Error);
    expect(end.args.error).toBe((none as ParseError).message);
    expect(await endsOf(run.executionId)).toHaveLength(1);
  });

  it('delivered under two event ids ends once', async () => {
    const [a] = instances;
    const run = functionExecutedEvent(functionIds.topInfluencers, { databases: '#hcsm' });
    await a.send(eventCallback({ event: run.event }));
    await a.send(eventCallback({ event: run.event }));
    const end = await firstEnd(a, run.executionId);
    expect(end.method).toBe('functions.completeSuccess');
    expect(await endsOf(run.executionId)).toEqual([end]);
  });

  it('delivered to two instances under two event ids ends once', async () => {
    const [a, b] = instances;
    const run = functionExecutedEvent(functionIds.topInfluencers, { databases: '#bcsm' });
    await Promise.all([
      a.send(eventCallback({ event: run.event })),
      b.send(eventCallback({ event: run.event })),
    ]);
    await Promise.race([firstEnd(a, run.executionId), firstEnd(b, run.executionId)]);
    const ends = await endsOf(run.executionId);
    expect(ends.map((call) => call.method)).toEqual(['functions.completeSuccess']);
  });
});
