/**
 * Digests benchmark: 100,000 digests due in one tick over 5,000 distinct questions, the sandbox
 * answering each after 200 ms, with the runner's default settings except `maxPerTick` (raised to
 * take every due digest in the one tick), on SQLite and on PostgreSQL (when TEST_DATABASE_URL is
 * set). Each part prints whether its target is met:
 * - 5,000 analytics calls (each distinct question once), against the naive one call per digest;
 * - claim and compute within 1.15 times the analytics floor: every digest claimed, its question
 *   answered and its message rendered, against the time the 5,000 calls take alone at the default
 *   concurrency;
 * - a peak resident set size of at most 300 MB: a tick holds what its batches hold, not every
 *   digest due;
 * - with the workspace's circuit open (an outage), two ticks cost at most one probe per
 *   workspace per tick and no posts.
 * It also times the whole tick, posting included (posts go to an instant fake poster and every
 * digest has its own channel, so pacing never waits), with what that time is made of: rendering,
 * and the posting records written in each post's own step, at most `postConcurrency` at once.
 * Then claims per second. PostgreSQL tables are analyzed after the fill, as autovacuum does in
 * production (test servers often run without it); claims per second are also shown before that.
 * Then 1,000 conferences refreshing at once (conferences-part.ts), against their own targets.
 * The part takes several minutes: each tick lasts at least the floor (about a minute), and each
 * store is filled three times.
 *
 * Each store's tick runs in a process of its own (this file again, in its `tick` role), started
 * with the node flags `npm start` gives the app (package.json), so that its peak RSS is that
 * tick's alone, fill included, under the app's garbage-collector settings. The sandbox runs in a
 * child process too (its `sandbox` role), as the analytics service runs elsewhere in production:
 * the measured process is the app's alone, and the sandbox's own work (about 5 ms of CPU per
 * answer) does not compete with the tick.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import { everyTeam } from '../../src/digests/per-team.ts';
import {
  type DigestPoster,
  DigestRunner,
  defaultAnalyticsConcurrency,
  defaultPostConcurrency,
} from '../../src/digests/runner.ts';
import type { NewDigest } from '../../src/model/digest.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digests/digest-post.ts';
import { demoClient } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { openPostgresDatabase } from '../../src/store/sql/postgres.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';
import { withRepositories } from '../helpers/repositories.ts';
import { conferencesPart } from './conferences-part.ts';

const digestCount = 100_000;
/**
 * Digests due in the claims-per-second and outage parts. The first claims without finishing any,
 * so each claim passes over every lease taken before it, which a tick (finishing as it claims)
 * does not; the second claims next to nothing.
 */
const claimedCount = 10_000;
const latencyMs = 200;
const concurrency = defaultAnalyticsConcurrency;
const predicates = [
  '#hcsm',
  '#bcsm',
  '#lcsm',
  '#mcsm',
  '#pharma',
  '#meded',
  '#digitalhealth',
  '#patientsafety',
  '#raredisease',
  '#oncology',
];
const tops = 50;
const windows = 10;
// 10 databases x 50 sizes of "top" x 10 windows = 5,000 distinct questions, 20 digests each.
const questionCount = predicates.length * tops * windows;
/** The most a claim and compute may take, against the time the analytics calls take alone. */
const floorFactor = 1.15;
const peakRssTargetMb = 300;
const slot = new Date('2026-06-08T08:00:00Z');
const now = new Date('2026-06-08T08:00:10Z');

function input(i: number): NewDigest {
  const question = i % questionCount;
  const days = Math.floor(question / (predicates.length * tops));
  return {
    teamId: 'T1',
    channelId: `C${i}`,
    creatorId: 'U1',
    databases: [predicates[question % predicates.length] ?? '#hcsm'],
    schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'Europe/London', cadence: 'weekly' },
    window: { kind: 'last', amount: 1 + days, unit: 'days' },
    top: 1 + (Math.floor(question / predicates.length) % tops),
    nextRunAt: slot,
  };
}

async function fill(store: Database, count: number): Promise<void> {
  const workers = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count) await store.digests.create(input(next++), now);
    }),
  );
}

// --- the sandbox's process -----------------------------------------------------------------------

type SandboxMessage =
  | { readonly kind: 'ready'; readonly url: string }
  | { readonly kind: 'counts'; readonly requests: number; readonly dataRequests: number };

/** The sandbox role: answers after `latencyMs`, and tells how many requests it saw when asked. */
async function sandboxRole(): Promise<void> {
  const { startSandbox } = await import('../../src/sandbox/server.ts');
  const sandbox = await startSandbox({ latencyMs: Number(process.env.BENCH_DIGESTS_LATENCY_MS) });
  process.on('message', async (message: { kind?: string }) => {
    if (message.kind === 'counts') {
      const counts: SandboxMessage = {
        kind: 'counts',
        requests: sandbox.log.length,
        dataRequests: sandbox.log.filter((record) => record.endpoint === 'data').length,
      };
      process.send?.(counts);
    } else if (message.kind === 'close') {
      await sandbox.close();
      process.exit(0);
    }
  });
  // The measuring process is gone (finished or failed): nothing left to answer.
  process.on('disconnect', () => process.exit(0));
  const ready: SandboxMessage = { kind: 'ready', url: sandbox.url };
  process.send?.(ready);
}

interface RemoteSandbox {
  readonly url: string;
  /** Requests the sandbox saw so far: all of them, and those for data (not tokens). */
  counts(): Promise<{ readonly requests: number; readonly dataRequests: number }>;
  close(): Promise<void>;
}

function nextMessage<K extends SandboxMessage['kind']>(
  child: ChildProcess,
  kind: K,
): Promise<Extract<SandboxMessage, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`no ${kind} message from the sandbox's process within 20 s`));
    }, 20_000);
    const onMessage = (message: SandboxMessage) => {
      if (message.kind !== kind) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message as Extract<SandboxMessage, { kind: K }>);
    };
    child.on('message', onMessage);
  });
}

/** The sandbox in a process of its own, answering after `latencyMs`. */
async function startRemoteSandbox(): Promise<RemoteSandbox> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    env: {
      PATH: process.env.PATH ?? '',
      BENCH_DIGESTS_ROLE: 'sandbox',
      BENCH_DIGESTS_LATENCY_MS: String(latencyMs),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await nextMessage(child, 'ready');
  return {
    url,
    async counts() {
      const answer = nextMessage(child, 'counts');
      child.send({ kind: 'counts' });
      const { requests, dataRequests } = await answer;
      return { requests, dataRequests };
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ kind: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// --- the measuring process ----------------------------------------------------------------------

const capturingPoster = (): DigestPoster & { posts: number } => {
  const poster = {
    posts: 0,
    async post() {
      poster.posts++;
      return { ts: `1700000000.${poster.posts}` };
    },
    async notifyCreator() {},
    async notifyAdmins() {},
    async workspace() {
      return 'T1';
    },
  };
  return poster;
};

/** The process's peak resident set size: the whole run so far, fills included (not the sandbox). */
function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Samples the resident set size until stopped; resolves with the highest sample, in MB. */
function sampleRss(): () => number {
  let most = process.memoryUsage.rss();
  const timer = setInterval(() => {
    most = Math.max(most, process.memoryUsage.rss());
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(most, process.memoryUsage.rss()) / 1024 / 1024);
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Each target's verdict, printed beside its figure and again at the end. */
const verdicts: string[] = [];
function verdict(what: string, met: boolean): string {
  const word = met ? 'met' : 'missed';
  verdicts.push(`${what}: ${word}`);
  return word;
}

/** Brings the planner's statistics up to date, as autovacuum would after a bulk fill. */
type Analyze = () => Promise<void>;

async function claimsPerSecond(store: Database, analyze?: Analyze): Promise<number> {
  await fill(store, claimedCount);
  await analyze?.();
  const started = performance.now();
  let claimed = 0;
  for (;;) {
    const batch = await store.digests.claimDue(now, {
      limit: 200,
      leaseMs: 300_000,
      owner: 'bench',
    });
    claimed += batch.length;
    if (batch.length === 0) break;
  }
  return claimed / ((performance.now() - started) / 1000);
}

interface CallTimes {
  calls: number;
  ms: number;
  /** When the last call returned, from the tick's start. */
  lastAt: number;
}

/**
 * The database with the digests' and runs' `methods` timed (calls, time until each answered, when
 * the last one did); the rest passes through. Methods run on the repositories themselves, whose
 * fields are private.
 */
function timedStore(
  store: Database,
  methods: readonly string[],
  since: () => number,
): { store: Database; times: Map<string, CallTimes> } {
  const times = new Map(methods.map((name) => [name, { calls: 0, ms: 0, lastAt: 0 }]));
  const handler = <T extends object>(): ProxyHandler<T> => ({
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const time = typeof property === 'string' ? times.get(property) : undefined;
      if (time === undefined) return value.bind(target);
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await value.apply(target, args);
        } finally {
          time.calls++;
          time.ms += performance.now() - started;
          time.lastAt = since();
        }
      };
    },
  });
  const digests = new Proxy(store.digests, handler());
  const runs = new Proxy(store.runs, handler());
  return { store: withRepositories(store, { digests, runs }), times };
}

async function tick(store: Database, label: string, analyze?: Analyze): Promise<void> {
  const sandbox = await startRemoteSandbox();
  const client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
  try {
    const filling = performance.now();
    await fill(store, digestCount);
    await analyze?.();
    console.log(
      `${label}: ${digestCount} digests due, filled in ${seconds(performance.now() - filling)}`,
    );
    const poster = capturingPoster();
    let started = 0;
    const since = () => performance.now() - started;
    const timed = timedStore(store, ['claimDue', 'beginDeliveries', 'completeMany'], since);
    let lastAnswerAt = 0;
    const render = { count: 0, ms: 0, lastAt: 0 };
    const runner = new DigestRunner({
      db: timed.store,
      analytics: {
        async getInfluencers(query, options) {
          const result = await client.getInfluencers(query, options);
          lastAnswerAt = since();
          return result;
        },
      },
      posters: everyTeam(poster),
      renderDigest: (...args) => {
        const begun = performance.now();
        try {
          return renderDigestMessage(...args);
        } finally {
          render.count++;
          render.ms += performance.now() - begun;
          render.lastAt = since();
        }
      },
      renderPauseNotice: renderDigestPaused,
      options: { maxPerTick: digestCount },
    });
    const rssBefore = Math.round(process.memoryUsage.rss() / 1024 / 1024);
    const tickRss = sampleRss();
    started = performance.now();
    const report = await runner.runDue(now);
    const tickMs = since();
    const tickPeakMb = tickRss();
    const peakMb = peakRssMb();
    const { dataRequests } = await sandbox.counts();
    const naiveSeconds = (digestCount * latencyMs) / concurrency / 1000;
    const floorMs = Math.ceil(questionCount / concurrency) * latencyMs;
    const computedMs = Math.max(lastAnswerAt, render.lastAt);
    const claims = timed.times.get('claimDue');
    const begins = timed.times.get('beginDeliveries');
    const completions = timed.times.get('completeMany');
    const mean = (time: CallTimes | undefined) =>
      time && time.calls > 0 ? `${(time.ms / time.calls).toFixed(1)} ms` : '-';
    console.log(
      `${label}: ${report.claimed} claimed, ${poster.posts} posted, ${report.failed} failed`,
    );
    console.log(
      `${label}: analytics calls ${report.analyticsCalls} (sandbox saw ${dataRequests}) | naive one call per digest: ${digestCount} | target ${questionCount}: ${verdict(`${label}: ${questionCount} analytics calls`, report.analyticsCalls === questionCount && dataRequests === questionCount)}`,
    );
    const everyDigest = report.claimed === digestCount && render.count === digestCount;
    console.log(
      `${label}: claim and compute (every digest claimed, answered and its message rendered) ${seconds(computedMs)}, ${(computedMs / floorMs).toFixed(2)}x the analytics floor | target at most ${floorFactor}x the floor (${seconds(floorMs * floorFactor)}): ${verdict(`${label}: claim and compute within ${floorFactor}x the analytics floor`, everyDigest && computedMs <= floorMs * floorFactor)} | claims done at ${seconds(claims?.lastAt ?? 0)}, last answer at ${seconds(lastAnswerAt)}, last render at ${seconds(render.lastAt)} | analytics floor: ${questionCount} calls alone take at least ${seconds(floorMs)} (concurrency ${concurrency}) | naive at the same concurrency: about ${naiveSeconds.toFixed(0)} s`,
    );
    console.log(
      `${label}: whole tick, posting to an instant fake poster included, ${seconds(tickMs)} (no target: Slack paces real posts) | rendering ${render.count} messages held the event loop ${seconds(render.ms)} | posting records, written in each post's own step with at most ${defaultPostConcurrency} posts at once: ${begins?.calls ?? 0} batches, mean ${mean(begins)} until answered | completions: ${completions?.calls ?? 0} batches, mean ${mean(completions)}`,
    );
    console.log(
      `${label}: peak RSS ${peakMb} MB (the tick's own process, its fill included) | target at most ${peakRssTargetMb} MB: ${verdict(`${label}: peak RSS at most ${peakRssTargetMb} MB`, peakMb <= peakRssTargetMb)} | during the tick: ${tickPeakMb} MB at most, ${rssBefore} MB before it`,
    );
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/** Two ticks with the workspace on hold: the first probes (and fails), the second waits. */
async function onHold(store: Database, label: string, analyze?: Analyze): Promise<void> {
  const sandbox = await startRemoteSandbox();
  const client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: 'not-the-secret',
    responseCacheTtlMs: 0,
  });
  try {
    await fill(store, claimedCount);
    await analyze?.();
    await store.outages.open('T1', 'analytics_credentials_rejected', now, now);
    const poster = capturingPoster();
    const runner = new DigestRunner({
      db: store,
      analytics: client,
      posters: everyTeam(poster),
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
    });
    for (const [tick, at] of [now, new Date(now.getTime() + 30_000)].entries()) {
      const started = performance.now();
      const report = await runner.runDue(at);
      const ms = performance.now() - started;
      const { requests } = await sandbox.counts();
      const met = verdict(
        `${label}, workspace on hold, tick ${tick + 1}: at most one probe, no posts`,
        report.probes <= 1 && poster.posts === 0,
      );
      console.log(
        `${label}, workspace on hold, tick ${tick + 1}: ${claimedCount} due, ${report.claimed} claimed, ${report.probes} probe(s), ${poster.posts} posts, ${report.analyticsCalls} analytics calls (${requests} sandbox requests so far) in ${ms.toFixed(0)} ms | target at most 1 probe per workspace per tick and no posts: ${met}`,
      );
    }
  } finally {
    await client.close();
    await sandbox.close();
  }
}

const partStarted = performance.now();

/** The node flags of `npm start`, which the app runs with in production (the Procfile runs it). */
function appNodeFlags(): string[] {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { scripts: { start: string } };
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

type TickMessage = { readonly kind: 'verdicts'; readonly verdicts: readonly string[] };

/** Runs one store's tick in a process of its own (`tickRole`) and adds its verdicts to this one's. */
async function tickInItsOwnProcess(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const child = spawn(process.execPath, [...appNodeFlags(), fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_DIGESTS_ROLE: 'tick', BENCH_DIGESTS_STORE: dialect },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let reported: readonly string[] | undefined;
  child.on('message', (message: TickMessage) => {
    if (message.kind === 'verdicts') reported = message.verdicts;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (reported === undefined) {
    verdict(`${dialect} tick: its process ended (exit code ${code}) without its figures`, false);
    return;
  }
  verdicts.push(...reported);
}

/** The `tick` role: one store's tick, its verdicts sent to the process that started it. */
async function tickRole(): Promise<void> {
  if (process.env.BENCH_DIGESTS_STORE === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'digests-bench-'));
    try {
      const store = openSqliteDatabase({ path: join(folder, 'tick.sqlite') });
      await store.migrate();
      await tick(store, 'SQLite tick');
      await store.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  } else {
    await withPostgres(async (open) => {
      const { store, analyze } = await open();
      await tick(store, 'PostgreSQL tick', analyze);
      await store.close();
    });
  }
  const message: TickMessage = { kind: 'verdicts', verdicts };
  await new Promise<void>((resolve) => process.send?.(message, () => resolve()) ?? resolve());
  process.disconnect?.();
}

type OpenPostgres = () => Promise<{ store: Database; analyze: Analyze }>;

/** Stores in schemas of their own, all dropped once `work` is done. */
async function withPostgres(work: (open: OpenPostgres) => Promise<void>): Promise<void> {
  const url = process.env.TEST_DATABASE_URL ?? '';
  const schemas: string[] = [];
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await work(async () => {
      const schema = `digests_bench_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const store = openPostgresDatabase({ connectionString: url, schema });
      await store.migrate();
      const analyze = async () => {
        await admin.query(`ANALYZE ${schema}.digests`);
      };
      return { store, analyze };
    });
  } finally {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

export async function run(): Promise<void> {
  await tickInItsOwnProcess('sqlite');
  const folder = mkdtempSync(join(tmpdir(), 'digests-bench-'));
  try {
    const claimStore = openSqliteDatabase({ path: join(folder, 'claims.sqlite') });
    await claimStore.migrate();
    console.log(
      `SQLite: ${(await claimsPerSecond(claimStore)).toFixed(0)} claims/s (batches of 200, ${claimedCount} due)`,
    );
    await claimStore.close();

    const heldStore = openSqliteDatabase({ path: join(folder, 'held.sqlite') });
    await heldStore.migrate();
    await onHold(heldStore, 'SQLite');
    await heldStore.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  if (!process.env.TEST_DATABASE_URL) {
    await conferencesPart(verdict);
    console.log('PostgreSQL skipped: TEST_DATABASE_URL is not set');
    finish();
    return;
  }
  await tickInItsOwnProcess('postgres');
  await withPostgres(async (open) => {
    const claimed = await open();
    const unanalyzed = await open();
    console.log(
      `PostgreSQL: ${(await claimsPerSecond(claimed.store, claimed.analyze)).toFixed(0)} claims/s (batches of 200, ${claimedCount} due) | ${(await claimsPerSecond(unanalyzed.store)).toFixed(0)} claims/s before the table was first analyzed`,
    );
    await claimed.store.close();
    await unanalyzed.store.close();
    const held = await open();
    await onHold(held.store, 'PostgreSQL', held.analyze);
    await held.store.close();
  });
  await conferencesPart(verdict, withPostgres);
  finish();
}

function finish(): void {
  console.log(
    `Peak RSS of the claims and outage parts' process ${peakRssMb()} MB | the part took ${seconds(performance.now() - partStarted)}`,
  );
  console.log(`Targets:\n  ${verdicts.join('\n  ')}`);
}

if (process.env.BENCH_DIGESTS_ROLE === 'sandbox') await sandboxRole();
if (process.env.BENCH_DIGESTS_ROLE === 'tick') await tickRole();
