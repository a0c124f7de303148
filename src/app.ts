/**
 * Composition root: config -> logger -> analytics client -> Bolt app (HTTP or Socket Mode) or the
 * local console -> register -> start. `npm start` runs this file; tests and benchmarks import
 * `createApp` and start it on port 0 with an injected `fetch`.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { App, HTTPReceiver } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { analyticsClientFor } from './analytics/from-config.ts';
import type { AnalyticsApi } from './analytics/types.ts';
import { readArguments } from './cli/command.ts';
import {
  type Config,
  type ConsoleConfig,
  type HttpConfig,
  loadConfig,
  type SocketConfig,
} from './config/app-config.ts';
import { storeWhere } from './config/sections.ts';
import type { Clock, DigestRunnerOptions } from './digests/runner.ts';
import { openDigestStore } from './digests/store/open.ts';
import { defaultSqlitePath } from './digests/store/sqlite.ts';
import type { DigestStore } from './digests/store/store.ts';
import { ConfigError } from './errors.ts';
import { DigestService } from './flows/digest-service.ts';
import { LookupFlow } from './flows/lookup.ts';
import { createLogger, type Logger, releaseLogs, withoutUserinfo } from './logger.ts';
import { defined } from './model/defined.ts';
import { startFailureText, startUsageText } from './render/startup.ts';
import { SeenRequests } from './requests/seen-requests.ts';
import type { SlackDeps } from './slack/deps.ts';
import { frontDoor } from './slack/http/front-door.ts';
import { close, listen, slackServer } from './slack/http/server.ts';
import { register } from './slack/index.ts';
import { boltLogger } from './slack/process/bolt-logger.ts';
import { InFlight } from './slack/process/in-flight.ts';
import { handleProcessEnd } from './slack/process/lifecycle.ts';
import {
  type BotIdentity,
  StoreUnavailableError,
  startFailure,
  verifyBotToken,
} from './slack/process/startup.ts';
import { singleAttemptClientOptions, webClientOptions } from './slack/web-api/client.ts';
import { AdminDirectory } from './slack/web-api/digest-access.ts';
import { slackDigestOutlet } from './slack/web-api/digest-outlet.ts';
import { UserDirectory } from './slack/web-api/user-directory.ts';
import { UserZones } from './slack/web-api/user-zones.ts';

/** Heroku sends SIGKILL 30 s after SIGTERM; everything must be done well before. */
export const shutdownBudgetMs = 25_000;
/** Of that budget: how long in-flight lookups may run on, then how long their final posts get. */
const drainGraceMs = 19_000;
const abortGraceMs = 3_000;
/** An HTTP connection still open this long after stop() is cut. */
const connectionCloseGraceMs = 2_000;
/** Kept back from the budget for closing the digest store and the analytics client. */
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
  /** Port to bind instead of the configured one (0 in tests). */
  readonly port?: number;
  /** Digest wiring for tests: a store already open, the runner's clock and finer settings. */
  readonly digests?: {
    readonly store?: DigestStore;
    readonly clock?: Clock;
    readonly runnerOptions?: DigestRunnerOptions;
  };
}

export interface RunningApp {
  readonly app: App;
  readonly deps: SlackDeps;
  /** Store, runner and rules of scheduled digests; the store opens in `start()`. */
  readonly digests: DigestService;
  /** Initialises (auth.test) and starts listening; HTTP mode resolves with the bound port. */
  start(): Promise<{ port: number | undefined }>;
  /** Stops accepting requests, lets in-flight lookups finish (bounded), then releases everything. */
  stop(): Promise<void>;
}

/** Builds the Slack app for HTTP or Socket Mode; nothing listens until `start()`. */
export function createApp(
  config: HttpConfig | SocketConfig,
  overrides: AppOverrides = {},
): RunningApp {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const fetchFn = overrides.fetch ?? globalThis.fetch;
  const analytics =
    overrides.analytics ?? analyticsClientFor(config.analytics, config.lookup, logger);
  const inFlight = new InFlight();
  // One users.info cache for zones, admin rights and names.
  const users = new UserDirectory();
  const digests = new DigestService({
    openStore: async () =>
      overrides.digests?.store ??
      openDigestStore({ ...config.storage, logger: logger.child({ component: 'digest-store' }) }),
    analytics,
    ...slackDigestOutlet(config.slack, logger, { fetch: fetchFn, directory: users }),
    policy: config.digests,
    logger: logger.child({ component: 'digests' }),
    ...defined({ now: overrides.now }),
    ...defined({ clock: overrides.digests?.clock }),
    ...defined({ runnerOptions: overrides.digests?.runnerOptions }),
  });

  const deps: SlackDeps = {
    flow: new LookupFlow({
      analytics,
      logger: logger.child({ component: 'lookup' }),
      policy: config.lookup,
      ...defined({ now: overrides.now }),
    }),
    logger,
    zones: new UserZones({ logger, waitMs: config.lookup.userZoneWaitMs, directory: users }),
    inFlight,
    seen: new SeenRequests({
      sightings: () => digests.store,
      logger: logger.child({ component: 'requests' }),
    }),
    chat: new WebClient(
      config.slack.botToken.reveal(),
      singleAttemptClientOptions({ fetch: fetchFn, ...defined({ apiUrl: config.slack.apiUrl }) }),
    ),
    fetch: fetchFn,
    digests,
    admins: new AdminDirectory({ logger, directory: users }),
  };

  let stopping = false;
  const clientOptions = webClientOptions({
    fetch: fetchFn,
    ...defined({ apiUrl: config.slack.apiUrl }),
  });
  const boltLog = boltLogger(logger);
  const botToken = config.slack.botToken.reveal();
  // start() checks the token itself (auth.test, retried while Slack is slow); Bolt then takes the
  // bot's ids from here instead of calling auth.test with the interactive client's short timeout.
  let identity: BotIdentity = { botId: undefined, botUserId: undefined };
  const common = {
    authorize: async () => ({ botToken, ...defined(identity) }),
    logger: boltLog,
    clientOptions,
    deferInitialization: true,
    // No listener keeps conversation state; Bolt's default store would look up every request's
    // conversation in memory and build an Error ("Conversation not found") each time.
    convoStore: false as const,
  };
  let server: Server | undefined;
  let app: App;
  if (config.mode === 'http') {
    const receiver = new HTTPReceiver({
      signingSecret: config.slack.signingSecret.reveal(),
      // The front door has checked the signature, and more, before a request gets here.
      signatureVerification: false,
      logger: boltLog,
      customRoutes: [
        {
          path: '/healthz',
          method: ['GET'],
          handler: (_req, res) => {
            res.writeHead(stopping ? 503 : 200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                status: stopping ? 'stopping' : 'ok',
                version: config.version,
                mode: config.mode,
              }),
            );
          },
        },
      ],
    });
    app = new App({ ...common, receiver });
    server = slackServer(
      frontDoor({
        signingSecret: config.slack.signingSecret.reveal(),
        next: receiver.requestListener,
        firstSignature: (signature) => deps.seen.firstSignature(signature),
        logger: logger.child({ component: 'http' }),
      }),
    );
  } else {
    app = new App({ ...common, appToken: config.slack.appToken.reveal(), socketMode: true });
  }

  app.error(async (error) => {
    logger.error(
      { err: error.original ?? error, code: error.code },
      'unhandled error in a Slack listener',
    );
  });
  register(app, deps, config.allowedTeamIds);
  for (const extra of overrides.modules ?? []) extra(app, deps);

  return {
    app,
    deps,
    digests,
    async start() {
      identity = await verifyBotToken({
        token: botToken,
        fetch: fetchFn,
        logger: logger.child({ component: 'startup' }),
        ...defined({ apiUrl: config.slack.apiUrl }),
      });
      await app.init();
      // Before listening: a digest command and the replay check must find the store open.
      await digests.open().catch((error: unknown) => {
        throw new StoreUnavailableError(
          storeWhere(
            config.storage.databaseUrl?.reveal(),
            config.storage.sqlitePath ?? defaultSqlitePath,
          ),
          error,
        );
      });
      let port: number | undefined;
      if (server === undefined) await app.start();
      else port = await listen(server, overrides.port ?? config.port);
      digests.startTimer();
      return { port };
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      const stoppedAt = Date.now();
      // The timer stops beside everything else: a tick in flight finishes while lookups drain.
      void digests.stopTimer();
      const closing = (server === undefined ? app.stop() : close(server)).catch(
        (error: unknown) => {
          logger.warn({ err: error }, 'stopping the Slack receiver failed');
        },
      );
      server?.closeIdleConnections();
      const cut = setTimeout(() => server?.closeAllConnections(), connectionCloseGraceMs);
      await closing;
      clearTimeout(cut);
      if (inFlight.size > 0)
        logger.info({ inFlight: inFlight.size }, 'waiting for lookups in flight');
      const finished = await inFlight.drain(drainGraceMs, abortGraceMs);
      if (!finished) logger.warn('some lookups were still running at shutdown and were stopped');
      await digests.close(shutdownBudgetMs - closeReserveMs - (Date.now() - stoppedAt));
      await analytics.close?.();
    },
  };
}

/** One line that says how the app runs; never a secret. */
export function startupSummary(config: Config, port: number | undefined): Record<string, unknown> {
  return {
    mode: config.mode,
    version: config.version,
    ...defined({ port }),
    analytics: withoutUserinfo(config.analytics?.baseUrl ?? 'built-in sandbox'),
    allowedTeams: config.allowedTeamIds.length === 0 ? 'all' : config.allowedTeamIds.join(','),
  };
}

/**
 * `--tz Europe/Paris` or `--tz=Europe/Paris` on the command line (console mode only).
 *
 * @throws ConfigError for any other argument, or `--tz` without a zone.
 */
export function zoneArgument(argv: readonly string[]): string | undefined {
  const parsed = readArguments({
    args: [...argv],
    options: { tz: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  if (typeof parsed === 'string') {
    throw new ConfigError([`${parsed} The console takes only --tz <zone>.`]);
  }
  return parsed.values.tz;
}

/** What `npm start` reads and writes: the process's own, or a test's. */
export interface StartIo {
  /** The arguments after the script's path. */
  readonly argv: readonly string[];
  /** The environment; `.env` adds the variables it does not set (to `process.env` in the app). */
  readonly env: Record<string, string | undefined>;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Where `.env` is looked for and the console writes its exports. */
  readonly cwd: string;
}

function processIo(): StartIo {
  return {
    argv: process.argv.slice(2),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
  };
}

/** `.env` in the working directory, when there is one; variables already set win over it. */
function loadDotEnv(io: StartIo): void {
  const path = join(io.cwd, '.env');
  if (!existsSync(path)) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
    if (io.env[name] === undefined) io.env[name] = value;
  }
}

/**
 * `npm start`: resolves with the exit code once the console or a failed start is over, or with
 * undefined while the Slack app runs (it ends the process itself on SIGTERM). Tests pass their
 * own `io` to run the console in-process.
 */
export async function main(io: StartIo = processIo()): Promise<number | undefined> {
  if (io.argv.some((arg) => arg === '--help' || arg === '-h')) {
    io.stdout.write(`${startUsageText}\n`);
    return 0;
  }
  loadDotEnv(io);
  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${startFailureText({ kind: 'config', problems: error.problems })}\n`);
      return 1;
    }
    throw error;
  }

  if (config.mode === 'console') return runConsoleMode(config, io);

  const logger = createLogger({ level: config.logLevel });
  const running = createApp(config, { logger });
  let port: number | undefined;
  try {
    ({ port } = await running.start());
  } catch (error) {
    // A bad token, a port in use, a database that cannot be reached: one sentence saying what to
    // change. Only a failure nobody foresaw adds its stack to the logs.
    const failure = startFailure(error, config.port);
    if (failure.kind === 'unexpected') logger.fatal({ err: error }, 'could not start');
    await releaseLogs(logger, logReleaseMs);
    io.stderr.write(`${startFailureText(failure)}\n`);
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

async function runConsoleMode(config: ConsoleConfig, io: StartIo): Promise<number> {
  let zone: string | undefined;
  try {
    zone = zoneArgument(io.argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`${error.problems.join('\n')}\n`);
    return 2;
  }
  // Loaded here only: HTTP and Socket Mode never need the console, its sandbox or its readline.
  const { runConsole } = await import('./console/console.ts');
  return runConsole(config, {
    input: io.stdin,
    output: io.stdout,
    errors: io.stderr,
    logLevel: config.logLevel,
    cwd: io.cwd,
    ...defined({ zone }),
  });
}

if (import.meta.main) {
  const code = await main();
  if (code !== undefined) process.exit(code);
}
