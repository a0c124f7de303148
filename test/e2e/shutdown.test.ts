import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoClient, type Sandbox, startSandbox } from '../../src/sandbox/server.ts';
import { slashCommand } from '../helpers/payloads.ts';
import { signSlackRequest } from '../helpers/signing.ts';
import { type SlackServer, startSlackServer } from '../helpers/slack-server.ts';
import { type Spawned, spawnApp, waitForOutput } from '../helpers/spawn-app.ts';

const signingSecret = 'shutdown-signing-secret';
const botToken = 'xoxb-shutdown-bot-token';

let sandbox: Sandbox;
let slack: SlackServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', latencyMs: 3_000 });
  slack = await startSlackServer();
});

/** Killed after each test, also when it timed out and never reached its own clean-up. */
const spawned: Spawned[] = [];

afterEach(() => {
  for (const app of spawned.splice(0)) app.child.kill('SIGKILL');
});

afterAll(async () => {
  await sandbox?.close();
  await slack?.close();
});

function httpEnv(): Record<string, string> {
  return {
    TZ: 'Europe/Paris',
    PORT: '0',
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: botToken,
    SLACK_API_URL: `${slack.url}/api/`,
    ANALYTICS_BASE_URL: sandbox.url,
    ANALYTICS_CLIENT_ID: demoClient.id,
    ANALYTICS_CLIENT_SECRET: demoClient.secret,
    DIGESTS_SQLITE_PATH: ':memory:',
    DIGESTS_ENABLED: 'false',
  };
}

/**
 * One signed request, then `count` replays of it, each refused with a warning line of its own
 * (unsigned requests would not do: their refusals are summed up in one line per window); enough
 * of them fill any pipe.
 */
async function logLines(url: string, count: number): Promise<void> {
  const body = JSON.stringify({ type: 'url_verification', challenge: 'fill-the-log-pipe' });
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signSlackRequest(signingSecret, body) },
    body,
  };
  expect((await fetch(`${url}/slack/events`, init)).status).toBe(200);
  for (let sent = 0; sent < count; sent += 50) {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${url}/slack/events`, init).then(
          (response) => response.text(),
          () => '',
        ),
      ),
    );
  }
}

describe('SIGTERM in HTTP mode', () => {
  it.each([
    [
      'nobody reads its log pipe any more',
      (app: ReturnType<typeof spawnApp>) => app.child.stdout.pause(),
    ],
    ['its log pipe is closed', (app: ReturnType<typeof spawnApp>) => app.child.stdout.destroy()],
  ])(
    'exits within 25 s when %s',
    async (_name, cutLogs) => {
      const app = spawnApp(httpEnv());
      spawned.push(app);
      try {
        const started = await waitForOutput(
          app.stdout,
          /"port":(\d+).*"msg":"started in http mode"/,
        );
        const url = `http://127.0.0.1:${started[1]}`;
        cutLogs(app);
        await logLines(url, 2_000);
        const signalledAt = performance.now();
        app.child.kill('SIGTERM');
        const exit = await app.exited;
        expect(exit.at - signalledAt).toBeLessThan(25_000);
        expect(exit.code).not.toBeNull();
      } finally {
        app.child.kill('SIGKILL');
      }
    },
    40_000,
  );

  it('stops accepting, finishes the lookup in flight, and exits 0 within 25 s', async () => {
    const app = spawnApp(httpEnv());
    spawned.push(app);
    try {
      const started = await waitForOutput(app.stdout, /"port":(\d+).*"msg":"started in http mode"/);
      expect(app.stdout()).toContain(`"analytics":"${sandbox.url}"`);
      const url = `http://127.0.0.1:${started[1]}`;

      const command = slashCommand({
        text: '#hcsm last week',
        responseUrl: `${slack.url}/respond/1`,
      });
      const ack = await fetch(`${url}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': command.contentType,
          ...signSlackRequest(signingSecret, command.body),
        },
        body: command.body,
      });
      expect(ack.status).toBe(200);

      const signalledAt = performance.now();
      app.child.kill('SIGTERM');
      await waitForOutput(app.stdout, /"msg":"shutting down"/);
      // Still listening while the lookup drains, for health probes: stopping, not refused.
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'stopping' });

      const exit = await app.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(25_000);
      const answers = slack.slack.responses(command.responseUrl);
      expect(answers).toHaveLength(1);
      expect(JSON.stringify(answers[0]?.args.blocks)).toContain('Top influencers for #hcsm');
      expect(app.stdout()).toContain('"msg":"stopped"');
    } finally {
      app.child.kill('SIGKILL');
    }
  }, 40_000);
});
