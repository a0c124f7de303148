/**
 * Composition root of the Slack app: config -> logger -> analytics client -> Bolt app (HTTP or
 * Socket Mode) -> register -> start. `npm start` runs `main.ts`, which loads this file once it has
 * bound the port; tests and benchmarks import `createApp` and start it on port 0 with an injected
 * `fetch`.
 */
import type { RequestListener, Server } from 'node:http';
import type { App } from '@slack/bolt';
import type { AnalyticsApi } from './analytics/types.ts';
import type { PollSchedule } from './async/poll.ts';
import type { Config, HttpConfig, SocketConfig } from './config/app-config.ts';
import { buildCore, type Core } from './core/core.ts';
import type { Clock, DigestRunnerOptions } from './digests/runner.ts';
import type { DigestService } from './flows/digest-service.ts';
import { createLogger, type Logger, releaseLogs, withoutUserinfo } from './logger.ts';
import { mcpEndpoint } from './mcp/endpoint.ts';
import { defined } from './model/defined.ts';
import { startFailureText } from './render/startup.ts';
import type { SlackDeps } from './slack/deps.ts';
import { isAllowedRequest } from './slack/middleware/team-guard.ts';
import { slackAccessFor } from './slack/oauth/distribution.ts';
import { handleProcessEnd } from './slack/process/lifecycle.ts';
import { startFailure } from './slack/process/startup.ts';
import { slackSurface } from './slack/surface.ts';
import { outletsOf } from './slack/web-api/access.ts';
import { UserDirectory } from './slack/web-api/user-directory.ts';
import type { Database } from './store/database.ts';

/** Heroku sends SIGKILL 30 s after SIGTERM; everything must be done well before. */
export const shutdownBudgetMs = 25_000;
/** Kept back from the budget for closing the database and the analytics client. */
const closeReserveMs = 2_000;
/** The last of the budget: how long the logs may take to reach stdout before the exit. */
const logReleaseMs = 1_000;

export interface AppOverrides {
  /** Every Slack request (Web API and response_url) goes through it. */
  readonly fetch?: typeof fetch;
  readonly logger?: Logger;
  /** Replaces the analytics client built from the config. */
  readonly analytics?: AnalyticsApi & { close?(): Promise<void> };
  /** Clock for parsing relative dates. */
  readonly now?: () => Date;
  /** Listeners registered after the app's own (tests). */
  readonly modules?: readonly ((app: App, deps: SlackDeps) => void)[];
  /** The poll for Stop pressed on another instance: its interval and timer (tests drive it). */
  readonly stopPoll?: PollSchedule;
  /** How long a request's work waits for the store to say whether it is new (tests hold it). */
  readonly sightingWaitMs?: number;
  /** Port to bind instead of the configured one (0 in tests). */
  readonly port?: number;
  /** HTTP mode: a server already listening, whose requests the app takes over (`main.ts`). */
  readonly server?: Server;
  /** Digest wiring for tests: a database already open, the runner's clock and finer settings. */
  readonly digests?: {
    readonly database?: Database;
    readonly clock?: Clock;
    readonly runnerOptions?: DigestRunnerOptions;
  };
}

export interface RunningApp {
  readonly app: App;
  readonly deps: SlackDeps;
  readonly core: Core;
  /** Store, runner and rules of scheduled digests; the store opens in `start()`. */
  readonly digests: DigestService;
  /**
   * Checks the bot token (auth.test), initialises Bolt, opens the digest store and starts the
   * timer. HTTP mode binds its port first and answers 503 until then; it resolves with the port.
   */
  start(): Promise<{ port: number | undefined }>;
  /** Stops accepting requests, lets in-flight lookups finish (bounded), then releases everything. */
  stop(): Promise<void>;
}

/** Builds the Slack app for HTTP or Socket Mode over the core; nothing listens until `start()`. */
export function createApp(
  config: HttpConfig | SocketConfig,
  overrides: AppOverrides = {},
): RunningApp {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  // One users.info cache for zones, admin rights and names; the only reader of the bot token.
  const users = new UserDirectory();
  const { access, pages } = slackAccessFor(config, {
    logger,
    directory: users,
    core: () => core,
    ...defined({ fetch: overrides.fetch }),
  });
  const core: Core = buildCore(config, {
    logger,
    outlets: outletsOf(access),
    ...defined({
      analytics: overrides.analytics,
      now: overrides.now,
      database: overrides.digests?.database,
      clock: overrides.digests?.clock,
      runnerOptions: overrides.digests?.runnerOptions,
    }),
  });
  const slack = slackSurface({
    config,
    core,
    access,
    users,
    ...defined({
      modules: overrides.modules,
      stopPoll: overrides.stopPoll,
      sightingWaitMs: overrides.sightingWaitMs,
      port: overrides.port,
      server: overrides.server,
      wrap: config.mode === 'http' ? withPages(mcpBeside(config, core), pages) : undefined,
    }),
  });

  return {
    app: slack.app,
    deps: slack.deps,
    core,
    digests: core.digests,
    async start() {
      const started = await slack.start();
      core.startJobs();
      return started;
    },
    async stop() {
      const stoppedAt = Date.now();
      // The jobs stop beside everything else: a tick in flight finishes while lookups drain.
      void core.digests.stopTimer();
      await slack.stop();
      await core.close(shutdownBudgetMs - closeReserveMs - (Date.now() - stoppedAt));
    },
  };
}

/**
 * `/mcp` served beside Bolt's routes, behind its own checks (see mcp/endpoint.ts): the core's
 * lookup, each caller's zone read in their own workspace, the allow-list of the Slack app.
 */
function mcpBeside(config: HttpConfig, core: Core) {
  const { mcp } = config;
  const logger = core.logger;
  return (next: RequestListener, deps: SlackDeps): RequestListener =>
    mcpEndpoint({
      next,
      ...defined({
        bearerToken: mcp.bearerToken?.reveal(),
        publicUrl: mcp.publicUrl,
        signingSecret: mcp.slackIdentityAuth ? config.slack.signingSecret.reveal() : undefined,
      }),
      firstSignature: (signature) => deps.seen.firstSignature(signature),
      tools: {
        flow: core.lookup,
        logger,
        version: config.version,
        zoneOf: (userId, teamId) => deps.zones.zoneOf(deps.slack.forTeam(teamId).chat, userId),
        admits: (teamId, enterpriseId) =>
          isAllowedRequest(config.allowedTeamIds, teamId, enterpriseId),
        run: (work) => deps.inFlight.run(work),
      },
      logger: logger.child({ component: 'mcp' }),
    });
}

/** The install pages, when the app is distributed, in front of what else the port serves. */
function withPages(
  wrap: (next: RequestListener, deps: SlackDeps) => RequestListener,
  pages: ((next: RequestListener) => RequestListener) | undefined,
) {
  return (next: RequestListener, deps: SlackDeps): RequestListener =>
    pages === undefined ? wrap(next, deps) : pages(wrap(next, deps));
}

/** One line that says how the app runs; never a secret. */
export function startupSummary(config: Config, port: number | undefined): Record<string, unknown> {
  return {
    mode: config.mode,
    version: config.version,
    ...defined({ port }),
    analytics: withoutUserinfo(config.analytics?.baseUrl ?? 'built-in sandbox'),
    allowedTeams: config.allowedTeamIds.length === 0 ? 'all' : config.allowedTeamIds.join(','),
    ...(config.mode === 'http' && config.oauth !== undefined
      ? { install: `${config.oauth.publicUrl}/slack/install` }
      : {}),
  };
}

/**
 * Runs the Slack app in HTTP or Socket Mode until SIGTERM. In HTTP mode `server` is the server the
 * entry point bound before loading this module (`main.ts`); the app takes it over. A start that
 * fails prints one sentence saying what to change and resolves with 1; a running app resolves with
 * undefined and ends the process itself.
 */
export async function runSlackApp(
  config: HttpConfig | SocketConfig,
  started: {
    readonly logger: Logger;
    readonly stderr: NodeJS.WritableStream;
    readonly server?: Server;
  },
): Promise<number | undefined> {
  const { logger } = started;
  const running = createApp(config, { logger, ...defined({ server: started.server }) });
  let port: number | undefined;
  try {
    ({ port } = await running.start());
  } catch (error) {
    // A bad token, a port in use, a database that cannot be reached: one sentence saying what to
    // change. Only a failure nobody foresaw adds its stack to the logs.
    const failure = startFailure(error, config.port);
    if (failure.kind === 'unexpected') logger.fatal({ err: error }, 'could not start');
    await releaseLogs(logger, logReleaseMs);
    started.stderr.write(`${startFailureText(failure)}\n`);
    return 1;
  }
  logger.info(startupSummary(config, port), `started in ${config.mode} mode`);
  collectStartupGarbage();
  handleProcessEnd({
    events: process,
    logger,
    stop: () => running.stop(),
    exit: (code) => {
      void releaseLogs(logger, logReleaseMs).then(() => process.exit(code));
    },
    budgetMs: shutdownBudgetMs - logReleaseMs,
  });
  return undefined;
}

/**
 * One last-resort collection once the app listens, when the process runs with `--expose-gc` (as
 * `npm start` does). Start-up (parsing and compiling every module, reading the config) leaves the
 * young generation grown to its largest and the old one full of garbage; a regular collection
 * frees the objects but keeps the pages, so the resident figure stays where start-up left it until
 * load first makes V8 shrink. The last-resort flavour also shrinks the young generation and hands
 * free pages back to the system.
 */
export function collectStartupGarbage(): boolean {
  if (globalThis.gc === undefined) return false;
  globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
