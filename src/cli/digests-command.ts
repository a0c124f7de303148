/**
 * `node src/cli.ts digests run-due [--database-url URL | --sqlite PATH] [--tls ...]`: one scheduler tick, for
 * a platform scheduler (Heroku Scheduler, cron) instead of or beside the in-app timer. Safe to run
 * at the same time as running instances: claims, leases and per-slot records keep every slot to
 * one post.
 */
import { analyticsClientFor } from '../analytics/from-config.ts';
import type { AnalyticsApi } from '../analytics/types.ts';
import { type DigestJobConfig, loadDigestJobConfig } from '../config/job-config.ts';
import { configDefaults } from '../config/sections.ts';
import type { Clock, DigestPoster, DigestRunnerOptions, TickReport } from '../digests/runner.ts';
import { openDigestStore } from '../digests/store/open.ts';
import type { DigestStore } from '../digests/store/store.ts';
import { ConfigError } from '../errors.ts';
import { createDigestRunner } from '../flows/digest-runtime.ts';
import { createLogger, type Logger, silentLogger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import { backgroundWebClient, SlackDigestPoster } from '../slack/web-api/poster.ts';
import { displayNames, UserDirectory } from '../slack/web-api/user-directory.ts';
import type { CliCommand, CliIo } from './command.ts';
import { writeLine } from './command.ts';
import { describeLocation, parseStoreLocation } from './migrate-command.ts';

export interface RunDueDeps {
  readonly store: DigestStore;
  readonly analytics: AnalyticsApi;
  readonly poster: DigestPoster;
  readonly logger?: Logger;
  /** Default: the configuration's defaults (DIGEST_GRACE_MS, DIGEST_MAX_FAILURES unset). */
  readonly policy?: { readonly graceMs: number; readonly maxConsecutiveFailures: number };
  readonly now?: () => Date;
  readonly clock?: Clock;
  readonly runnerOptions?: DigestRunnerOptions;
  readonly displayName?: (userId: string) => Promise<string | undefined>;
}

/** One tick with the given dependencies, rendered as the app renders; the caller closes them. */
export async function runDueOnce(deps: RunDueDeps): Promise<TickReport> {
  const runner = createDigestRunner({
    store: deps.store,
    analytics: deps.analytics,
    poster: deps.poster,
    logger: deps.logger ?? silentLogger,
    policy: deps.policy ?? {
      graceMs: configDefaults.digestGraceMs,
      maxConsecutiveFailures: configDefaults.digestMaxFailures,
    },
    ...defined({ clock: deps.clock }),
    ...defined({ runnerOptions: deps.runnerOptions }),
    ...defined({ displayName: deps.displayName }),
  });
  return runner.runDue(deps.now?.() ?? new Date());
}

export function formatReport(report: TickReport): string {
  return `claimed ${report.claimed}, posted ${report.posted}, failed ${report.failed}, skipped ${report.skipped}, unconfirmed ${report.unconfirmed}, paused ${report.paused}, analytics calls ${report.analyticsCalls}`;
}

/**
 * The analytics client and Slack poster a scheduler tick needs, built from the job's config as
 * the app builds its own: the same client settings, the background Web API client.
 */
export function createDigestDeps(
  config: DigestJobConfig,
  logger: Logger,
): Pick<RunDueDeps, 'analytics' | 'poster' | 'policy' | 'displayName'> & {
  close(): Promise<void>;
} {
  const analytics = analyticsClientFor(
    config.analytics,
    { timeoutMs: config.analyticsTimeoutMs },
    logger,
  );
  const client = backgroundWebClient({
    token: config.slack.botToken.reveal(),
    ...defined({ apiUrl: config.slack.apiUrl }),
  });
  const poster = new SlackDigestPoster({
    client,
    logger: logger.child({ component: 'digest-poster' }),
  });
  return {
    analytics,
    poster,
    policy: config.digests,
    displayName: displayNames(new UserDirectory(), client),
    close: () => analytics.close(),
  };
}

export const usage =
  'digests run-due [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]  post the digests due now, once';

export async function runDigests(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr' | 'now' | 'env'>,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'run-due') {
    await writeLine(io.stderr, `Usage: node src/cli.ts ${usage}`);
    return 2;
  }
  let config: DigestJobConfig;
  try {
    config = loadDigestJobConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    await writeLine(
      io.stderr,
      `digests run-due cannot start: ${error.problems.length} configuration problem(s).\n  - ${error.problems.join('\n  - ')}\nSee .env.example for every variable.`,
    );
    return 2;
  }
  const location = parseStoreLocation(rest, config.storage);
  if (typeof location === 'string') {
    await writeLine(io.stderr, `${location}\nUsage: node src/cli.ts ${usage}`);
    return 2;
  }
  // Logs go to stderr so stdout carries only the tick's report.
  const logger = createLogger({ level: config.logLevel, destination: io.stderr });
  let store: DigestStore | undefined;
  try {
    store = await openDigestStore({
      ...location,
      logger: logger.child({ component: 'digest-store' }),
    });
    const deps = createDigestDeps(config, logger);
    try {
      const report = await runDueOnce({ ...deps, store, logger, now: io.now });
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
export const command: CliCommand = { usage, run: runDigests };
