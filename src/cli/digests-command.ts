/**
 * `node src/cli.ts digests run-due [--database-url URL | --sqlite PATH] [--tls ...]`: one scheduler tick, for
 * a platform scheduler (Heroku Scheduler, cron) instead of or beside the in-app timer. Safe to run
 * at the same time as running instances: claims, leases and per-slot records keep every slot to
 * one post.
 */
import { analyticsClientFor } from '../analytics/from-config.ts';
import { type DigestJobConfig, loadDigestJobConfig } from '../config/job-config.ts';
import { configDefaults } from '../config/sections.ts';
import type { ConferencePoster } from '../digests/conferences/outlet.ts';
import type { ConferenceTickReport } from '../digests/conferences/runner.ts';
import type { DigestPoster, TickReport } from '../digests/runner.ts';
import { ConfigError } from '../errors.ts';
import { DigestService } from '../flows/digest-service.ts';
import { createLogger, type Logger } from '../logger.ts';
import { openDatabase } from '../store/open.ts';
import type { CliCommand, CliIo } from './command.ts';
import { writeLine } from './command.ts';
import { describeLocation, parseStoreLocation, storeFlagsHelp } from './migrate-command.ts';

/** The Slack side of a scheduler tick: where digests post, and the creators' names. */
export interface DigestOutlet {
  readonly poster: DigestPoster;
  readonly displayName: (userId: string) => Promise<string | undefined>;
  /** Where conferences post, edit and pin: the same tick brings their leaderboards up to date. */
  readonly conferencePoster?: ConferencePoster;
}

/**
 * Builds the outlet from the bot token; the CLI's entry point passes Slack's, so this folder never
 * reaches the Slack layer itself.
 */
export type DigestOutletFactory = (slack: DigestJobConfig['slack'], logger: Logger) => DigestOutlet;

/**
 * The tick's report on one line: what it posted, and what it did instead of posting (slots too old,
 * digests held while their workspace's circuit is open and the probes of it, runs answered but kept
 * quiet by their condition), so that a scheduler's log says why a due digest did not post.
 */
export function formatReport(report: TickReport): string {
  return [
    `claimed ${report.claimed}`,
    `posted ${report.posted}`,
    `failed ${report.failed}`,
    `skipped ${report.skipped}`,
    `unconfirmed ${report.unconfirmed}`,
    `paused ${report.paused}`,
    `held for an outage ${report.held}`,
    `outage probes ${report.probes}`,
    `not posted as unchanged (only when changed, only new) ${report.quiet}`,
    `analytics calls ${report.analyticsCalls}`,
  ].join(', ');
}

/** The conferences' part of the tick on one line, printed when it had any. */
export function formatConferenceReport(report: ConferenceTickReport): string {
  return [
    `claimed ${report.claimed}`,
    `updated ${report.updated}`,
    `leaderboards posted ${report.boards}`,
    `day recaps ${report.recaps}`,
    `final recaps ${report.finals}`,
    `skipped to the next refresh ${report.skipped}`,
    `ended by a failure ${report.ended}`,
    `analytics calls ${report.analyticsCalls}`,
  ].join(', ');
}

/** How long closing the store may take after the tick. */
const closeBudgetMs = 10_000;

export const usage =
  'digests run-due [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]  post the digests due now, once';

const help = `Runs one scheduler tick: posts the digests due now, prints a one-line report (posted,
failed, skipped, held for an outage, outage probes, not posted as unchanged...) and exits 0
(1 when a post failed). Needs SLACK_BOT_TOKEN and the ANALYTICS_* variables; safe to run beside
running instances and other schedulers.
${storeFlagsHelp}`;

export async function runDigests(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr' | 'now' | 'env'>,
  outlet: DigestOutletFactory,
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
  const analytics = analyticsClientFor(
    config.analytics,
    { timeoutMs: config.analyticsTimeoutMs },
    logger,
  );
  const service = new DigestService({
    openDatabase: () =>
      openDatabase({ ...location, logger: logger.child({ component: 'digest-store' }) }),
    analytics,
    ...outlet(config.slack, logger),
    logger,
    // One tick: no timer runs here.
    policy: { ...config.digests, timerEnabled: false, tickMs: configDefaults.digestTickMs },
  });
  try {
    await service.open();
    const report = await service.runner.runDue(io.now());
    await writeLine(io.stdout, `${describeLocation(location)}: ${formatReport(report)}`);
    const conferences = service.lastConferenceReport;
    if (conferences !== undefined && conferences.claimed > 0) {
      await writeLine(io.stdout, `conferences: ${formatConferenceReport(conferences)}`);
    }
    return report.failed > 0 ? 1 : 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeLine(io.stderr, `digests run-due failed: ${message}`);
    return 1;
  } finally {
    await service.close(closeBudgetMs);
    await analytics.close();
  }
}

/** `digests run-due`, posting through the outlet the entry point gives. */
export function digestsCommand(outlet: DigestOutletFactory): CliCommand {
  return { usage, help, run: (args, io) => runDigests(args, io, outlet) };
}
