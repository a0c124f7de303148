/**
 * What the front door already held before the second hostile run, proven against the running app
 * (its own server settings, Bolt behind it) rather than the front door alone: captured requests
 * replayed inside Slack's five-minute window run nothing, whatever they carry, and a client that
 * trickles its request is cut within seconds.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appServer, headersTimeoutMs, requestTimeoutMs } from '../../src/http/server.ts';
import { actionIds } from '../../src/render/ids.ts';
import { type Harness, signingSecret, startHarness } from '../helpers/harness.ts';
import { finalResponse, now } from '../helpers/lookups.ts';
import {
  blockAction,
  directMessageEvent,
  eventCallback,
  slashCommand,
} from '../helpers/payloads.ts';
import { signSlackRequest } from '../helpers/signing.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowS = () => Math.floor(Date.now() / 1000);

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ sandbox: { now }, overrides: { now } });
});

afterAll(async () => {
  await harness?.close();
});

describe('a captured request replayed within five minutes', () => {
  it('runs nothing when its signature is 4 min 55 s old', async () => {
    const command = slashCommand({ text: '#hcsm last week' });
    const timestamp = nowS() - 295;
    expect((await harness.send(command, { timestamp })).status).toBe(200);
    const replay = await harness.send(command, { timestamp });
    expect([replay.status, replay.text]).toEqual([200, '']);
    await finalResponse(harness, command.responseUrl);
    await harness.settled();
    // A slow lookup also posts a progress update; the answer itself comes once.
    const answers = harness.slack
      .responses(command.responseUrl)
      .filter((call) => !/^Still looking up/.test(String(call.args.text)));
    expect(answers).toHaveLength(1);
  });

  it('runs nothing when it is a DM event', async () => {
    const before = harness.slack.api('chat.postMessage').length;
    const delivery = eventCallback({ event: directMessageEvent('help') });
    const timestamp = nowS();
    await harness.send(delivery, { timestamp });
    const replays = await Promise.all([1, 2].map(() => harness.send(delivery, { timestamp })));
    expect(replays.map((replay) => [replay.status, replay.text])).toEqual([
      [200, ''],
      [200, ''],
    ]);
    await harness.slack.waitFor(() => harness.slack.api('chat.postMessage').length > before);
    await sleep(300);
    expect(harness.slack.api('chat.postMessage').length - before).toBe(1);
  });

  it('runs nothing when it is a button press', async () => {
    const before = harness.slack.api('views.open').length;
    const press = blockAction({ actionId: actionIds.openLookup });
    const timestamp = nowS();
    expect((await harness.send(press, { timestamp })).status).toBe(200);
    const replay = await harness.send(press, { timestamp });
    expect([replay.status, replay.text]).toEqual([200, '']);
    await harness.slack.waitFor(() => harness.slack.api('views.open').length > before);
    await sleep(300);
    expect(harness.slack.api('views.open').length - before).toBe(1);
  });
});

/** Resolves with how long the app took to close a connection that sends `head` and stalls. */
function stalled(url: string, head: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => resolve(performance.now() - started));
    socket.write(head, (error) => {
      if (error) reject(error);
    });
  });
}

/**
 * The app's own server settings, shortened: the production ones (5 s for the headers, 10 s for the
 * whole request, checked every second) are the defaults of `appServer`, checked below; waiting them
 * out here would add ten seconds to every run for the same proof.
 */
const short = { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, checkEveryMs: 200 };

describe('a client that trickles its request', () => {
  let trickled: Harness;

  beforeAll(async () => {
    trickled = await startHarness({
      sandbox: { now },
      overrides: { now, server: appServer(() => {}, short) },
    });
  });

  afterAll(async () => {
    await trickled?.close();
  });

  it('meets the production timeouts, which appServer applies by default', () => {
    const server = appServer(() => {});
    expect([server.headersTimeout, server.requestTimeout]).toEqual([
      headersTimeoutMs,
      requestTimeoutMs,
    ]);
    expect([headersTimeoutMs, requestTimeoutMs]).toEqual([5_000, 10_000]);
  });

  it('is cut within seconds, whether it stalls in the headers or in the body', async () => {
    const body = slashCommand({ text: '#hcsm last week' }).body;
    const signed = signSlackRequest(signingSecret, body);
    const headers = Object.entries({
      ...signed,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': body.length,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const request = `POST /slack/events HTTP/1.1\r\nhost: localhost\r\n`;
    const [inHeaders, inBody] = await Promise.all([
      stalled(trickled.url, `${request}x-slack-sig`),
      stalled(trickled.url, `${request}${headers}\r\n${body.slice(0, 10)}`),
    ]);
    expect(inHeaders).toBeLessThan(short.headersTimeoutMs + short.checkEveryMs + 500);
    expect(inBody).toBeLessThan(short.requestTimeoutMs + short.checkEveryMs + 500);
    // Cut by the timeouts, not by anything sooner.
    expect(inHeaders).toBeGreaterThanOrEqual(short.headersTimeoutMs - 50);
    expect(inBody).toBeGreaterThanOrEqual(short.requestTimeoutMs - 50);
  });
});
