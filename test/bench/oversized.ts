/**
 * `npm run bench -- oversized`: our app (as `npm start` runs it) while the analytics service
 * ignores `limit` and answers every lookup with 200,000 rows (about 74 MB of JSON), beside a
 * baseline run of the same commands against the normal service. Each phase sends signed lookups
 * at a steady rate, open loop, and `help` commands until every lookup has its final message; it
 * reports the acks over that time, how far the app's resident memory rose above where it stood
 * before the phase, and how soon each person got the final message. The sandbox and the fake
 * Slack run in a process of their own, so their work is not counted as the app's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  peakResident,
  percentile,
  residentMiB,
  signingSecret,
  startOurApp,
  stop,
} from './slack.ts';

const commandsPerPhase = Number(process.env.BENCH_OVERSIZED_COMMANDS ?? 60);
const ratePerSecond = Number(process.env.BENCH_OVERSIZED_RATE ?? 4);
/** `help` commands, acked without a lookup, sent while lookups are in flight. */
const probeRatePerSecond = 5;
const oversizedItems = Number(process.env.BENCH_OVERSIZED_ITEMS ?? 200_000);
const warmupCommands = 20;
/** Every command's final message is waited for at most this long after the phase. */
const answerGiveUpMs = 60_000;
const ackGiveUpMs = 10_000;
const rssGrowthTargetMiB = 150;
const ackP99TargetMs = 1_000;
/** The words the person reads for a refused answer (render/errors.ts). */
const refusedWords = 'far larger than any ranking';

const thisFile = fileURLToPath(import.meta.url);
const databases = ['#hcsm', '#bcsm', '#lcsm', '#pharma'];
const windows = ['last week', 'yesterday', 'past 48 hours'];

interface Posted {
  readonly url: string;
  readonly text: string;
  readonly at: number;
}

type InfraMessage =
  | { readonly kind: 'infra'; readonly sandboxUrl: string; readonly slackUrl: string }
  | { readonly kind: 'scripted' }
  | {
      readonly kind: 'stats';
      readonly posted: readonly Posted[];
      readonly dataRequests: number;
      readonly streamed: number;
      readonly maxBytesWritten: number;
    };

/** The sandbox and the fake Slack; scripts the oversized answers and reports what it saw. */
async function infraRole(): Promise<void> {
  const { startSandbox } = await import('../../src/sandbox/server.ts');
  const { startSlackServer } = await import('../helpers/slack-server.ts');
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const slack = await startSlackServer();
  const send = (message: InfraMessage) => process.send?.(message);
  process.on('message', (message: { kind?: string; count?: number; items?: number }) => {
    if (message.kind === 'script') {
      const fault = { kind: 'ignores-limit', items: message.items ?? oversizedItems } as const;
      sandbox.script(...Array.from({ length: message.count ?? 0 }, () => fault));
      send({ kind: 'scripted' });
    } else if (message.kind === 'stats') {
      const data = sandbox.log.filter((record) => record.endpoint === 'data');
      const streamed = data.flatMap((record) => record.bodyBytesWritten ?? []);
      send({
        kind: 'stats',
        posted: slack.slack.responses().map((call) => ({
          url: call.url,
          text: String(call.args.text ?? ''),
          at: call.at,
        })),
        dataRequests: data.length,
        streamed: streamed.length,
        maxBytesWritten: Math.max(0, ...streamed),
      });
    }
  });
  send({ kind: 'infra', sandboxUrl: sandbox.url, slackUrl: slack.url });
}

function nextMessage<K extends InfraMessage['kind']>(
  child: ChildProcess,
  kind: K,
): Promise<Extract<InfraMessage, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${kind} message from the infra`)), 20_000);
    const onMessage = (message: InfraMessage) => {
      if (message.kind !== kind) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message as Extract<InfraMessage, { kind: K }>);
    };
    child.on('message', onMessage);
  });
}

interface Sent {
  readonly url: string;
  readonly sentAt: number;
}

interface PhaseResult {
  /** Acks of the lookups and of the probes sent while any lookup was unanswered, in ms. */
  readonly acks: number[];
  readonly ackErrors: number;
  readonly probes: number;
  /** Highest resident memory of the app until every lookup was answered, above the start, MiB. */
  readonly rssGrowth: number;
  readonly answers: FinalMessages;
}

/** Signs and sends one slash command; resolves with its ack time, or undefined on a failure. */
async function sendCommand(
  appUrl: string,
  text: string,
  responseUrl: string,
  userId: string,
  expected: string,
): Promise<number | undefined> {
  const { slashCommand } = await import('../helpers/payloads.ts');
  const { signSlackRequest } = await import('../helpers/signing.ts');
  const command = slashCommand({ text, userId, responseUrl });
  const started = performance.now();
  try {
    const response = await fetch(appUrl, {
      method: 'POST',
      headers: {
        'content-type': command.contentType,
        ...signSlackRequest(signingSecret, command.body),
      },
      body: command.body,
      signal: AbortSignal.timeout(ackGiveUpMs),
    });
    const body = await response.text();
    return response.status === 200 && body.includes(expected)
      ? performance.now() - started
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `count` lookups at `ratePerSecond`, each a question the app has not been asked yet, and `help`
 * probes at `probeRatePerSecond` (acked without a lookup) until every lookup has its final message:
 * the acks and the memory are watched for as long as any lookup is in flight.
 */
async function phase(
  infra: ChildProcess,
  target: { readonly appUrl: string; readonly slackUrl: string; readonly pid: number | undefined },
  label: string,
  count: number,
): Promise<PhaseResult> {
  const acks: number[] = [];
  let ackErrors = 0;
  const record = (ms: number | undefined) => {
    if (ms === undefined) ackErrors += 1;
    else acks.push(ms);
  };
  const sent: Sent[] = [];
  let answered = false;
  const lookups = (async () => {
    const pending: Promise<void>[] = [];
    const startedAt = performance.now();
    for (let index = 0; index < count; index += 1) {
      const wait = startedAt + (index * 1000) / ratePerSecond - performance.now();
      if (wait > 0) await sleep(wait);
      const database = databases[index % databases.length];
      const window = windows[Math.floor(index / databases.length) % windows.length];
      const top = 1 + Math.floor(index / (databases.length * windows.length));
      const url = `${target.slackUrl}/respond/${label}/${index}`;
      sent.push({ url, sentAt: Date.now() });
      const text = `${database} ${window} top ${top}`;
      pending.push(
        sendCommand(target.appUrl, text, url, `U0OVER${index % 20}`, 'Looking up').then(record),
      );
    }
    await Promise.all(pending);
    const answers = await finalMessages(infra, sent);
    answered = true;
    return answers;
  })();
  let probes = 0;
  const probing = (async () => {
    const pending: Promise<void>[] = [];
    while (!answered) {
      const url = `${target.slackUrl}/respond/${label}-probe/${probes}`;
      pending.push(
        sendCommand(target.appUrl, 'help', url, 'U0PROBE01', '/influencers').then(record),
      );
      probes += 1;
      await sleep(1000 / probeRatePerSecond);
    }
    await Promise.all(pending);
  })();
  const before = residentMiB(target.pid);
  const peak = await peakResident(target.pid, Promise.all([lookups, probing]));
  return { acks, ackErrors, probes, rssGrowth: peak - before, answers: await lookups };
}

interface FinalMessages {
  /** How long after its command each person got the final message, in ms, sorted. */
  readonly afterMs: number[];
  /** Final messages that said the answer was too large. */
  readonly refused: number;
  /** Commands with no final message within {@link answerGiveUpMs}. */
  readonly missing: number;
}

/** Waits until every command sent has its final message, or gives up; what they said. */
async function finalMessages(infra: ChildProcess, sent: readonly Sent[]): Promise<FinalMessages> {
  const deadline = Date.now() + answerGiveUpMs;
  for (;;) {
    infra.send({ kind: 'stats' });
    const { posted } = await nextMessage(infra, 'stats');
    const finals = new Map<string, Posted>();
    for (const post of posted) {
      if (!post.text.startsWith('Still looking up')) finals.set(post.url, post);
    }
    const found = sent.flatMap((command) => {
      const post = finals.get(command.url);
      return post === undefined ? [] : [{ post, afterMs: post.at - command.sentAt }];
    });
    if (found.length === sent.length || Date.now() > deadline) {
      return {
        afterMs: found.map((entry) => entry.afterMs).sort((a, b) => a - b),
        refused: found.filter((entry) => entry.post.text.includes(refusedWords)).length,
        missing: sent.length - found.length,
      };
    }
    await sleep(250);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const ms = (value: number) => `${value.toFixed(0)} ms`;
const mib = (value: number) => `${value.toFixed(0)} MiB`;

export async function run(): Promise<void> {
  const infra = spawn(process.execPath, [thisFile], {
    env: { PATH: process.env.PATH ?? '', BENCH_OVERSIZED_ROLE: 'infra' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let app: ChildProcess | undefined;
  try {
    const { sandboxUrl, slackUrl } = await nextMessage(infra, 'infra');
    const started = await startOurApp(sandboxUrl, slackUrl);
    app = started.child;
    const appUrl = `http://127.0.0.1:${started.port}/slack/events`;

    const target = { appUrl, slackUrl, pid: app.pid };
    await phase(infra, target, 'warmup', warmupCommands);
    const baseline = await phase(infra, target, 'baseline', commandsPerPhase);

    infra.send({ kind: 'script', count: commandsPerPhase, items: oversizedItems });
    await nextMessage(infra, 'scripted');
    const oversized = await phase(infra, target, 'oversized', commandsPerPhase);
    infra.send({ kind: 'stats' });
    const stats = await nextMessage(infra, 'stats');

    console.log(
      `${commandsPerPhase} signed commands per phase at ${ratePerSecond}/s (open loop), our app in its own process; ` +
        `the oversized service answers each lookup with ${oversizedItems.toLocaleString('en')} rows`,
    );
    for (const [name, result] of [
      ['normal service (baseline)', baseline],
      ['oversized answers', oversized],
    ] as const) {
      const acks = sorted(result.acks);
      const { answers } = result;
      console.log(
        `  ${name.padEnd(26)} ack p50 ${ms(percentile(acks, 50))}  p99 ${ms(percentile(acks, 99))}  max ${ms(acks.at(-1) ?? 0)}  ` +
          `(${acks.length} acks with ${result.probes} help probes, errors ${result.ackErrors})  peak RSS growth ${mib(result.rssGrowth)}  ` +
          `final message after p50 ${ms(percentile(answers.afterMs, 50))}, max ${ms(answers.afterMs.at(-1) ?? 0)}  ` +
          `told the answer was too large ${answers.refused}/${commandsPerPhase}${answers.missing > 0 ? `  NO final message ${answers.missing}` : ''}`,
      );
    }
    const p99 = percentile(sorted(oversized.acks), 99);
    const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
    console.log(
      `  with oversized answers: peak RSS growth ${mib(oversized.rssGrowth)} (target <= ${rssGrowthTargetMiB}: ${verdict(oversized.rssGrowth <= rssGrowthTargetMiB)}), ` +
        `ack p99 ${ms(p99)} (target <= ${ackP99TargetMs}: ${verdict(p99 <= ackP99TargetMs)}), ` +
        `everyone told: ${verdict(oversized.answers.refused === commandsPerPhase)}`,
    );
    console.log(
      `  the sandbox streamed ${stats.streamed} oversized answers, writing at most ${mib(stats.maxBytesWritten / 1048576)} of one before the app hung up or read it all`,
    );
  } finally {
    await stop(app);
    await stop(infra);
  }
}

if (process.env.BENCH_OVERSIZED_ROLE === 'infra') await infraRole();
