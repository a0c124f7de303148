/**
 * Ack latency of /influencers under a steady open-loop load, beside the floor: a bare Bolt app on
 * the same receiver whose handler only acks, driven in the same run with requests interleaved, so
 * machine noise hits both alike. The analytics sandbox answers after `latencyMs`; Slack's side
 * (users.info, response_url) is the in-process fake.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/logger.ts';
import { demoClient, startSandbox } from '../../src/sandbox/server.ts';
import { boltLogger } from '../../src/slack/bolt-logger.ts';
import { FakeSlack } from '../helpers/fake-slack.ts';
import { botId, botUserId, slashCommand } from '../helpers/payloads.ts';
import { signSlackRequest } from '../helpers/signing.ts';

const commands = Number(process.env.BENCH_SLACK_COMMANDS ?? 2_000);
const ratePerSecond = 200;
const latencyMs = 300;
const signingSecret = 'bench-signing-secret';
const texts = [
  '#hcsm last week',
  '#bcsm yesterday',
  '"breast cancer" past 48 hours',
  'group:Oncology last week top 5',
  '#hcsm yesterday in Europe/London',
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Target {
  readonly name: string;
  readonly url: string;
  readonly latencies: number[];
  failures: number;
}

export async function run(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', latencyMs });
  const slack = new FakeSlack();

  const config = loadConfig({
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: 'xoxb-bench-token',
    ANALYTICS_BASE_URL: sandbox.url,
    ANALYTICS_CLIENT_ID: demoClient.id,
    ANALYTICS_CLIENT_SECRET: demoClient.secret,
    LOG_LEVEL: 'silent',
  });
  if (config.mode !== 'http') throw new Error('bench needs HTTP mode');
  const ours = createApp(config, { fetch: slack.fetch, logger: silentLogger, port: 0 });
  const { port } = await ours.start();

  const floorApp = new App({
    signingSecret,
    token: 'xoxb-bench-token',
    botId,
    botUserId,
    logger: boltLogger(silentLogger),
    clientOptions: { fetch: slack.fetch },
  });
  floorApp.command('/influencers', async ({ ack }) => {
    await ack();
  });
  const floorServer = (await floorApp.start(0)) as Server;
  const floorPort = (floorServer.address() as AddressInfo).port;

  const targets: Target[] = [
    { name: 'our app', url: `http://127.0.0.1:${port}/slack/events`, latencies: [], failures: 0 },
    {
      name: 'bare Bolt (floor)',
      url: `http://127.0.0.1:${floorPort}/slack/events`,
      latencies: [],
      failures: 0,
    },
  ];

  let inFlight = 0;
  let maxInFlight = 0;
  const send = async (target: Target, index: number) => {
    const command = slashCommand({
      text: texts[index % texts.length] ?? '#hcsm last week',
      userId: `U0BENCH${index % 50}`,
    });
    const headers = {
      'content-type': command.contentType,
      ...signSlackRequest(signingSecret, command.body),
    };
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const started = performance.now();
    try {
      const response = await fetch(target.url, { method: 'POST', headers, body: command.body });
      await response.arrayBuffer();
      if (response.status === 200) target.latencies.push(performance.now() - started);
      else target.failures += 1;
    } catch {
      target.failures += 1;
    } finally {
      inFlight -= 1;
    }
  };

  // Warm up both (JIT, connections, token, users.info cache) before measuring.
  await Promise.all(
    Array.from({ length: 50 }, (_, i) => Promise.all(targets.map((t) => send(t, i)))),
  );
  for (const target of targets) {
    target.latencies.length = 0;
    target.failures = 0;
  }
  maxInFlight = 0;

  const intervalMs = 1_000 / ratePerSecond;
  const startedAt = performance.now();
  const pending: Promise<void>[] = [];
  for (let index = 0; index < commands; index += 1) {
    const due = startedAt + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // Alternate which app goes first so neither always gets the fresher event loop turn.
    const order = index % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) pending.push(send(target, index));
  }
  await Promise.all(pending);
  const elapsedS = (performance.now() - startedAt) / 1000;
  await new Promise((resolve) => setTimeout(resolve, latencyMs * 3));

  const rows = targets.map((target) => {
    const sorted = [...target.latencies].sort((a, b) => a - b);
    return { target, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
  console.log(
    `${commands} signed commands per app at ${ratePerSecond}/s each (interleaved, open loop; ${(commands / elapsedS).toFixed(0)}/s achieved), sandbox latency ${latencyMs} ms, max ${maxInFlight} requests in flight`,
  );
  for (const { target, p50, p99 } of rows) {
    console.log(
      `  ${target.name.padEnd(18)} ack p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  failures ${target.failures}`,
    );
  }
  const [app, floor] = rows;
  if (app && floor) {
    console.log(
      `  ratio (ours / floor): p50 ${(app.p50 / floor.p50).toFixed(2)} (target <= 1.3), p99 ${(app.p99 / floor.p99).toFixed(2)}`,
    );
  }
  const answers = slack.calls.filter((call) => call.kind === 'response_url').length;
  console.log(
    `  response_url posts captured: ${answers}; users.info calls: ${slack.api('users.info').length}`,
  );
  console.log(
    `  resident memory after the run: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`,
  );

  await ours.stop();
  await floorApp.stop();
  await sandbox.close();
}
