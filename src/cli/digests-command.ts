/**
 * `node src/cli.ts digests run-due [--database-url URL | --sqlite PATH]`: one scheduler tick, for
 * a platform scheduler (Heroku Scheduler, cron) instead of or beside the in-app timer. Safe to run
 * at the same time as running instances: claims, leases and per-slot records keep every slot to
 * one post.
 */
import type { AnalyticsApi } from '../analytics/types.ts';
import { openDigestStore } from '../digests/open-store.ts';
import {
  type DigestPoster,
  DigestRunner,
  type RenderDigest,
  type TickReport,
} from '../digests/runner.ts';
import type { DigestStore } from '../digests/store.ts';
import type { Logger } from '../logger.ts';
import { silentLogger } from '../logger.ts';
import type { CliCommand, CliIo } from './command.ts';
import { writeLine } from './command.ts';
import { describeLocation, parseStoreLocation, type StoreLocation } from './migrate-command.ts';

export interface RunDueDeps {
  readonly store: DigestStore;
  readonly analytics: AnalyticsApi;
  readonly poster: DigestPoster;
  readonly renderDigest?: RenderDigest;
  readonly logger?: Logger;
  readonly now?: () => Date;
}

/** One tick with the given dependencies; the caller owns and closes them. */
export async function runDueOnce(deps: RunDueDeps): Promise<TickReport> {
  const runner = new DigestRunner({
    store: deps.store,
    analytics: deps.analytics,
    poster: deps.poster,
    ...(deps.renderDigest ? { renderDigest: deps.renderDigest } : {}),
    logger: deps.logger ?? silentLogger,
  });
  return runner.runDue(deps.now?.() ?? new Date());
}

export function formatReport(report: TickReport): string {
  return `claimed ${report.claimed}, posted ${report.posted}, failed ${report.failed}, skipped ${report.skipped}, unconfirmed ${report.unconfirmed}, paused ${report.paused}, analytics calls ${report.analyticsCalls}`;
}

/**
 * The analytics client and Slack poster of the app's composition root, for a CLI tick. TO WIRE:
 * the app's composition (config -> AnalyticsClient, Slack Web API poster, Block Kit renderer)
 * must supply these; until then the command explains itself and exits 1.
 */
export async function createDigestDeps(
  _location: StoreLocation,
  _store: DigestStore,
): Promise<Omit<RunDueDeps, 'store'> & { close(): Promise<void> }> {
  throw new Error(
    'digests run-due needs the analytics client and Slack poster of the app composition, which is not wired yet',
  );
}

export const usage =
  'digests run-due [--database-url URL | --sqlite PATH]  post the digests due now, once';

export async function runDigests(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr' | 'now'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'run-due') {
    await writeLine(io.stderr, `Usage: node src/cli.ts ${usage}`);
    return 2;
  }
  const location = parseStoreLocation(rest, env);
  if (typeof location === 'string') {
    await writeLine(io.stderr, `${location}\nUsage: node src/cli.ts ${usage}`);
    return 2;
  }
  let store: DigestStore | undefined;
  try {
    store = await openDigestStore({
      ...(location.databaseUrl ? { databaseUrl: location.databaseUrl } : {}),
      sqlitePath: location.sqlitePath,
      ...(location.tls ? { postgresTls: location.tls } : {}),
    });
    const deps = await createDigestDeps(location, store);
    try {
      const report = await runDueOnce({ ...deps, store, now: io.now });
      await writeLine(io.stdout, `${describeLocation(location)}: ${formatReport(report)}`);
      return report.failed > 0 ? 1 : 0;
    } finally {
      await deps.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeLine(io.stderr, `digests run-due failed: ${message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

/** `digests` takes its subcommand as the first argument (`run-due`). */
export const command: CliCommand = { usage, run: (args, io) => runDigests(args, io) };

export function run(args: string[]): Promise<number> {
  return runDigests(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => new Date(),
  });
}
