import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createApp, startupSummary } from '../src/app.ts';
import { loadConfig } from '../src/config/app-config.ts';
import { DigestStoreOpenFailedError } from '../src/errors.ts';
import { silentLogger } from '../src/logger.ts';
import { zoneArgument } from '../src/main.ts';
import { FakeSlack } from './helpers/fake-slack.ts';

const analytics = {
  ANALYTICS_BASE_URL: 'https://api.example.com',
  ANALYTICS_CLIENT_ID: 'id',
  ANALYTICS_CLIENT_SECRET: 'analytics-secret',
};

describe('createApp', () => {
  it('builds a Socket Mode app without connecting until start', () => {
    const config = loadConfig({
      SLACK_APP_TOKEN: 'xapp-1-x',
      SLACK_BOT_TOKEN: 'xoxb-1',
      ...analytics,
    });
    if (config.mode === 'console') throw new Error('expected Socket Mode');
    const slack = new FakeSlack();
    const running = createApp(config, { fetch: slack.fetch, logger: silentLogger });
    expect(running.app).toBeDefined();
    expect(slack.calls).toEqual([]);
  });

  it('reports a database it cannot open at once, even while Slack does not answer', async () => {
    const config = loadConfig({
      SLACK_SIGNING_SECRET: 'signing-secret',
      SLACK_BOT_TOKEN: 'xoxb-1',
      // Nothing listens there: PostgreSQL's connection is refused at once.
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      ...analytics,
    });
    if (config.mode !== 'http') throw new Error('expected HTTP mode');
    let slackCalls = 0;
    // Slack never answers: the token's check would wait out its whole start-up budget.
    const silentSlack = ((_input: unknown, init?: { signal?: AbortSignal }) => {
      slackCalls++;
      return new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    }) as typeof fetch;
    const running = createApp(config, { fetch: silentSlack, logger: silentLogger, port: 0 });
    const started = Date.now();
    await expect(running.start()).rejects.toBeInstanceOf(DigestStoreOpenFailedError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(slackCalls).toBe(1);
  });
});

const http = { SLACK_SIGNING_SECRET: 'signing', SLACK_BOT_TOKEN: 'xoxb-bot', ...analytics };

describe('startupSummary', () => {
  it('names the mode, port and analytics service and no secret', () => {
    const config = loadConfig(http);
    const summary = startupSummary(config, 3000);
    expect(summary).toEqual({
      mode: 'http',
      version: config.version,
      port: 3000,
      analytics: 'https://api.example.com',
      allowedTeams: 'all',
    });
    expect(JSON.stringify(summary)).not.toMatch(/signing|xoxb|analytics-secret/);
  });
});

describe('startupSummary with credentials in a URL', () => {
  it('names the analytics service without its user and password', () => {
    const config = loadConfig({
      ...http,
      ANALYTICS_BASE_URL: 'https://proxy-user:proxy-password@api.example.com/v1',
    });
    expect(startupSummary(config, 3000).analytics).toBe('https://api.example.com/v1');
  });
});

describe('zoneArgument', () => {
  it.each([
    [['--tz', 'Asia/Tokyo'], 'Asia/Tokyo'],
    [['--tz=UTC'], 'UTC'],
    [[], undefined],
  ])('reads %j', (argv, expected) => {
    expect(zoneArgument(argv)).toBe(expected);
  });
});

describe('collectStartupGarbage', () => {
  /** The Node flags of `npm start`, as the app runs in production. */
  const startFlags = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: { start: string };
    }
  ).scripts.start
    .split(/\s+/)
    .filter((arg) => arg.startsWith('--'));

  /** Imports the app's module in a fresh Node, grows the young generation, then collects. */
  function collectIn(flags: readonly string[]): {
    collected: boolean;
    before: number;
    after: number;
  } {
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { collectStartupGarbage } from ${JSON.stringify(new URL('../src/app.ts', import.meta.url).href)};
      const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      let kept = [];
      for (let i = 0; i < 200_000; i += 1) kept.push({ i, text: 'x' + i });
      kept = undefined;
      const before = young();
      const collected = collectStartupGarbage();
      console.log(JSON.stringify({ collected, before, after: young() }));
    `;
    const child = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    return JSON.parse(child.stdout) as { collected: boolean; before: number; after: number };
  }

  it('shrinks the young generation start-up grew, with the flags of npm start', () => {
    const { collected, before, after } = collectIn(startFlags);
    expect(collected).toBe(true);
    expect(after).toBeLessThan(before / 2);
  });

  it('does nothing where gc is not exposed', () => {
    expect(collectIn([]).collected).toBe(false);
  });
});

describe('what the app loads', () => {
  it('leaves the console and pg unloaded in Slack modes with a SQLite store', () => {
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
      await import(${JSON.stringify(new URL('../src/app.ts', import.meta.url).href)});
      const { openDatabase } = await import(${JSON.stringify(new URL('../src/store/open.ts', import.meta.url).href)});
      await (await openDatabase({ sqlitePath: ':memory:' })).close();
      console.log(JSON.stringify(loaded));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const loaded = JSON.parse(child.stdout) as string[];
    expect(loaded.some((url) => url.endsWith('/src/app.ts'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/src/store/sql/sqlite.ts'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/src/console/'))).toEqual([]);
    expect(loaded.filter((url) => url.includes('/src/sandbox/'))).toEqual([]);
    expect(loaded.filter((url) => /\/node_modules\/pg[^/]*\//.test(url))).toEqual([]);
    expect(loaded.filter((url) => url.endsWith('/src/store/sql/postgres.ts'))).toEqual([]);
  });
});
