/**
 * Ack latency of /influencers under a steady open-loop load, beside the floor: a bare Bolt app on
 * the same HTTP receiver whose handler only acks. Each app runs in its own process (ours is
 * `node src/main.ts`, as `npm start` runs it), the analytics sandbox and a fake Slack (Web API and
 * response_url over HTTP, reached through SLACK_API_URL) in a third, and this process only sends
 * signed commands and times the acks. The two apps are measured alternately in rounds so that
 * machine noise hits both alike, six rounds each: on these machines one round's p50 of the same
 * app moved between 0.8 and 1.7 ms from one round to the next, so two rounds left the ratio to
 * chance. Loopback only; nothing is written to disk.
 *
 * By default each round is 2,000 commands at 200/s with the service answering after 10 s, the load
 * the goal is stated for: the lookups of a round are all in flight at once, and the "still looking"
 * updates and the answers of the first ones go out while the last ones are still being acked.
 * Then our app alone gets valid commands while a fourth process keeps 200 unsigned 3.9 MB requests
 * in flight against it, and then while six DMs of 40,000 characters arrive together every second.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type HostileReport, hostileBodyBytes, hostileRole } from './hostile.ts';

const rounds = Number(process.env.BENCH_SLACK_ROUNDS ?? 6);
const commandsPerRound = Number(process.env.BENCH_SLACK_COMMANDS ?? 2_000);
const ratePerSecond = Number(process.env.BENCH_SLACK_RATE ?? 200);
const latencyMs = Number(process.env.BENCH_SLACK_LATENCY_MS ?? 10_000);
const warmupCommands = 500;
/** Slack gives up after 3 s; the bench waits longer, then counts the command as an error. */
const ackGiveUpMs = 10_000;
/** The app's PROGRESS_UPDATE_MS: a lookup slower than this posts a "still looking" update too. */
const progressUpdateMs = 8_000;
/** Unsigned 3.9 MB requests kept in flight during the hostile phase, and its valid commands. */
const hostileConcurrency = 200;
const hostileCommands = Number(process.env.BENCH_SLACK_HOSTILE_COMMANDS ?? 1_000);
/** One member's flood: six DMs of 40,000 characters (`week of ` 5,000 times) sent together each second. */
const floodDms = 6;
const floodText = 'week of '.repeat(5_000);
const floodCommands = 1_000;
/** After a phase, our app still posts answers for about `latencyMs`; the next phase waits them out. */
const settleMs = latencyMs + 700;
export const signingSecret = 'bench-signing-secret';
const botToken = 'xoxb-bench-token';
const texts = [
  '#hcsm last week',
  '#bcsm yesterday',
  '"breast cancer" past 48 hours',
  'group:Oncology last week top 5',
  '#hcsm yesterday in Europe/London',
];

const thisFile = fileURLToPath(import.meta.url);
const appEntry = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

type ChildMessage =
  | { readonly kind: 'infra'; readonly sandboxUrl: string; readonly slackUrl: string }
  | { readonly kind: 'floor'; readonly port: number }
  | { readonly kind: 'stats'; readonly responseUrlPosts: number; readonly usersInfo: number }
  | { readonly kind: 'hostile-ready' }
  | HostileReport;

// --- child roles --------------------------------------------------------------------------------

/** The analytics sandbox and the fake Slack, out of the measuring process. */
async function infraRole(): Promise<void> {
  const { demoClient, startSandbox } = await import('../../src/sandbox/server.ts');
  const { startSlackServer } = await import('../helpers/slack-server.ts');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    latencyMs,
    clients: [{ ...demoClient }],
  });
  const slack = await startSlackServer();
  process.on('message', (message: { kind?: string }) => {
    if (message.kind !== 'stats') return;
    const stats: ChildMessage = {
      kind: 'stats',
      responseUrlPosts: slack.slack.responses().length,
      usersInfo: slack.slack.api('users.info').length,
    };
    process.send?.(stats);
  });
  const ready: ChildMessage = { kind: 'infra', sandboxUrl: sandbox.url, slackUrl: slack.url };
  process.send?.(ready);
}

/** A bare Bolt app on the same receiver as ours: signature check, the health route, an ack. */
async function floorRole(): Promise<void> {
  const { App, LogLevel } = await import('@slack/bolt');
  const app = new App({
    signingSecret,
    token: botToken,
    botId: 'B0BENCH01',
    botUserId: 'U0BENCH01',
    logLevel: LogLevel.ERROR,
    customRoutes: [
      {
        path: '/healthz',
        method: ['GET'],
        handler: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"status":"ok"}');
        },
      },
    ],
  });
  app.command('/influencers', async ({ ack }) => {
    await ack();
  });
  const server = (await app.start(0)) as Server;
  const ready: ChildMessage = { kind: 'floor', port: (server.address() as AddressInfo).port };
  process.send?.(ready);
}

// --- the measuring process ----------------------------------------------------------------------

export interface Target {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: string;
  /** Our app acks with what it looks up; the floor with an empty body. */
  readonly expectsPending: boolean;
  readonly latencies: number[];
  readonly roundP50s: number[];
  /** The highest resident memory seen while its measured rounds ran, in MiB. */
  peakRss: number;
  errors: number;
  sent: number;
  elapsedS: number;
}

export function spawnRole(role: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [thisFile], {
    env: { PATH: process.env.PATH ?? '', BENCH_SLACK_ROLE: role, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** The next message of `kind` a child process sends, or a rejection after `timeoutMs`. */
export function nextMessage<M extends { kind: string }, K extends M['kind']>(
  child: ChildProcess,
  kind: K,
  timeoutMs = 20_000,
): Promise<Extract<M, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`no ${kind} message from the child within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: M) => {
      if (message.kind !== kind) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message as Extract<M, { kind: K }>);
    };
    child.on('message', onMessage);
  });
}

/** The Node flags of `npm start` (V8 tuning), so the app runs here as it runs in production. */
function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  return pkg.scripts.start
    .split(/\s+/)
    .filter((arg) => arg.startsWith('--') && !arg.startsWith('--env-file'));
}

/** Our app as `npm start` runs it; resolves with its process and port once it logged its start. */
export async function startOurApp(
  sandboxUrl: string,
  slackUrl: string,
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<{ child: ChildProcess; port: number }> {
  const { demoClient } = await import('../../src/sandbox/server.ts');
  // BENCH_SLACK_CPU_PROF=<dir> writes a V8 CPU profile of our app, to see what delays the acks.
  const profileDir = process.env.BENCH_SLACK_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...startFlags(), appEntry], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: botToken,
      SLACK_API_URL: `${slackUrl}/api/`,
      ANALYTICS_BASE_URL: sandboxUrl,
      ANALYTICS_CLIENT_ID: demoClient.id,
      ANALYTICS_CLIENT_SECRET: demoClient.secret,
      // Every lookup reaches the sandbox, as distinct questions would.
      RESPONSE_CACHE_TTL_MS: '0',
      DIGESTS_SQLITE_PATH: ':memory:',
      DIGESTS_ENABLED: 'false',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`our app did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /"port":(\d+)[^\n]*"msg":"started in http mode"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`our app exited (${code}):\n${output}`)));
  });
  // Keep draining its logs so a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return { child, port };
}

/** Resident memory of a child in MiB, from the kernel's view of it (Linux); NaN elsewhere. */
export function residentMiB(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? Number.NaN : Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

export const mib = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} MiB`);

/** Samples a child's resident memory every 100 ms while `work` runs; resolves with the highest. */
export async function peakResident<T>(pid: number | undefined, work: Promise<T>): Promise<number> {
  let peak = residentMiB(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentMiB(pid));
  }, 100);
  try {
    await work;
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, residentMiB(pid));
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PhaseResult {
  readonly latencies: number[];
  readonly errors: number;
  readonly elapsedS: number;
}

/**
 * Sends `count` signed commands to `target` at `rate` a second, open loop: each leaves at its
 * scheduled time whatever the earlier ones are doing, so a slow ack cannot slow the load down.
 */
export async function phase(
  target: Target,
  slackUrl: string,
  count: number,
  label: string,
  rate = ratePerSecond,
): Promise<PhaseResult> {
  const { slashCommand } = await import('../helpers/payloads.ts');
  const { signSlackRequest } = await import('../helpers/signing.ts');
  const bodies = Array.from({ length: count }, (_, index) =>
    slashCommand({
      text: texts[index % texts.length] ?? '#hcsm last week',
      userId: `U0BENCH${index % 50}`,
      responseUrl: `${slackUrl}/respond/${label}/${index}`,
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const send = async (index: number) => {
    const command = bodies[index];
    if (command === undefined) return;
    const headers = {
      'content-type': command.contentType,
      ...signSlackRequest(signingSecret, command.body),
    };
    const started = performance.now();
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers,
        body: command.body,
        // An ack this late is lost to Slack anyway; counted as an error, it cannot stall the run.
        signal: AbortSignal.timeout(ackGiveUpMs),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      const ok =
        response.status === 200 &&
        (!target.expectsPending || text.includes('"text":"Looking up top influencers'));
      if (ok) latencies.push(ms);
      else errors += 1;
    } catch {
      errors += 1;
    }
  };

  const intervalMs = 1_000 / rate;
  const startedAt = performance.now();
  const pending: Promise<void>[] = [];
  let index = 0;
  while (index < count) {
    const now = performance.now();
    while (index < count && startedAt + index * intervalMs <= now) {
      pending.push(send(index));
      index += 1;
    }
    if (index < count) {
      const wait = startedAt + index * intervalMs - performance.now();
      await sleep(Math.max(0, wait));
    }
  }
  await Promise.all(pending);
  return { latencies, errors, elapsedS: (performance.now() - startedAt) / 1000 };
}

function record(target: Target, result: PhaseResult): void {
  target.elapsedS += result.elapsedS;
  target.sent += result.latencies.length + result.errors;
  target.errors += result.errors;
  target.latencies.push(...result.latencies);
  target.roundP50s.push(percentile(sorted(result.latencies), 50));
}

export const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/**
 * Our app's acks while `hostile` keeps 200 unsigned 3.9 MB requests in flight against it, and how
 * far its resident memory rose meanwhile.
 */
async function hostilePhase(
  target: Target,
  hostile: ChildProcess,
  slackUrl: string,
): Promise<{ result: PhaseResult; rssGrowth: number; report: HostileReport }> {
  const before = residentMiB(target.child.pid);
  hostile.send({ kind: 'hostile-start', url: target.url, concurrency: hostileConcurrency });
  // Let the hostile requests pile up before the valid ones start.
  await sleep(1_000);
  const running = phase(target, slackUrl, hostileCommands, 'hostile');
  const peak = await peakResident(target.child.pid, running);
  const result = await running;
  hostile.send({ kind: 'hostile-stop' });
  const report = await nextMessage<ChildMessage, 'hostile-report'>(
    hostile,
    'hostile-report',
    60_000,
  );
  return { result, rssGrowth: peak - before, report };
}

/**
 * Our app's acks while six DMs of 40,000 characters arrive together every second: a text that long
 * is refused unread, so the parse of one member's messages cannot hold up everyone's acks.
 */
async function dmFloodPhase(
  target: Target,
  slackUrl: string,
): Promise<{ result: PhaseResult; dms: number }> {
  const { directMessageEvent, eventCallback } = await import('../helpers/payloads.ts');
  const { signSlackRequest } = await import('../helpers/signing.ts');
  const sendDm = async () => {
    const event = eventCallback({ event: directMessageEvent(floodText) });
    const headers = {
      'content-type': event.contentType,
      ...signSlackRequest(signingSecret, event.body),
    };
    const init = { method: 'POST', headers, body: event.body };
    await fetch(target.url, { ...init, signal: AbortSignal.timeout(ackGiveUpMs) })
      .then((response) => response.text())
      .catch(() => undefined);
  };
  let dms = 0;
  const flood = setInterval(() => {
    for (let i = 0; i < floodDms; i += 1, dms += 1) void sendDm();
  }, 1_000);
  try {
    for (let i = 0; i < floodDms; i += 1, dms += 1) void sendDm();
    return { result: await phase(target, slackUrl, floodCommands, 'dm-flood'), dms };
  } finally {
    clearInterval(flood);
  }
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A graceful stop first, so a requested CPU profile gets written; then no more waiting.
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The line that sums up the hostile phase against its targets. */
function printHostile(attack: Awaited<ReturnType<typeof hostilePhase>>): void {
  const hostileAcks = sorted(attack.result.latencies);
  const hostileP99 = percentile(hostileAcks, 99);
  console.log(
    `  with ${hostileConcurrency} unsigned ${(hostileBodyBytes / 1048576).toFixed(1)} MB requests in flight (${attack.report.sent} sent: ${attack.report.refused} answered, ${attack.report.cut} cut): ` +
      `${hostileCommands} valid acks p50 ${percentile(hostileAcks, 50).toFixed(2)} ms, p99 ${hostileP99.toFixed(2)} ms (target < 500: ${hostileP99 < 500 ? 'met' : 'NOT met'}), ` +
      `errors ${attack.result.errors}, RSS growth ${mib(attack.rssGrowth)} (target < 50: ${attack.rssGrowth < 50 ? 'met' : 'NOT met'})`,
  );
}

export interface SlackBenchOptions {
  /** Only the hostile phase, after a warm-up of our app (`npm run bench -- hostile`). */
  readonly hostileOnly?: boolean;
}

export async function run(options: SlackBenchOptions = {}): Promise<void> {
  const benchStarted = performance.now();
  const infra = spawnRole('infra', { BENCH_SLACK_LATENCY_MS: String(latencyMs) });
  let ours: ChildProcess | undefined;
  let floor: ChildProcess | undefined;
  let hostile: ChildProcess | undefined;
  try {
    const { sandboxUrl, slackUrl } = await nextMessage<ChildMessage, 'infra'>(infra, 'infra');
    const started = await startOurApp(sandboxUrl, slackUrl);
    ours = started.child;
    hostile = spawnRole('hostile');
    await nextMessage<ChildMessage, 'hostile-ready'>(hostile, 'hostile-ready');

    const target = (name: string, child: ChildProcess, port: number, expectsPending: boolean) => ({
      name,
      child,
      url: `http://127.0.0.1:${port}/slack/events`,
      expectsPending,
      latencies: [],
      roundP50s: [],
      peakRss: 0,
      errors: 0,
      sent: 0,
      elapsedS: 0,
    });
    const oursTarget: Target = target('our app', ours, started.port, true);
    if (options.hostileOnly === true) {
      await phase(oursTarget, slackUrl, warmupCommands, 'warmup-our app');
      await sleep(settleMs);
      console.log(`our app, warmed up with ${warmupCommands} signed commands`);
      printHostile(await hostilePhase(oursTarget, hostile, slackUrl));
      return;
    }
    floor = spawnRole('floor');
    const { port: floorPort } = await nextMessage<ChildMessage, 'floor'>(floor, 'floor');
    const floorTarget: Target = target('bare Bolt (floor)', floor, floorPort, false);

    // Footprint before any load: what the app costs at rest, apart from what load adds.
    const idleRss = new Map([oursTarget, floorTarget].map((t) => [t, residentMiB(t.child.pid)]));
    // JIT, connections, the analytics token and the users.info cache, before measuring.
    for (const t of [oursTarget, floorTarget]) {
      await phase(t, slackUrl, warmupCommands, `warmup-${t.name}`);
      await sleep(settleMs);
    }
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? [oursTarget, floorTarget] : [floorTarget, oursTarget];
      for (const t of order) {
        // The answers of a round go out during its settle time: memory is watched through both.
        const measured = (async () => {
          record(t, await phase(t, slackUrl, commandsPerRound, `r${round}-${t.name}`));
          await sleep(settleMs);
        })();
        t.peakRss = Math.max(t.peakRss, await peakResident(t.child.pid, measured));
      }
    }
    const afterRss = new Map([oursTarget, floorTarget].map((t) => [t, residentMiB(t.child.pid)]));
    const attack = await hostilePhase(oursTarget, hostile, slackUrl);
    await sleep(settleMs);
    const dmFlood = await dmFloodPhase(oursTarget, slackUrl);
    await sleep(settleMs);

    infra.send({ kind: 'stats' });
    const stats = await nextMessage<ChildMessage, 'stats'>(infra, 'stats');
    const rows = [oursTarget, floorTarget].map((t) => {
      const all = sorted(t.latencies);
      return { t, p50: percentile(all, 50), p99: percentile(all, 99), max: all.at(-1) ?? 0 };
    });
    console.log(
      `${rounds} rounds x ${commandsPerRound} signed commands per app at ${ratePerSecond}/s (open loop, apps alternating, each in its own process), sandbox latency ${latencyMs} ms`,
    );
    for (const { t, p50, p99, max } of rows) {
      console.log(
        `  ${t.name.padEnd(18)} ack p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  max ${max.toFixed(2)} ms  ` +
          `achieved ${(t.sent / t.elapsedS).toFixed(0)}/s  errors ${t.errors}/${t.sent}  ` +
          `per-round p50 ${t.roundP50s.map((v) => v.toFixed(2)).join(', ')}  ` +
          `RSS idle ${mib(idleRss.get(t) ?? Number.NaN)}, peak ${mib(t.peakRss)}, after ${mib(afterRss.get(t) ?? Number.NaN)}`,
      );
    }
    const [app, base] = rows;
    if (app && base) {
      const ratio = app.p50 / base.p50;
      const idle = idleRss.get(oursTarget) ?? Number.NaN;
      const after = afterRss.get(oursTarget) ?? Number.NaN;
      const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
      console.log(
        `  ratio (ours / floor): p50 ${ratio.toFixed(2)} (target <= 1.3: ${verdict(ratio <= 1.3)}), p99 ${(app.p99 / base.p99).toFixed(2)}`,
      );
      console.log(
        `  our app: p99 ${app.p99.toFixed(0)} ms (target <= 100: ${verdict(app.p99 <= 100)}), RSS idle ${mib(idle)} (target <= 120: ${verdict(idle <= 120)}), after the load ${mib(after)} (target <= 256: ${verdict(after <= 256)})`,
      );
    }
    printHostile(attack);
    const floodAcks = sorted(dmFlood.result.latencies);
    const floodP99 = percentile(floodAcks, 99);
    console.log(
      `  with ${floodDms} DMs of ${floodText.length.toLocaleString('en-US')} characters arriving together every second (${dmFlood.dms} sent): ` +
        `${floodCommands} valid acks p50 ${percentile(floodAcks, 50).toFixed(2)} ms, p99 ${floodP99.toFixed(2)} ms (target <= 500: ${floodP99 <= 500 ? 'met' : 'NOT met'}), errors ${dmFlood.result.errors}`,
    );
    const lookups = rounds * commandsPerRound + warmupCommands + hostileCommands + floodCommands;
    console.log(
      `  fake Slack saw ${stats.responseUrlPosts} response_url posts for ${lookups} lookups (one answer each, after a "still looking" update when it took over ${progressUpdateMs / 1000} s: lookups that joined a shared call late need none) and ${stats.usersInfo} users.info calls; run took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`,
    );
  } finally {
    await stop(hostile);
    await stop(ours);
    await stop(floor);
    await stop(infra);
  }
}

const role = process.env.BENCH_SLACK_ROLE;
if (role === 'infra') await infraRole();
else if (role === 'floor') await floorRole();
else if (role === 'hostile') await hostileRole();
