/**
 * The Slack surface over the core: Bolt (HTTP receiver or Socket Mode), the listeners, the
 * starting gate and `/healthz`, and the order a start and a stop go in. What is not Slack's (the
 * lookup flow, the database, the jobs) comes from the core; what sits beside Slack on the same
 * port (MCP) is put in front of the front door by the composition root through `wrap`.
 */
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import type { PollSchedule } from '../async/poll.ts';
import type { HttpConfig, SocketConfig } from '../config/app-config.ts';
import { storeWhere } from '../config/sections.ts';
import type { Core } from '../core/core.ts';
import { DigestStoreOpenFailedError, SlackCallError } from '../errors.ts';
import { appServer, close, listen } from '../http/server.ts';
import { startingGate } from '../http/starting.ts';
import { defined } from '../model/defined.ts';
import { SeenRequests } from '../requests/seen-requests.ts';
import { defaultSqlitePath } from '../store/open.ts';
import type { SlackDeps } from './deps.ts';
import { frontDoor } from './http/front-door.ts';
import { healthRoute } from './http/health.ts';
import { ReplayedRequestError, SightedReceiver } from './http/sighted-receiver.ts';
import { unreadableRequestHandler } from './http/unreadable.ts';
import { register } from './index.ts';
import { boltLogger } from './process/bolt-logger.ts';
import { InFlight } from './process/in-flight.ts';
import { type BotIdentity, verifyBotToken } from './process/startup.ts';
import type { SlackAccess } from './web-api/access.ts';
import { webClientOptions } from './web-api/client.ts';
import { AdminDirectory } from './web-api/digest-access.ts';
import type { UserDirectory } from './web-api/user-directory.ts';
import { UserZones } from './web-api/user-zones.ts';

/** Of the shutdown budget: how long in-flight lookups may run on, then how long their final posts get. */
const drainGraceMs = 19_000;
const abortGraceMs = 3_000;
/** An HTTP connection still open this long after stop() is cut. */
const connectionCloseGraceMs = 2_000;

export interface SlackSurfaceOptions {
  readonly config: HttpConfig | SocketConfig;
  readonly core: Core;
  readonly access: SlackAccess;
  /** The users.info cache the outlet shares (zones, admin rights, names). */
  readonly users: UserDirectory;
  /** HTTP mode: puts what else the port serves in front of Slack's front door. */
  readonly wrap?: (frontDoor: RequestListener, deps: SlackDeps) => RequestListener;
  /** Listeners registered after the app's own (tests). */
  readonly modules?: readonly ((app: App, deps: SlackDeps) => void)[];
  /** How long a request's work waits for the store to say whether it is new (tests hold it). */
  readonly sightingWaitMs?: number;
  /** The poll for Stop pressed on another instance: its interval and timer (tests drive it). */
  readonly stopPoll?: PollSchedule;
  readonly port?: number;
  /** HTTP mode: a server already listening, whose requests the surface takes over (`main.ts`). */
  readonly server?: Server;
}

export interface SlackSurface {
  readonly app: App;
  readonly deps: SlackDeps;
  /** Binds (HTTP), checks the bot token, initialises Bolt, opens the core; resolves with the port. */
  start(): Promise<{ port: number | undefined }>;
  /** Stops taking requests and drains the lookups in flight (bounded); the core closes after. */
  stop(): Promise<void>;
}

export function slackSurface(options: SlackSurfaceOptions): SlackSurface {
  const { config, core, access } = options;
  const { logger } = core;
  const inFlight = new InFlight();
  const workspace = access.forTeam(undefined);
  const deps: SlackDeps = {
    flow: core.lookup,
    logger,
    zones: new UserZones({
      logger,
      waitMs: config.lookup.userZoneWaitMs,
      directory: options.users,
    }),
    inFlight,
    seen: new SeenRequests({
      sightings: () => core.digests.database.sightings,
      logger: logger.child({ component: 'requests' }),
      ...defined({ waitMs: options.sightingWaitMs }),
    }),
    slack: access,
    digests: core.digests,
    admins: new AdminDirectory({ logger, directory: options.users }),
    ...defined({ stopPoll: options.stopPoll }),
  };

  let stopping = false;
  // HTTP mode: the port is bound first and requests wait at the starting gate until this is true.
  let ready = false;
  const boltLog = boltLogger(logger);
  // start() checks the token itself (auth.test, retried while Slack is slow); Bolt then takes the
  // bot's ids from here instead of calling auth.test with the interactive client's short timeout.
  let identity: BotIdentity = { botId: undefined, botUserId: undefined };
  const common = {
    authorize: async (source: {
      teamId?: string | undefined;
      enterpriseId?: string | undefined;
      isEnterpriseInstall?: boolean | undefined;
    }) =>
      access.authorize
        ? access.authorize(source)
        : { botToken: access.forTeam(source.teamId).botToken(), ...defined(identity) },
    logger: boltLog,
    clientOptions: webClientOptions({
      fetch: access.fetch,
      ...defined({ apiUrl: access.apiUrl }),
    }),
    deferInitialization: true,
    // No listener keeps conversation state; Bolt's default store would look up every request's
    // conversation in memory and build an Error ("Conversation not found") each time.
    convoStore: false as const,
  };
  let server: Server | undefined;
  let app: App;
  if (config.mode === 'http') {
    const receiver = new SightedReceiver({
      track: (work) => inFlight.track(work),
      log: logger.child({ component: 'http' }),
      signingSecret: config.slack.signingSecret.reveal(),
      // The front door has checked the signature, and more, before a request gets here.
      signatureVerification: false,
      logger: boltLog,
      processEventErrorHandler: unreadableRequestHandler(logger.child({ component: 'http' })),
      customRoutes: [
        healthRoute({
          about: { version: config.version, mode: config.mode },
          store: () => core.digests.storeHealth(),
        }),
      ],
    });
    app = new App({ ...common, receiver });
    const door = frontDoor({
      signingSecret: config.slack.signingSecret.reveal(),
      next: receiver.requestListener,
      sight: (signature) => deps.seen.sightSignature(signature),
      logger: logger.child({ component: 'http' }),
    });
    const gate = startingGate({
      next: options.wrap?.(door, deps) ?? door,
      ready: () => ready,
      stopping: () => stopping,
      about: { version: config.version, mode: config.mode },
    });
    server = options.server ?? appServer(gate);
    if (options.server !== undefined) {
      options.server.removeAllListeners('request');
      options.server.on('request', gate);
    }
  } else {
    app = new App({ ...common, appToken: config.slack.appToken.reveal(), socketMode: true });
  }

  app.error(async (error) => {
    // A replay's ack stops its listener; the receiver has logged it.
    if ((error.original ?? error) instanceof ReplayedRequestError) return;
    const original = error.original ?? error;
    // A workspace that never installed the app (or left it): Bolt's authorize refused it.
    if (original instanceof SlackCallError && original.method === 'authorize') {
      logger.warn(
        { reason: original.reason },
        'a request from a workspace the app is not installed in',
      );
      return;
    }
    logger.error(
      { err: error.original ?? error, code: error.code },
      'unhandled error in a Slack listener',
    );
  });
  register(app, deps, config.allowedTeamIds);
  for (const extra of options.modules ?? []) extra(app, deps);

  return {
    app,
    deps,
    async start() {
      // HTTP mode binds first: a platform's boot timeout must not depend on Slack answering.
      const port =
        server === undefined
          ? undefined
          : server.listening
            ? (server.address() as AddressInfo).port
            : await listen(server, options.port ?? config.port);
      // The database opens while Slack confirms the token, so a wrong DATABASE_URL is reported
      // at once, even while Slack is unreachable; its failure stops the token's retries.
      const givenUp = new AbortController();
      try {
        // Before any request passes the gate: a digest command and the replay check need it.
        const opening = core.open().catch((error: unknown) => {
          givenUp.abort();
          throw new DigestStoreOpenFailedError(
            storeWhere(
              config.storage.databaseUrl?.reveal(),
              config.storage.sqlitePath ?? defaultSqlitePath,
            ),
            error,
          );
        });
        // Installed workspaces each bring their token with their requests: none to confirm.
        const confirming: Promise<BotIdentity> = access.perWorkspace
          ? Promise.resolve(identity)
          : verifyBotToken({
              token: workspace.botToken(),
              fetch: access.fetch,
              logger: logger.child({ component: 'startup' }),
              signal: givenUp.signal,
              ...defined({ apiUrl: access.apiUrl }),
            });
        [identity] = await Promise.all([confirming, opening]);
        await app.init();
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
      return { port };
    },
    async stop() {
      if (stopping) return;
      // From here the gate takes no new work; in HTTP mode the port stays open while the work in
      // flight drains, so a health probe reads "stopping" instead of a refused connection.
      stopping = true;
      const receiverStopped = (server === undefined ? app.stop() : Promise.resolve()).catch(
        (error: unknown) => {
          logger.warn({ err: error }, 'stopping the Slack receiver failed');
        },
      );
      server?.closeIdleConnections();
      await receiverStopped;
      if (inFlight.size > 0)
        logger.info({ inFlight: inFlight.size }, 'waiting for lookups in flight');
      const finished = await inFlight.drain(drainGraceMs, abortGraceMs);
      if (!finished) logger.warn('some lookups were still running at shutdown and were stopped');
      if (server !== undefined) {
        const closing = close(server);
        server.closeIdleConnections();
        const cut = setTimeout(() => server?.closeAllConnections(), connectionCloseGraceMs);
        await closing;
        clearTimeout(cut);
      }
    },
  };
}
