import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { slashCommand } from '../helpers/payloads.ts';
import { signSlackRequest } from '../helpers/signing.ts';
import { type SlackServer, startSlackServer } from '../helpers/slack-server.ts';
import { type Spawned, spawnApp, waitForOutput } from '../helpers/spawn-app.ts';

const signingSecret = 'shutdown-load-signing-secret';
/** Commands sent, and how fast: SIGTERM lands in the middle of them. */
const commands = 80;
const intervalMs = 25;
const signalAfter = 40;

let sandbox: Sandbox;
let slack: SlackServer;
const spawned: Spawned[] = [];

beforeAll(async () => {
  // Every lookup is still running when the signal comes.
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', latencyMs: 3_000 });
  slack = await startSlackServer();
});

afterEach(() => {
  for (const app of spawned.splice(0)) app.child.kill('SIGKILL');
});

afterAll(async () => {
  await sandbox?.close();
  await slack?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one signed command; resolves true when the app acked it (a 200 with its pending text). */
async function accepted(url: string, responseUrl: string): Promise<boolean> {
  const command = slashCommand({ text: '#hcsm last week', responseUrl });
  try {
    const ack = await fetch(`${url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': command.contentType,
        ...signSlackRequest(signingSecret, command.body),
      },
      body: command.body,
    });
    return ack.status === 200 && (await ack.text()).includes('Looking up top influencers');
  } catch {
    return false;
  }
}

describe('SIGTERM while commands keep arriving', () => {
  it('exits 0 within 25 s, every accepted command answered or told', async () => {
    const app = spawnApp({
      TZ: 'Europe/Paris',
      PORT: '0',
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: 'xoxb-shutdown-load-token',
      SLACK_API_URL: `${slack.url}/api/`,
      ANALYTICS_BASE_URL: sandbox.url,
      ANALYTICS_CLIENT_ID: demoClient.id,
      ANALYTICS_CLIENT_SECRET: demoClient.secret,
      DIGESTS_SQLITE_PATH: ':memory:',
      DIGESTS_ENABLED: 'false',
    });
    spawned.push(app);
    const started = await waitForOutput(app.stdout, /"port":(\d+).*"msg":"started in http mode"/);
    const url = `http://127.0.0.1:${started[1]}`;

    let signalledAt = 0;
    const sent: Promise<{ responseUrl: string; accepted: boolean }>[] = [];
    for (let index = 0; index < commands; index += 1) {
      if (index === signalAfter) {
        signalledAt = performance.now();
        app.child.kill('SIGTERM');
      }
      const responseUrl = `${slack.url}/respond/load/${index}`;
      sent.push(accepted(url, responseUrl).then((ok) => ({ responseUrl, accepted: ok })));
      await sleep(intervalMs);
    }
    const outcomes = await Promise.all(sent);
    const exit = await app.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(25_000);

    const acceptedUrls = outcomes.filter((o) => o.accepted).map((o) => o.responseUrl);
    expect(acceptedUrls.length).toBeGreaterThanOrEqual(signalAfter);
    const finals = acceptedUrls.map((responseUrl) =>
      slack.slack.responses(responseUrl).map((call) => String(call.args.text)),
    );
    for (const [index, texts] of finals.entries()) {
      expect([acceptedUrls[index], texts.length]).toEqual([acceptedUrls[index], 1]);
      expect(texts[0]).toMatch(/^(Top \d+ influencers for #hcsm|The app restarted)/);
    }
    // Nothing answered a command the app had not accepted.
    const refusedUrls = outcomes.filter((o) => !o.accepted).map((o) => o.responseUrl);
    for (const responseUrl of refusedUrls) expect(slack.slack.responses(responseUrl)).toEqual([]);
  }, 40_000);
});
