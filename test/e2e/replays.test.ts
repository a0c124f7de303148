import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import {
  directMessageEvent,
  type EncodedBody,
  eventCallback,
  slashCommand,
  teamId,
} from '../helpers/payloads.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let folder: string;
let sandbox: Sandbox;
/** Two instances of the app sharing one digest store, as two dynos share one database. */
let instances: [Harness, Harness];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'replays-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const env = { DIGESTS_SQLITE_PATH: join(folder, 'digests.sqlite') };
  instances = [
    await startHarness({ env, sharedSandbox: sandbox }),
    await startHarness({ env, sharedSandbox: sandbox }),
  ];
});

afterAll(async () => {
  await Promise.all((instances ?? []).map((instance) => instance.close()));
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('requests handled by one instance', () => {
  it('do nothing when replayed to another instance', async () => {
    const [a, b] = instances;
    const command = slashCommand({ text: '#hcsm last week' });
    const timestamp = Math.floor(Date.now() / 1000);
    expect((await a.send(command, { timestamp })).status).toBe(200);
    // Acked at once, before the store says another instance handled it: only the work waits.
    const replay = await b.send(command, { timestamp });
    expect(replay.status).toBe(200);
    await a.slack.waitForResponse(command.responseUrl);
    await b.settled();
    expect(b.slack.responses(command.responseUrl)).toEqual([]);
  });

  it('answer an event Slack redelivers to another instance once', async () => {
    const [a, b] = instances;
    const delivery = eventCallback({ event: directMessageEvent('#bcsm yesterday') });
    expect((await a.send(delivery)).status).toBe(200);
    // Slack signs its redelivery anew, a second later, and says which attempt it is.
    const redelivered = await b.send(delivery, {
      timestamp: Math.floor(Date.now() / 1000) + 1,
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(redelivered.status).toBe(200);
    await a.slack.waitFor((call) => call.method === 'chat.update');
    await sleep(300);
    expect(b.slack.api('chat.postMessage')).toEqual([]);
    expect(a.slack.api('chat.postMessage')).toHaveLength(1);
  });
});

describe('one signed request reaching two instances at once', () => {
  /** Sends the same signed request to both; resolves once both are done with it. */
  async function both(payload: EncodedBody): Promise<void> {
    const timestamp = Math.floor(Date.now() / 1000);
    const acks = await Promise.all(
      instances.map((instance) => instance.send(payload, { timestamp })),
    );
    expect(acks.map((ack) => ack.status)).toEqual([200, 200]);
    await Promise.all(instances.map((instance) => instance.settled()));
  }

  /** How many instances answered through `url`. */
  const answeredBy = (url: string) =>
    instances.filter((instance) => instance.slack.responses(url).length > 0).length;

  it('creates one digest, confirmed by one instance', async () => {
    const creator = 'U0REPLAY01';
    const command = slashCommand({
      text: 'digest #hcsm every monday at 9am in UTC to me',
      userId: creator,
    });
    await both(command);
    const store = instances[0].running.digests.database;
    expect(await store.digests.listByCreator(teamId, creator)).toHaveLength(1);
    expect(answeredBy(command.responseUrl)).toBe(1);
  });

  it('posts one answer to a lookup', async () => {
    const command = slashCommand({ text: '#bcsm last week', userId: 'U0REPLAY02' });
    await both(command);
    expect(answeredBy(command.responseUrl)).toBe(1);
  });
});
