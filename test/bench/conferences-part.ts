/**
 * The conferences part of the digests benchmark: 1,000 conferences refreshing at once (the same
 * congress followed in 1,000 channels, over 10 hashtags in 2 zones: 20 distinct questions), the
 * sandbox answering each question after 200 ms, on SQLite and on PostgreSQL (when
 * TEST_DATABASE_URL is set). Two ticks: the first posts and pins every leaderboard, the second
 * (a refresh later) updates every one in place. Printed against targets:
 * - analytics calls per refresh: 20 (each distinct question once), against the naive one call
 *   per conference (1,000);
 * - the refresh tick within 5 s, against the analytics floor (20 calls at the default concurrency)
 *   and the naive floor (1,000 calls at the same concurrency), side by side.
 * Slack is an instant fake here: what is measured is the engine, the store and the rendering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AnalyticsClient } from '../../src/analytics/client.ts';
import type { ConferencePoster } from '../../src/digests/conferences/outlet.ts';
import { ConferenceRunner } from '../../src/digests/conferences/runner.ts';
import { everyTeam } from '../../src/digests/per-team.ts';
import { defaultAnalyticsConcurrency } from '../../src/digests/runner.ts';
import { conferenceWords } from '../../src/render/conferences/conference.ts';
import { demoClient, startSandbox } from '../../src/sandbox/server.ts';
import type { Database } from '../../src/store/database.ts';
import { openSqliteDatabase } from '../../src/store/sql/sqlite.ts';

const conferenceCount = 1_000;
const latencyMs = 200;
const hashtags = [
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
const zones = ['America/Chicago', 'Europe/Paris'];
const questionCount = hashtags.length * zones.length;
const tickTargetMs = 5_000;
/** Mid-congress: day 2 of 3 in both zones. */
const firstRefresh = new Date('2026-06-09T14:00:00Z');

const instantPoster = (): ConferencePoster & { posts: number; updates: number } => {
  const poster = {
    posts: 0,
    updates: 0,
    async post() {
      poster.posts++;
      return { ts: `1780000000.${poster.posts}` };
    },
    async update() {
      poster.updates++;
      return 'updated' as const;
    },
    async pin() {
      return 'pinned' as const;
    },
    async unpin() {},
    async notifyCreator() {},
  };
  return poster;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function part(
  store: Database,
  label: string,
  verdict: (what: string, met: boolean) => string,
): Promise<void> {
  const conferences = store.conferences;
  if (conferences === undefined) throw new Error('the store keeps no conferences');
  for (let i = 0; i < conferenceCount; i++) {
    const zone = zones[i % zones.length] ?? 'UTC';
    await conferences.create(
      {
        teamId: 'T1',
        channelId: `C${i}`,
        creatorId: 'U1',
        databases: [hashtags[Math.floor(i / zones.length) % hashtags.length] ?? '#hcsm'],
        firstDay: '2026-06-08',
        lastDay: '2026-06-10',
        zone,
        watch: ['DrFerreiraI', 'nobody_here'],
        top: 10,
        refreshMinutes: 15,
        nextRunAt: firstRefresh,
      },
      firstRefresh,
    );
  }
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', latencyMs });
  const analytics = new AnalyticsClient({
    baseUrl: sandbox.url,
    clientId: demoClient.id,
    clientSecret: demoClient.secret,
    responseCacheTtlMs: 0,
  });
  try {
    const poster = instantPoster();
    const runner = new ConferenceRunner({
      conferences,
      analytics,
      posters: everyTeam(poster),
      words: conferenceWords,
    });
    let started = performance.now();
    const first = await runner.runDue(firstRefresh);
    const firstMs = performance.now() - started;
    started = performance.now();
    const refresh = await runner.runDue(new Date(firstRefresh.getTime() + 15 * 60_000));
    const refreshMs = performance.now() - started;
    const floorMs = Math.ceil(questionCount / defaultAnalyticsConcurrency) * latencyMs;
    const naiveMs = Math.ceil(conferenceCount / defaultAnalyticsConcurrency) * latencyMs;
    console.log(
      `${label}: first tick (day 2 of 3) ${first.claimed} claimed, ${first.boards} leaderboards posted and pinned, ${first.recaps} recaps of day 1 in their threads, ${first.analyticsCalls} analytics calls in ${seconds(firstMs)}`,
    );
    console.log(
      `${label}: refresh of ${conferenceCount} conferences at once: analytics calls ${refresh.analyticsCalls} | naive one call per conference: ${conferenceCount} | target ${questionCount}: ${verdict(`${label} conferences: ${questionCount} analytics calls per refresh`, refresh.analyticsCalls === questionCount)}`,
    );
    console.log(
      `${label}: refresh tick ${seconds(refreshMs)}, ${refresh.updated} leaderboards updated in place | target at most ${seconds(tickTargetMs)}: ${verdict(`${label} conferences: refresh tick within ${seconds(tickTargetMs)}`, refreshMs <= tickTargetMs && refresh.updated === conferenceCount)} | analytics floor ${seconds(floorMs)} (${questionCount} calls, concurrency ${defaultAnalyticsConcurrency}) | naive floor ${seconds(naiveMs)} (${conferenceCount} calls)`,
    );
  } finally {
    await analytics.close();
    await sandbox.close();
  }
}

type OpenPostgres = () => Promise<{ store: Database }>;

/** Runs the part on SQLite, then on PostgreSQL through `withPostgres` when it is given. */
export async function conferencesPart(
  verdict: (what: string, met: boolean) => string,
  withPostgres?: (work: (open: OpenPostgres) => Promise<void>) => Promise<void>,
): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'conferences-bench-'));
  try {
    const store = openSqliteDatabase({ path: join(folder, 'conferences.sqlite') });
    await store.migrate();
    await part(store, 'SQLite', verdict);
    await store.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await withPostgres?.(async (open) => {
    const { store } = await open();
    await part(store, 'PostgreSQL', verdict);
    await store.close();
  });
}
