import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoClient } from '../../src/sandbox/server.ts';
import { type SlackServer, startSlackServer } from '../helpers/slack-server.ts';
import { spawnApp, waitForOutput } from '../helpers/spawn-app.ts';

let slack: SlackServer;
let spawned: ReturnType<typeof spawnApp>[] = [];

beforeAll(async () => {
  slack = await startSlackServer();
});

afterEach(() => {
  for (const app of spawned) app.child.kill('SIGKILL');
  spawned = [];
  slack.slack.failHttp('auth.test', 503, 0);
});

afterAll(async () => {
  await slack?.close();
});

function start(env: Record<string, string> = {}) {
  const app = spawnApp({
    PORT: '0',
    SLACK_SIGNING_SECRET: 'startup-signing-secret',
    SLACK_BOT_TOKEN: 'xoxb-startup-token',
    SLACK_API_URL: `${slack.url}/api/`,
    // Nothing answers here: start-up never asks the analytics service.
    ANALYTICS_BASE_URL: 'http://127.0.0.1:9',
    ANALYTICS_CLIENT_ID: demoClient.id,
    ANALYTICS_CLIENT_SECRET: demoClient.secret,
    DIGESTS_SQLITE_PATH: ':memory:',
    DIGESTS_ENABLED: 'false',
    ...env,
  });
  spawned.push(app);
  return app;
}

describe('start-up in HTTP mode', () => {
  it('tries auth.test again while Slack answers 5xx, then starts', async () => {
    slack.slack.failHttp('auth.test', 503, 2);
    const app = start();
    await waitForOutput(app.stdout, /"msg":"started in http mode"/, 20_000);
    expect(app.stdout()).toContain('Slack did not confirm the bot token yet; trying again');
    expect(app.stderr()).toBe('');
  }, 30_000);

  it('binds its port first: /healthz says starting, events get 503, until the token is confirmed', async () => {
    slack.slack.failHttp('auth.test', 503);
    const app = start();
    const [, port, sinceStart] =
      (await waitForOutput(app.stdout, /"port":(\d+),"sinceProcessStartMs":(\d+)/, 20_000)) ?? [];
    // Platforms stop a process that has not bound its port in time (Heroku: 60 s).
    expect(Number(sinceStart)).toBeLessThan(2_000);

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'starting', mode: 'http' });
    const event = await fetch(`http://127.0.0.1:${port}/slack/events`, {
      method: 'POST',
      body: 'token=x',
    });
    expect(event.status).toBe(503);
    expect(event.headers.get('retry-after')).toBe('1');

    slack.slack.failHttp('auth.test', 503, 0);
    await waitForOutput(app.stdout, /"msg":"started in http mode"/, 20_000);
    const ready = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', mode: 'http' });
  }, 30_000);

  it('exits 1 with one sentence when Slack refuses the bot token', async () => {
    slack.slack.override('auth.test', () => ({ ok: false, error: 'invalid_auth' }));
    const app = start();
    const exit = await app.exited;
    slack.slack.override('auth.test', () => ({
      ok: true,
      user_id: 'U0BOT0001',
      bot_id: 'B0BOT0001',
    }));
    expect(exit.code).toBe(1);
    expect(app.stderr()).toBe(
      'Cannot start: Slack refused the bot token (invalid_auth): reinstall the app from manifest.yml or update SLACK_BOT_TOKEN.\n',
    );
    expect(app.stdout()).not.toContain('"level":60');
  });

  it('exits 1 with one sentence when the port is taken', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const app = start({ PORT: String(port) });
      expect((await app.exited).code).toBe(1);
      expect(app.stderr()).toBe(
        `Cannot start: port ${port} is already in use: stop what listens there, or set PORT to a free port.\n`,
      );
    } finally {
      taken.close();
    }
  });
});
