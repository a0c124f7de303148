import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoClient } from '../../src/sandbox/server.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { now } from '../helpers/lookups.ts';
import { directMessageEvent, eventCallback } from '../helpers/payloads.ts';
import { type SlackServer, startSlackServer } from '../helpers/slack-server.ts';
import { type Spawned, spawnApp } from '../helpers/spawn-app.ts';

const user = 'api-user-0123';
const password = 'api-password-SECRET-0123';

describe('SLACK_API_URL with a user and password', () => {
  let slack: SlackServer;
  const spawned: Spawned[] = [];

  beforeAll(async () => {
    slack = await startSlackServer();
  });

  afterEach(() => {
    for (const app of spawned.splice(0)) app.child.kill('SIGKILL');
  });

  afterAll(async () => {
    await slack?.close();
  });

  it('stops the start at once, naming the variable and never its value', async () => {
    const started = performance.now();
    const app = spawnApp({
      PORT: '0',
      SLACK_SIGNING_SECRET: 'api-url-signing-secret',
      SLACK_BOT_TOKEN: 'xoxb-api-url-token',
      SLACK_API_URL: `${slack.url.replace('://', `://${user}:${password}@`)}/api/`,
      ANALYTICS_BASE_URL: 'http://127.0.0.1:9',
      ANALYTICS_CLIENT_ID: demoClient.id,
      ANALYTICS_CLIENT_SECRET: demoClient.secret,
      DIGESTS_SQLITE_PATH: ':memory:',
      DIGESTS_ENABLED: 'false',
    });
    spawned.push(app);
    const exit = await Promise.race([
      app.exited,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
    ]);
    const output = `${app.stdout()}${app.stderr()}`;
    expect(output).not.toContain(password);
    expect(output).not.toContain(user);
    expect(exit?.code).toBe(1);
    expect((exit?.at ?? Number.POSITIVE_INFINITY) - started).toBeLessThan(10_000);
    expect(app.stderr()).toMatch(/^Cannot start: .*SLACK_API_URL/);
    expect(slack.slack.calls).toEqual([]);
  }, 20_000);
});

describe("the Web API client's own log lines", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ sandbox: { now }, overrides: { now } });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('go through the app’s logger and lose URL credentials', async () => {
    const console = ['log', 'info', 'warn', 'error', 'debug'].map((name) =>
      vi.spyOn(globalThis.console, name as 'log'),
    );
    try {
      // Slack echoes warnings in response_metadata; the Web API client logs each one itself.
      harness.slack.override('chat.postMessage', (args) => ({
        ok: true,
        channel: args.channel,
        ts: '1800000000.000100',
        response_metadata: {
          messages: [`[WARN] proxy at http://${user}:${password}@proxy.test/ said hello`],
        },
      }));
      await harness.send(eventCallback({ event: directMessageEvent('help') }));
      await harness.slack.waitFor((call) => call.method === 'chat.postMessage');
      const deadline = Date.now() + 5_000;
      const echoed = () => harness.logs.find((line) => line.includes('proxy.test'));
      while (echoed() === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(JSON.parse(echoed() ?? '{}')).toMatchObject({
        level: 40,
        msg: 'proxy at http://proxy.test/ said hello',
      });
      for (const spy of console) expect(spy).not.toHaveBeenCalled();
      const all = harness.logs.join('\n');
      expect(all).not.toContain(password);
      expect(all).not.toContain(user);
    } finally {
      for (const spy of console) spy.mockRestore();
    }
  });
});
