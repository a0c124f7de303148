/**
 * Composition root of the Slack app: config -> logger -> analytics client -> Bolt app (HTTP or
 * Socket Mode) -> register -> start. `npm start` runs `main.ts`, which loads this file once it has
 * bound the port; tests and benchmarks import `createApp` and start it on port 0 with an injected
 * `fetch`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { analyticsClientFor } from './analytics/from-config.ts';
import type { AnalyticsApi } from './analytics/types.ts';
import type { Config, HttpConfig, SocketConfig } from './config/app-config.ts';
import { storeWhere } from './config/sections.ts';
import type { Clock, DigestRunnerOptions } from './digests/runner.ts';
import { DigestService } from './flows/digest-service.ts';
import { LookupFlow } from './flows/lookup.ts';
import { createLogger, type Logger, releaseLogs, withoutUserinfo } from './logger.ts';
import { mcpEndpoint } from './mcp/endpoint.ts';
import { defined } from './model/defined.ts';
import { startFailureText } from './render/startup.ts';
import { SeenRequests } from './requests/seen-requests.ts';
import type { SlackDeps } from './slack/deps.ts';
import { frontDoor } from './slack/http/front-door.ts';
import { close, listen, slackServer } from './slack/http/server.ts';
import { startingGate } from './slack/http/starting.ts';
import { unreadableRequestHandler } from './slack/http/unreadable.ts';
import { register } from './slack/index.ts';
import { isAllowedRequest } from './slack/middleware/team-guard.ts';
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
import type { Database } from './store/database.ts';
import { defaultSqlitePath, openDatabase } from './store/open.ts';

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
    openDatabase: async () =>
      overrides.digests?.database ??
      openDatabase({ ...config.storage, logger: logger.child({ component: 'digest-store' }) }),
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
      sightings: () => digests.database.sightings,
      logger: logger.child({ component: 'requests' }),
    }),
    chat: new WebClient(
      config.slack.botToken.reveal(),
      singleAttemptClientOptions({
        fetch: fetchFn,
        logger,
        ...defined({ apiUrl: config.slack.apiUrl }),
      }),
    ),
    fetch: fetchFn,
    digests,
    admins: new AdminDirectory({ logger, directory: users }),
  };

  let stopping = false;
  // HTTP mode: the port is bound first and requests wait at the starting gate until this is true.
  let ready = false;
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
      processEventErrorHandler: unreadableRequestHandler(logger.child({ component: 'http' })),
      customRoutes: [
        {
          path: '/healthz',
          method: ['GET'],
          // 503 while stopping, or while the digest store does not answer (lookups still work,
          // but digests cannot be created or changed, and a platform should know).
          handler: (_req, res) => {
            const about = { version: config.version, mode: config.mode };
            const answer = (status: number, body: Record<string, unknown>) => {
              res.writeHead(status, { 'content-type': 'application/json' });
              res.end(JSON.stringify(body));
            };
            if (stopping) {
              answer(503, { status: 'stopping', ...about });
              return;
            }
            void digests.storeHealth().then((store) => {
              if (store.ok) answer(200, { status: 'ok', ...about });
              else {
                answer(503, {
                  status: 'degraded',
                  store: 'unavailable',
                  reason: store.reason,
                  ...about,
                });
              }
            });
          },
        },
      ],
    });
    app = new App({ ...common, receiver });
    const firstSignature = (signature: string) => deps.seen.firstSignature(signature);
    const gate = startingGate({
      // `/mcp` is served beside Bolt's routes, behind its own checks (see mcp/endpoint.ts).
      next: mcpEndpoint({
        next: frontDoor({
          signingSecret: config.slack.signingSecret.reveal(),
          next: receiver.requestListener,
          firstSignature,
          logger: logger.child({ component: 'http' }),
        }),
        ...defined({
          bearerToken: config.mcp.bearerToken?.reveal(),
          signingSecret: config.mcp.slackIdentityAuth
            ? config.slack.signingSecret.reveal()
            : undefined,
        }),
        firstSignature,
        tools: {
          flow: deps.flow,
          logger,
          version: config.version,
          zoneOf: (userId) => deps.zones.zoneOf(deps.chat, userId),
          admits: (teamId, enterpriseId) =>
            isAllowedRequest(config.allowedTeamIds, teamId, enterpriseId),
          run: (work) => inFlight.run(work),
        },
        logger: logger.child({ component: 'mcp' }),
      }),
      ready: () => ready,
      about: { version: config.version, mode: config.mode },
    });
    server = overrides.server ?? slackServer(gate);
    if (overrides.server !== undefined) {
      overrides.server.removeAllListeners('request');
      overrides.server.on('request', gate);
    }
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
      // HTTP mode binds first: a platform's boot timeout must not depend on Slack answering.
      const port =
        server === undefined
          ? undefined
          : server.listening
            ? (server.address() as AddressInfo).port
            : await listen(server, overrides.port ?? config.port);
      try {
        identity = await verifyBotToken({
          token: botToken,
          fetch: fetchFn,
          logger: logger.child({ component: 'startup' }),
          ...defined({ apiUrl: config.slack.apiUrl }),
        });
        await app.init();
        // Before any request passes the gate: a digest command and the replay check need the store.
        await digests.open().catch((error: unknown) => {
          throw new StoreUnavailableError(
            storeWhere(
              config.storage.databaseUrl?.reveal(),
              config.storage.sqlitePath ?? defaultSqlitePath,
            ),
            error,
          );
        });
        if (server === undefined) await app.start();
      } catch (error) {
        if (server !== undefined) {
          const closed = close(server);
          server.closeAllConnections();
          await closed;
        }
        throw error;
      }
      ready = true;
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
