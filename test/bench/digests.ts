/**
 * Digests benchmark: 10,000 digests due in one tick over 500 distinct questions, the sandbox
 * answering each after 200 ms. Prints the analytics calls made against the naive one call per
 * digest, the time to claim and compute everything excluding Slack pacing (posts are captured by
 * an instant fake poster and every digest has its own channel, so pacing never waits) with the
 * runner's default settings, claims per second on SQLite and PostgreSQL, and the peak RSS. Then
 * the same 10,000 due digests with their workspace on hold for an outage (the analytics service
 * refusing the credentials): what two ticks cost, against the target of at most one probe per
 * workspace per tick and no posts.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import {
  type DigestPoster,
  DigestRunner,
  defaultAnalyticsConcurrency,
} from '../../src/digests/runner.ts';
import { openPostgresStore } from '../../src/digests/store/postgres.ts';
import { openSqliteStore } from '../../src/digests/store/sqlite.ts';
import type { DigestStore } from '../../src/digests/store/store.ts';
import type { NewDigest } from '../../src/model/digest.ts';
import { renderDigestMessage, renderDigestPaused } from '../../src/render/digest-post.ts';
import { demoClient, startSandbox } from '../../src/sandbox/server.ts';

const digestCount = 10_000;
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
// 10 databases x 50 sizes of "top" = 500 distinct questions.
const slot = new Date('2026-06-08T08:00:00Z');
const now = new Date('2026-06-08T08:00:10Z');

function input(i: number): NewDigest {
  return {
    teamId: 'T1',
    channelId: `C${i}`,
    creatorId: 'U1',
    databases: [predicates[i % predicates.length] ?? '#hcsm'],
    schedule: { kind: 'cron', expression: '0 9 * * 1', zone: 'Europe/London', cadence: 'weekly' },
    window: { kind: 'since-previous-run' },
    top: 1 + (Math.floor(i / predicates.length) % tops),
    nextRunAt: slot,
  };
}

async function fill(store: DigestStore, count: number): Promise<void> {
  const workers = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count) await store.create(input(next++), now);
    }),
  );
}

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

/** The process's peak resident set size: the whole run, fills and sandbox included. */
function peakRssMb(): string {
  return (process.resourceUsage().maxRSS / 1024).toFixed(0);
}

async function claimsPerSecond(store: DigestStore): Promise<number> {
  await fill(store, digestCount);
  const started = performance.now();
  let claimed = 0;
  for (;;) {
    const batch = await store.claimDue(now, { limit: 200, leaseMs: 300_000, owner: 'bench' });
    claimed += batch.length;
    if (batch.length === 0) break;
  }
  return claimed / ((performance.now() - started) / 1000);
}

async function tick(store: DigestStore, label: string): Promise<void> {
  const sandbox = await startSandbox({ latencyMs });
  const client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
  try {
    await fill(store, digestCount);
    const poster = capturingPoster();
    const runner = new DigestRunner({
      store,
      analytics: client,
      poster,
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
    });
    const started = performance.now();
    const report = await runner.runDue(now);
    const seconds = (performance.now() - started) / 1000;
    const dataRequests = sandbox.log.filter((record) => record.endpoint === 'data').length;
    const naiveSeconds = (digestCount * latencyMs) / concurrency / 1000;
    const floorSeconds = (Math.ceil(report.analyticsCalls / concurrency) * latencyMs) / 1000;
    console.log(
      `${label}: ${report.claimed} claimed, ${poster.posts} posted, ${report.failed} failed`,
    );
    console.log(
      `${label}: analytics calls ${report.analyticsCalls} (sandbox saw ${dataRequests}; target 500) | naive one call per digest: ${digestCount}`,
    );
    console.log(
      `${label}: time to claim and compute everything excluding Slack pacing ${seconds.toFixed(2)} s (target < 10 s, default settings: analytics concurrency ${concurrency}) | analytics alone at least ${floorSeconds.toFixed(2)} s | naive at the same concurrency: about ${naiveSeconds.toFixed(0)} s`,
    );
    console.log(`${label}: peak RSS so far ${peakRssMb()} MB`);
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/** Two ticks with the workspace on hold: the first probes (and fails), the second waits. */
async function onHold(store: DigestStore, label: string): Promise<void> {
  const sandbox = await startSandbox({ latencyMs });
  const client = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: 'not-the-secret',
    responseCacheTtlMs: 0,
  });
  try {
    await fill(store, digestCount);
    await store.openOutage('T1', 'analytics_credentials_rejected', now, now);
    const poster = capturingPoster();
    const runner = new DigestRunner({
      store,
      analytics: client,
      poster,
      renderDigest: renderDigestMessage,
      renderPauseNotice: renderDigestPaused,
    });
    for (const [tick, at] of [now, new Date(now.getTime() + 30_000)].entries()) {
      const started = performance.now();
      const report = await runner.runDue(at);
      const ms = performance.now() - started;
      console.log(
        `${label}, workspace on hold, tick ${tick + 1}: ${digestCount} due, ${report.claimed} claimed, ${report.probes} probe(s) (target at most 1 per workspace per tick), ${poster.posts} posts (target 0), ${report.analyticsCalls} analytics calls (${sandbox.log.length} sandbox requests so far) in ${ms.toFixed(0)} ms`,
      );
    }
  } finally {
    await client.close();
    await sandbox.close();
  }
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'digests-bench-'));
  try {
    const tickStore = openSqliteStore({ path: join(folder, 'tick.sqlite') });
    await tickStore.migrate();
    await tick(tickStore, 'SQLite tick');
    await tickStore.close();

    const claimStore = openSqliteStore({ path: join(folder, 'claims.sqlite') });
    await claimStore.migrate();
    console.log(
      `SQLite: ${(await claimsPerSecond(claimStore)).toFixed(0)} claims/s (batches of 200)`,
    );
    await claimStore.close();

    const heldStore = openSqliteStore({ path: join(folder, 'held.sqlite') });
    await heldStore.migrate();
    await onHold(heldStore, 'SQLite');
    await heldStore.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL skipped: TEST_DATABASE_URL is not set');
    console.log(`Peak RSS ${peakRssMb()} MB`);
    return;
  }
  const [tickSchema, claimSchema, heldSchema] = [1, 2, 3].map(
    () => `digests_bench_${randomBytes(6).toString('hex')}`,
  ) as [string, string, string];
  const schemas = [tickSchema, claimSchema, heldSchema];
  try {
    const tickStore = openPostgresStore({ connectionString: url, schema: tickSchema });
    await tickStore.migrate();
    await tick(tickStore, 'PostgreSQL tick');
    await tickStore.close();
    const claimStore = openPostgresStore({ connectionString: url, schema: claimSchema });
    await claimStore.migrate();
    console.log(
      `PostgreSQL: ${(await claimsPerSecond(claimStore)).toFixed(0)} claims/s (batches of 200)`,
    );
    await claimStore.close();
    const heldStore = openPostgresStore({ connectionString: url, schema: heldSchema });
    await heldStore.migrate();
    await onHold(heldStore, 'PostgreSQL');
    await heldStore.close();
  } finally {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  console.log(`Peak RSS ${peakRssMb()} MB`);
}
