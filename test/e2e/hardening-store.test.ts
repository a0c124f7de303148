/**
 * Issue 18, item 7: a PostgreSQL that accepts connections and never answers (a black hole between
 * the app and the database) must not silence the app. Commands that need the store answer within
 * 10 s saying it is unavailable, lookups go on, `/healthz` says 503 with the reason while it lasts
 * and 200 again after; a start against such a database ends in seconds with one sentence.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/app-config.ts';
import { createLogger } from '../../src/logger.ts';
import { startFailureText } from '../../src/render/startup.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { startFailure } from '../../src/slack/process/startup.ts';
import { announcePostgresSkip, TestPostgres, testDatabaseUrl } from '../digests/helpers.ts';
import { FakeSlack } from '../helpers/fake-slack.ts';
import {
  botToken,
  type Harness,
  signingSecret,
  slackApiUrl,
  startHarness,
} from '../helpers/harness.ts';
import { finalResponse } from '../helpers/lookups.ts';
import { slashCommand } from '../helpers/payloads.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

const storeWords = "The app's digest store is not answering right now";
const tick = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The database URL through `port`, with the tables in `schema`: never the test's own public schema. */
function urlThrough(port: number, schema: string, password = ''): string {
  const url = new URL(testDatabaseUrl ?? 'postgres://postgres@127.0.0.1:5432/test');
  url.host = `127.0.0.1:${port}`;
  if (password !== '') url.password = password;
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function healthz(harness: Harness) {
  const response = await fetch(`${harness.url}/healthz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Polls `/healthz` (its answer is reused for a second) until it says `status`. */
async function healthzUntil(harness: Harness, status: number, withinMs = 8_000) {
  const started = performance.now();
  for (;;) {
    const answer = await healthz(harness);
    if (answer.status === status || performance.now() - started > withinMs) return answer;
    await tick(100);
  }
}

announcePostgresSkip();
describe.skipIf(!testDatabaseUrl)('a PostgreSQL digest store behind a black hole', () => {
  const database = new TestPostgres();
  let proxy: TcpProxy;
  let harness: Harness;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${database.schema}`);
    await admin.end();
    const target = new URL(testDatabaseUrl ?? '');
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    harness = await startHarness({
      env: {
        DATABASE_URL: urlThrough(proxy.port, database.schema, 'db-secret-9f2c'),
        DATABASE_CONNECT_TIMEOUT_MS: '300',
        DATABASE_STATEMENT_TIMEOUT_MS: '300',
      },
    });
    harness.slack.override('conversations.info', (args) => ({
      ok: true,
      channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
    }));
  });

  afterAll(async () => {
    proxy?.forward();
    await harness?.close();
    await proxy?.close();
    await database.drop();
  });

  it('answers, lets lookups through and reports 503 while the store does not answer, then recovers', async () => {
    expect(await healthz(harness)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const created = slashCommand({
      text: 'digest #pharma every monday at 10am',
      channelId: 'C0STORE01',
    });
    expect((await harness.send(created)).status).toBe(200);
    expect(String((await harness.slack.waitForResponse(created.responseUrl)).args.text)).toMatch(
      /^Digest [0-9A-Z]{6} created/,
    );

    proxy.blackHole();
    const started = performance.now();
    const command = slashCommand({ text: 'digest #pharma every monday at 10am' });
    const ack = await harness.send(command);
    expect(ack.status).toBe(200);
    expect(ack.ms).toBeLessThan(3_000);
    const answer = await harness.slack.waitForResponse(command.responseUrl, 1, 10_000);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(String(answer.args.text)).toContain(storeWords);

    const listed = slashCommand({ text: 'digests', channelId: 'C0STORE01' });
    await harness.send(listed);
    expect(String((await harness.slack.waitForResponse(listed.responseUrl)).args.text)).toContain(
      storeWords,
    );

    const lookup = slashCommand({ text: '#hcsm last week' });
    const lookupAck = await harness.send(lookup);
    expect(lookupAck.ms).toBeLessThan(3_000);
    const ranking = await finalResponse(harness, lookup.responseUrl);
    expect(JSON.stringify(ranking.args.blocks)).toContain('Top influencers for #hcsm');

    const down = await healthzUntil(harness, 503);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: 'degraded',
      store: 'unavailable',
      reason: expect.stringMatching(/^no (answer|connection) within \d+ ms$/),
      version: harness.config.version,
      mode: 'http',
    });
    expect(JSON.stringify(down.body)).not.toMatch(/db-secret|postgres:|search_path/);

    proxy.forward();
    expect(await healthzUntil(harness, 200)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const again = slashCommand({ text: 'digests', channelId: 'C0STORE01' });
    await harness.send(again);
    const list = await harness.slack.waitForResponse(again.responseUrl);
    expect(String(list.args.text)).not.toContain(storeWords);
    expect(JSON.stringify(list.args.blocks)).toContain('#pharma');

    const logs = harness.logs.join('\n');
    expect(logs).toContain('the digest store does not answer');
    expect(logs).toContain('the digest store answers again');
    expect(logs).not.toContain('db-secret-9f2c');
  });
});

describe('starting against a database that never answers', () => {
  it('gives up within seconds with one sentence that names the store and not its password', async () => {
    const hole = await TcpProxy.start();
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    const slack = new FakeSlack({ apiUrl: slackApiUrl });
    const config = loadConfig({
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: botToken,
      SLACK_API_URL: slackApiUrl,
      ANALYTICS_BASE_URL: sandbox.url,
      ANALYTICS_CLIENT_ID: 'id',
      ANALYTICS_CLIENT_SECRET: 'secret',
      DATABASE_URL: `postgres://postgres:db-secret-9f2c@127.0.0.1:${hole.port}/test`,
      DATABASE_CONNECT_TIMEOUT_MS: '500',
      DIGESTS_ENABLED: 'false',
      LOG_LEVEL: 'silent',
    });
    if (config.mode !== 'http') throw new Error('expected HTTP mode');
    const running = createApp(config, {
      fetch: slack.fetch,
      logger: createLogger({ level: 'silent' }),
      port: 0,
    });
    const started = performance.now();
    try {
      const failure = await running.start().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(performance.now() - started).toBeLessThan(5_000);
      const sentence = startFailureText(startFailure(failure, 0));
      expect(sentence).toBe(
        `Cannot start: the digest store (PostgreSQL 127.0.0.1:${hole.port}/test) could not be opened (Connection terminated due to connection timeout): check DATABASE_URL, or unset it to keep digests in SQLite at DIGESTS_SQLITE_PATH.`,
      );
    } finally {
      await running.stop().catch(() => undefined);
      await hole.close();
      await sandbox.close();
    }
  });
});
