/**
 * Slack acks while `/mcp` is busy, beside the same acks with `/mcp` idle, in one run. Our app runs
 * as `npm start` runs it (bearer token and Slack identity auth on), the analytics sandbox (slow:
 * every answer after `latencyMs`) and a fake Slack in a second process, the MCP load in a third,
 * and this process only sends signed commands and times the acks. Three kinds of phase, each
 * `commandsPerPhase` commands at `ratePerSecond`, run in `roundCount` rounds whose order rotates
 * (on a shared machine, noise then falls on every kind alike):
 * - baseline: nothing else;
 * - 100 single MCP export calls in flight (bearer token), each a distinct question, each replaced
 *   as soon as it is answered;
 * - five Slack-signed JSON-RPC batch bodies of 100 export calls each (19 KB), each sent again as
 *   soon as it is answered (were batches served, their work would outlive the phase).
 * Each kind prints the acks' p50 and p99 over its rounds, and the most the app's resident memory
 * rose above where one of its phases found it, against the targets: p99 <= 500 ms and growth
 * <= 100 MiB.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  mib,
  nextMessage,
  type PhaseResult,
  peakResident,
  percentile,
  phase,
  residentMiB,
  signingSecret,
  sorted,
  spawnRole,
  startOurApp,
  stop,
  type Target,
} from './slack.ts';

const latencyMs = Number(process.env.BENCH_MCP_LATENCY_MS ?? 2_000);
const commandsPerPhase = Number(process.env.BENCH_MCP_COMMANDS ?? 500);
const roundCount = Number(process.env.BENCH_MCP_ROUNDS ?? 3);
const ratePerSecond = Number(process.env.BENCH_MCP_RATE ?? 100);
const warmupCommands = 300;
const batchBodies = 5;
const callsPerBatch = 100;
const callsInFlight = 100;
const bearerToken = 'bench-mcp-bearer-token-0123456789abcdef';
const ackTargetMs = 500;
/** The slack part's wait for an ack, past which it counts the command as an error. */
const ackGiveUpMs = 10_000;
const growthTargetMiB = 100;
/** The answers of a phase's lookups go out for about `latencyMs` after it; the next waits them out. */
const settleMs = latencyMs + 1_500;

const thisFile = fileURLToPath(import.meta.url);

// --- the load role ------------------------------------------------------------------------------

type LoadStart =
  | { readonly kind: 'batches'; readonly url: string }
  | { readonly kind: 'calls'; readonly url: string };

export interface LoadReport {
  readonly kind: 'load-report';
  readonly sent: number;
  /** HTTP status (0: no answer) -> how many. */
  readonly statuses: Record<string, number>;
  /** Tool calls answered with a result, and those the result marks as an error. */
  readonly results: number;
  readonly toolErrors: number;
  /** JSON-RPC errors in answered bodies. */
  readonly rpcErrors: number;
}

const accept = 'application/json, text/event-stream';

/**
 * `BENCH_MCP_CALLS=read_window` makes the single calls cheap ones (a window read, no service
 * call), answered as fast as the app can: a flood rather than slow work.
 */
const cheapCalls = process.env.BENCH_MCP_CALLS === 'read_window';

function exportCall(id: number, window: string, databases: string, meta?: object) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'top_influencers',
      arguments: { databases, window: `${window} export` },
      ...(meta === undefined ? {} : { _meta: meta }),
    },
  };
}

function singleCall(id: number, window: string, databases: string) {
  if (!cheapCalls) return exportCall(id, window, databases);
  const params = { name: 'read_window', arguments: { text: window } };
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

const databases = ['#hcsm', '#bcsm', '#lcsm', '"breast cancer"'];

/** The n-th of `callsInFlight` distinct questions: no two share an analytics call. */
function question(n: number): { window: string; databases: string } {
  return {
    window: `past ${1 + (n % 25)} days`,
    databases: databases[Math.floor(n / 25) % databases.length] ?? '#hcsm',
  };
}

/** The JSON-RPC messages in a body, JSON or an event stream. */
function messagesIn(text: string): unknown[] {
  const parts = text.startsWith('event:')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
    : [text];
  return parts.flatMap((part) => {
    try {
      const parsed: unknown = JSON.parse(part);
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return [];
    }
  });
}

async function loadRole(): Promise<void> {
  const { signSlackRequest } = await import('../helpers/signing.ts');
  const { teamId, userId } = await import('../helpers/payloads.ts');
  let stopped = new AbortController();
  let workers: Promise<void>[] = [];
  let report: LoadReport = blank();
  function blank(): LoadReport {
    return { kind: 'load-report', sent: 0, statuses: {}, results: 0, toolErrors: 0, rpcErrors: 0 };
  }
  const post = async (url: string, body: string, headers: Record<string, string>) => {
    let status = 0;
    let text = '';
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, ...headers },
        body,
        signal: stopped.signal,
      });
      status = response.status;
      text = await response.text();
    } catch {
      // Cut at the end of the phase, or refused with the connection closed.
    }
    if (stopped.signal.aborted && status === 0) return;
    const messages = messagesIn(text) as { result?: { isError?: boolean }; error?: unknown }[];
    report = {
      ...report,
      sent: report.sent + 1,
      statuses: { ...report.statuses, [status]: (report.statuses[status] ?? 0) + 1 },
      results: report.results + messages.filter((m) => m.result !== undefined).length,
      toolErrors: report.toolErrors + messages.filter((m) => m.result?.isError === true).length,
      rpcErrors: report.rpcErrors + messages.filter((m) => m.error !== undefined).length,
    };
  };
  const meta = { slack: { user_id: userId, team_id: teamId } };
  const batchLoop = async (url: string, n: number) => {
    for (let round = 0; !stopped.signal.aborted; round += 1) {
      // Ids differ from body to body, so each has a signature never seen before.
      const calls = Array.from({ length: callsPerBatch }, (_, i) => {
        const asked = question(n * callsPerBatch + i);
        const id = (round * batchBodies + n) * callsPerBatch + i + 1;
        return exportCall(id, asked.window, asked.databases, meta);
      });
      const body = JSON.stringify(calls);
      await post(url, body, signSlackRequest(signingSecret, body));
    }
  };
  const callLoop = async (url: string, n: number) => {
    for (let round = 0; !stopped.signal.aborted; round += 1) {
      const asked = question(n);
      const body = JSON.stringify(singleCall(round + 1, asked.window, asked.databases));
      await post(url, body, { authorization: `Bearer ${bearerToken}` });
    }
  };
  process.on('message', (message: LoadStart | { kind: 'load-stop' }) => {
    if (message.kind === 'load-stop') {
      stopped.abort();
      void Promise.all(workers).then(() => process.send?.(report));
      return;
    }
    stopped = new AbortController();
    report = blank();
    workers =
      message.kind === 'batches'
        ? Array.from({ length: batchBodies }, (_, n) => batchLoop(message.url, n))
        : Array.from({ length: callsInFlight }, (_, n) => callLoop(message.url, n));
  });
  process.send?.({ kind: 'load-ready' });
}

// --- the measuring process ----------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Measured {
  readonly label: string;
  readonly result: PhaseResult;
  readonly growth: number;
  readonly load?: LoadReport;
}

/** The acks of one phase and the app's memory growth over it, with `load` running meanwhile. */
async function measured(
  label: string,
  target: Target,
  slackUrl: string,
  load?: { child: ChildProcess; start: LoadStart },
): Promise<Measured> {
  const before = residentMiB(target.child.pid);
  if (load !== undefined) {
    load.child.send(load.start);
    // Let the MCP load reach the app before the commands start.
    await sleep(1_000);
  }
  const running = phase(target, slackUrl, commandsPerPhase, label, ratePerSecond);
  const peak = await peakResident(target.child.pid, running);
  const result = await running;
  let report: LoadReport | undefined;
  if (load !== undefined) {
    load.child.send({ kind: 'load-stop' });
    report = await nextMessage<LoadReport, 'load-report'>(load.child, 'load-report', 60_000);
  }
  await sleep(settleMs);
  return {
    label,
    result,
    growth: peak - before,
    ...(report === undefined ? {} : { load: report }),
  };
}

/** The rounds of one kind of phase as one: every ack, the largest growth, the loads summed. */
function pooled(rounds: readonly Measured[]): Measured {
  const first = rounds[0];
  if (first === undefined) throw new Error('no round measured');
  const loads = rounds.flatMap((m) => (m.load === undefined ? [] : [m.load]));
  const load = loads.reduce<LoadReport | undefined>(
    (sum, each) =>
      sum === undefined
        ? each
        : {
            kind: 'load-report',
            sent: sum.sent + each.sent,
            statuses: Object.fromEntries(
              [...new Set([...Object.keys(sum.statuses), ...Object.keys(each.statuses)])].map(
                (status) => [status, (sum.statuses[status] ?? 0) + (each.statuses[status] ?? 0)],
              ),
            ),
            results: sum.results + each.results,
            toolErrors: sum.toolErrors + each.toolErrors,
            rpcErrors: sum.rpcErrors + each.rpcErrors,
          },
    undefined,
  );
  return {
    label: first.label,
    result: {
      latencies: rounds.flatMap((m) => m.result.latencies),
      errors: rounds.reduce((sum, m) => sum + m.result.errors, 0),
      elapsedS: rounds.reduce((sum, m) => sum + m.result.elapsedS, 0),
    },
    growth: Math.max(...rounds.map((m) => m.growth)),
    ...(load === undefined ? {} : { load }),
  };
}

/** Every ack of a phase, an ack lost (none within 10 s) counted as 10 s: it is no faster. */
function acksOf(m: Measured): number[] {
  return sorted([...m.result.latencies, ...Array<number>(m.result.errors).fill(ackGiveUpMs)]);
}

function line(m: Measured, baselineP99: number): string {
  const acks = acksOf(m);
  const p99 = percentile(acks, 99);
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  const load =
    m.load === undefined
      ? ''
      : `; MCP: ${m.load.sent} requests answered (HTTP ${Object.entries(m.load.statuses)
          .map(([status, n]) => `${status} x${n}`)
          .join(
            ', ',
          )}), ${m.load.results} tool results (${m.load.toolErrors} tool errors), ${m.load.rpcErrors} JSON-RPC errors`;
  const ratio = m.load === undefined ? '' : `, ${(p99 / baselineP99).toFixed(2)}x the baseline's`;
  return (
    `  ${m.label.padEnd(34)} ack p50 ${percentile(acks, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms${ratio} ` +
    `(<= ${ackTargetMs}: ${verdict(p99 <= ackTargetMs)}), acks lost (counted as 10 s) ${m.result.errors}, ` +
    `RSS growth ${mib(m.growth)} (<= ${growthTargetMiB}: ${verdict(m.growth <= growthTargetMiB)})${load}`
  );
}

export async function run(): Promise<void> {
  const infra = spawnRole('infra', { BENCH_SLACK_LATENCY_MS: String(latencyMs) });
  let ours: ChildProcess | undefined;
  const loadChild = spawn(process.execPath, [thisFile], {
    env: {
      PATH: process.env.PATH ?? '',
      BENCH_MCP_ROLE: 'load',
      BENCH_MCP_CALLS: process.env.BENCH_MCP_CALLS ?? '',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { sandboxUrl, slackUrl } = await nextMessage<
      {
        kind: 'infra';
        sandboxUrl: string;
        slackUrl: string;
      },
      'infra'
    >(infra, 'infra', 60_000);
    const started = await startOurApp(sandboxUrl, slackUrl, {
      MCP_BEARER_TOKEN: bearerToken,
      MCP_SLACK_IDENTITY_AUTH: 'true',
    });
    ours = started.child;
    await nextMessage<{ kind: 'load-ready' }, 'load-ready'>(loadChild, 'load-ready', 60_000);
    const base = `http://127.0.0.1:${started.port}`;
    const target: Target = {
      name: 'our app',
      child: ours,
      url: `${base}/slack/events`,
      expectsPending: true,
      latencies: [],
      roundP50s: [],
      peakRss: 0,
      errors: 0,
      sent: 0,
      elapsedS: 0,
    };
    await phase(target, slackUrl, warmupCommands, 'mcp-warmup', ratePerSecond);
    await sleep(settleMs);
    const mcp = `${base}/mcp`;
    const kinds: { label: string; start?: LoadStart }[] = [
      { label: 'baseline (/mcp idle)' },
      {
        label: `${callsInFlight} MCP ${cheapCalls ? 'read_window' : 'export'} calls in flight`,
        start: { kind: 'calls', url: mcp },
      },
      { label: `${batchBodies} batch bodies in flight`, start: { kind: 'batches', url: mcp } },
    ];
    const rounds: Measured[][] = kinds.map(() => []);
    for (let round = 0; round < roundCount; round += 1) {
      // Each round starts from another phase, so machine noise falls on every kind alike.
      for (let step = 0; step < kinds.length; step += 1) {
        const at = (round + step) % kinds.length;
        const kind = kinds[at];
        if (kind === undefined) continue;
        const load = kind.start === undefined ? undefined : { child: loadChild, start: kind.start };
        rounds[at]?.push(await measured(kind.label, target, slackUrl, load));
      }
    }
    const phases = rounds.map(pooled);
    console.log(
      `${roundCount} rounds of ${kinds.length} phases (order rotating), each ${commandsPerPhase} signed commands at ${ratePerSecond}/s; sandbox latency ${latencyMs} ms; ` +
        `batches: ${batchBodies} Slack-signed bodies of ${callsPerBatch} export calls; calls: ${callsInFlight} distinct ${cheapCalls ? 'windows' : 'export questions'}; RSS growth: the largest of a phase's rounds`,
    );
    const baseline = phases[0];
    const baselineP99 = baseline === undefined ? Number.NaN : percentile(acksOf(baseline), 99);
    for (const m of phases) console.log(line(m, baselineP99));
  } finally {
    await stop(loadChild);
    await stop(ours);
    await stop(infra);
  }
}

if (process.env.BENCH_MCP_ROLE === 'load') await loadRole();
