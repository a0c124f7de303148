/**
 * The core every surface stands on, built once by {@link buildCore}: the analytics client, the
 * lookup flow, the database and the jobs that run on it (digests, conferences) with the rules people
 * act through. The Slack app, the MCP server, the console, the CLI and the tests all build it here
 * and add only their transport and their way out (the outlet: Slack, or the console's screen).
 */
import { analyticsClientFor, type SandboxAnalyticsSettings } from '../analytics/from-config.ts';
import type { AnalyticsApi } from '../analytics/types.ts';
import type { AnalyticsConfig, DigestPolicy, LookupPolicy } from '../config/sections.ts';
import type { ConferenceRunnerOptions } from '../digests/conferences/runner.ts';
import type { Outlets } from '../digests/outlets.ts';
import type { Clock, DigestRunnerOptions } from '../digests/runner.ts';
import { DigestService } from '../flows/digest-service.ts';
import { LookupFlow } from '../flows/lookup/index.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import type { Database } from '../store/database.ts';
import { type OpenDatabaseOptions, openDatabase } from '../store/open.ts';

/** What the core is built from: the configuration's sections every surface shares. */
export interface CoreSettings {
  /** The analytics service; the console's in-process sandbox fits too. */
  readonly analytics: AnalyticsConfig | SandboxAnalyticsSettings;
  readonly lookup: LookupPolicy;
  /** Where the database is; an in-memory SQLite (`sqlitePath: ':memory:'`) for the console. */
  readonly storage: Omit<OpenDatabaseOptions, 'logger'>;
  readonly digests: DigestPolicy;
}

/** What a surface or a test hands the core instead of what the settings would build. */
export interface CoreParts {
  readonly logger: Logger;
  /** Where digests and conferences post, and how creators are named. */
  readonly outlets: Outlets;
  /** Replaces the analytics client built from the settings (tests, the bench). */
  readonly analytics?: AnalyticsApi & { close?(): Promise<void> };
  /** A database already open, used instead of opening the configured one (tests). */
  readonly database?: Database;
  /** The clock of commands and parsing; default the system clock. */
  readonly now?: () => Date;
  /** The jobs' clock; default the system clock. */
  readonly clock?: Clock;
  readonly runnerOptions?: DigestRunnerOptions;
  readonly conferenceOptions?: ConferenceRunnerOptions;
}

export interface Core {
  readonly logger: Logger;
  readonly analytics: AnalyticsApi;
  readonly lookup: LookupFlow;
  /** The database, the jobs and the rules of digests and conferences; usable after `open()`. */
  readonly digests: DigestService;
  /** Opens (and migrates) the database and builds the jobs on it; before any surface listens. */
  open(): Promise<void>;
  /** Starts the jobs' timer unless the policy leaves scheduling to a platform scheduler. */
  startJobs(): boolean;
  /**
   * Stops the jobs, closes the database within `budgetMs` and releases the analytics client; after
   * the surfaces have drained the work in flight, which may still use both.
   */
  close(budgetMs: number): Promise<void>;
}

/** Builds the core; nothing is opened or started until `open()` and `startJobs()`. */
export function buildCore(settings: CoreSettings, parts: CoreParts): Core {
  const { logger } = parts;
  const analytics =
    parts.analytics ?? analyticsClientFor(settings.analytics, settings.lookup, logger);
  const lookup = new LookupFlow({
    analytics,
    logger: logger.child({ component: 'lookup' }),
    policy: settings.lookup,
    ...defined({ now: parts.now }),
  });
  const digests = new DigestService({
    openDatabase: async () =>
      parts.database ??
      openDatabase({
        ...settings.storage,
        logger: logger.child({ component: 'digest-store' }),
      }),
    analytics,
    outlets: parts.outlets,
    policy: settings.digests,
    logger: logger.child({ component: 'digests' }),
    ...defined({
      now: parts.now,
      clock: parts.clock,
      runnerOptions: parts.runnerOptions,
      conferenceOptions: parts.conferenceOptions,
    }),
  });
  let closing: Promise<void> | undefined;
  return {
    logger,
    analytics,
    lookup,
    digests,
    open: () => digests.open(),
    startJobs: () => digests.startTimer(),
    close(budgetMs) {
      closing ??= (async () => {
        await digests.close(budgetMs);
        await analytics.close?.();
      })();
      return closing;
    },
  };
}
