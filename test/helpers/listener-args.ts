/**
 * What a listener's unit test calls it with: the Bolt arguments built from the same payloads the
 * end-to-end tests sign and send (payloads.ts), with recording fakes for `ack`, `respond`, `say`,
 * `complete` and `fail`, and the SlackDeps the composition root builds. Nothing is mocked but
 * Slack: the deps are `createApp`'s own (the real LookupFlow against the sandbox, an in-memory
 * SQLite digest store), nothing listens, and every Web API call or response_url post goes to the
 * fake Slack, which records it and answers as Slack would.
 */
import { Writable } from 'node:stream';
import type {
  AckFn,
  AllMiddlewareArgs,
  App,
  BlockButtonAction,
  Logger as BoltLogger,
  Context,
  GlobalShortcut,
  RespondArguments,
  RespondFn,
  SayFn,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  SlashCommand,
  ViewResponseAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { type ChatPostMessageArguments, WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, beforeEach, type Mock, vi } from 'vitest';
import { createApp, type RunningApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/app-config.ts';
import { shownInMessage } from '../../src/flows/lookup/index.ts';
import { createLogger } from '../../src/logger.ts';
import type { Digest, NewDigest } from '../../src/model/digest.ts';
import type { LookupRequest } from '../../src/model/lookup.ts';
import type { SlackMessage } from '../../src/model/message.ts';
import { type AnswerOptions, renderAnswer } from '../../src/render/lookups/answer.ts';
import { demoClient, type Sandbox } from '../../src/sandbox/server.ts';
import type { SlackDeps } from '../../src/slack/deps.ts';
import { webClientOptions } from '../../src/slack/web-api/client.ts';
import { digestInput } from '../digests/helpers.ts';
import { FakeSlack } from './fake-slack.ts';
import { botToken, signingSecret, slackApiUrl } from './harness.ts';
import { now, startLookupSandbox } from './lookups.ts';
import {
  type ButtonOptions,
  blockAction,
  botId,
  botUserId,
  type CommandOptions,
  type EncodedBody,
  eventCallback,
  functionExecutedEvent,
  globalShortcut,
  slashCommand,
  teamId,
  userId,
  type ViewSubmissionOptions,
  viewSubmission,
} from './payloads.ts';

/** One log line the app wrote, as pino wrote it. */
export type LogRecord = Record<string, unknown> & { readonly msg?: string; readonly level: number };

/** The deps of one test and the fake Slack behind them. */
export interface ListenerWorld {
  readonly slack: FakeSlack;
  readonly deps: SlackDeps;
  /** The client Bolt hands a listener: the bot token, Slack through the fake. */
  readonly client: WebClient;
  /** The analytics service the lookups ask, when the world has one. */
  readonly sandbox: Sandbox | undefined;
  /** The analytics data requests made since the world was built. */
  asked(): number;
  /** Every log line the app wrote, in order. */
  readonly logs: LogRecord[];
  /** The log lines whose message is `msg`. */
  logged(msg: string): LogRecord[];
  /** Waits for the work a listener left running after it returned (answers after the ack). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface ListenerWorldOptions {
  /** The analytics service; without it, an address where nothing listens. */
  readonly sandbox?: Sandbox;
}

/**
 * The deps `createApp` builds at the lookup tests' fixed clock, with the digest store open. Slack
 * answers `conversations.info` for a public channel the bot is in and the assistant thread
 * methods with `ok`; a test overrides either to make them refuse.
 */
export async function startListenerWorld(
  options: ListenerWorldOptions = {},
): Promise<ListenerWorld> {
  // A sandbox serves every test of a file: its log shows only what this one asked.
  options.sandbox?.clearLog();
  const slack = new FakeSlack({ apiUrl: slackApiUrl });
  slack.override('conversations.info', (args) => ({
    ok: true,
    channel: { id: args.channel, is_channel: true, is_private: false, is_member: true },
  }));
  for (const method of ['setStatus', 'setSuggestedPrompts', 'setTitle']) {
    slack.override(`assistant.threads.${method}`, () => ({ ok: true }));
  }
  const logs: LogRecord[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (line !== '') logs.push(JSON.parse(line) as LogRecord);
      }
      done();
    },
  });
  const config = loadConfig({
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: botToken,
    SLACK_API_URL: slackApiUrl,
    ANALYTICS_BASE_URL: options.sandbox?.url ?? 'http://127.0.0.1:9',
    ANALYTICS_CLIENT_ID: demoClient.id,
    ANALYTICS_CLIENT_SECRET: demoClient.secret,
    LOG_LEVEL: 'debug',
    // No "still looking" update within a unit test; every answer is asked of the sandbox afresh.
    PROGRESS_UPDATE_MS: '9000',
    LOOKUP_TIMEOUT_MS: '10000',
    RESPONSE_CACHE_TTL_MS: '0',
    DIGESTS_SQLITE_PATH: ':memory:',
    DIGESTS_ENABLED: 'false',
  });
  if (config.mode !== 'http') throw new Error('listener tests build the HTTP app');
  const running: RunningApp = createApp(config, {
    fetch: slack.fetch,
    logger: createLogger({ level: 'debug', destination }),
    now,
  });
  await running.digests.open();
  // Bolt's clientOptions, without the retries of a 5xx: a unit test never waits out a backoff.
  const client = new WebClient(
    botToken,
    webClientOptions({ fetch: slack.fetch, apiUrl: slackApiUrl, retryConfig: { retries: 0 } }),
  );
  const { deps } = running;
  return {
    slack,
    deps,
    client,
    sandbox: options.sandbox,
    asked: () => options.sandbox?.log.filter((entry) => entry.endpoint === 'data').length ?? 0,
    logs,
    logged: (msg) => logs.filter((record) => record.msg === msg),
    async settle() {
      if (!(await deps.inFlight.drain(10_000, 1_000))) throw new Error('work still in flight');
    },
    close: () => running.stop(),
  };
}

/**
 * A fresh {@link ListenerWorld} for each test of the file (closed after it), against one sandbox
 * for the whole file when `sandbox` is set: the sandbox's account reads #hcsm, #bcsm and #quiet
 * at the lookup tests' fixed clock. Call the returned function inside a test.
 */
export function useListenerWorld(
  options: { readonly sandbox?: boolean } = {},
): () => ListenerWorld {
  let sandbox: Sandbox | undefined;
  let world: ListenerWorld | undefined;
  if (options.sandbox === true) {
    beforeAll(async () => {
      sandbox = await startLookupSandbox();
    });
    afterAll(async () => {
      await sandbox?.close();
    });
  }
  beforeEach(async () => {
    world = await startListenerWorld(sandbox === undefined ? {} : { sandbox });
  });
  afterEach(async () => {
    const violations = world?.slack.violations ?? [];
    await world?.close();
    world = undefined;
    if (violations.length > 0) throw new Error(`unfaithful Slack calls: ${violations.join('; ')}`);
  });
  return () => {
    if (world === undefined) throw new Error('the listener world exists only inside a test');
    return world;
  };
}

/**
 * A digest in the world's store, created by the payloads' person in their workspace and channel
 * unless `overrides` say otherwise.
 */
export function storedDigest(
  world: ListenerWorld,
  overrides: Partial<NewDigest> = {},
): Promise<Digest> {
  return world.deps.digests.database.digests.create(
    digestInput({ teamId, channelId: 'C0CHANNEL1', creatorId: userId, ...overrides }),
    now(),
  );
}

/**
 * The answer the lookup flow renders for `asked` from the sandbox's rankings, with the buttons
 * every answer has: what a listener should deliver. Asks the sandbox, so after counting requests.
 */
export async function answerFor(
  world: ListenerWorld,
  asked: LookupRequest,
  options: Omit<AnswerOptions, 'actions' | 'previous'> = {},
): Promise<SlackMessage> {
  const { current, previous } = await world.deps.flow.results(asked);
  return renderAnswer(shownInMessage(asked), current, {
    ...options,
    actions: true,
    ...(previous === undefined ? {} : { previous }),
  });
}

/** Bolt's logger, recording; the app's listeners log through `deps.logger` instead. */
function boltLogger(): BoltLogger {
  return {
    debug: vi.fn(),
    info: vi.fn(),
    warn: vi.fn(),
    error: vi.fn(),
    setLevel: vi.fn(),
    getLevel: vi.fn(),
    setName: vi.fn(),
  } as unknown as BoltLogger;
}

/** What Bolt's authorize gives every listener of this app's single workspace. */
function contextFor(team: string): Context {
  return { isEnterpriseInstall: false, teamId: team, botUserId, botId, botToken };
}

type Common = AllMiddlewareArgs & { readonly next: Mock<() => Promise<void>> };

function common(world: ListenerWorld, team: string): Common {
  return {
    context: contextFor(team),
    logger: boltLogger(),
    client: world.client,
    next: vi.fn(async () => {}),
  };
}

/** Posts to a response_url as Bolt's `respond` does, through the fake Slack. */
function respondTo(world: ListenerWorld, url: string | undefined): Mock<RespondFn> {
  return vi.fn<RespondFn>(async (message) => {
    if (url === undefined) throw new Error('this request carries no response_url');
    const body = typeof message === 'string' ? { text: message } : message;
    return world.slack.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  });
}

/** Posts in `channel` as Bolt's `say` does, through the listener's client. */
function sayIn(world: ListenerWorld, channel: string): Mock<SayFn> {
  return vi.fn<SayFn>(async (message) => {
    const fields = typeof message === 'string' ? { text: message } : message;
    return world.client.chat.postMessage({ ...fields, channel } as ChatPostMessageArguments);
  });
}

function interactivePayload<T>(encoded: EncodedBody): T {
  const payload = new URLSearchParams(encoded.body).get('payload');
  if (payload === null) throw new Error('not an interactive payload');
  return JSON.parse(payload) as T;
}

/** The recording `ack`, `respond` and `say` of an interactive request, `ack` taking `Answer`. */
interface Recorders<Answer> {
  readonly ack: Mock<AckFn<Answer>>;
  readonly respond: Mock<RespondFn>;
  readonly say: Mock<SayFn>;
}

export type CommandArgs = SlackCommandMiddlewareArgs &
  Common &
  Recorders<string | RespondArguments>;

/** `/influencers <text>` typed in a channel, as Bolt hands it to the command listener. */
export function commandArgs(world: ListenerWorld, options: CommandOptions): CommandArgs {
  const command = Object.fromEntries(
    new URLSearchParams(slashCommand(options).body),
  ) as unknown as SlashCommand;
  return {
    ...common(world, command.team_id),
    payload: command,
    command,
    body: command,
    ack: vi.fn(async () => {}),
    respond: respondTo(world, command.response_url),
    say: sayIn(world, command.channel_id),
  };
}

export type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & Common & Recorders<void>;

/** A button pressed under a message (or, with `view`, on the Home tab). */
export function buttonArgs(world: ListenerWorld, options: ButtonOptions): ButtonArgs {
  const body = interactivePayload<BlockButtonAction>(blockAction(options));
  const action = body.actions[0];
  if (action === undefined) throw new Error('a button press carries its button');
  return {
    ...common(world, body.team?.id ?? teamId),
    payload: action,
    action,
    body,
    ack: vi.fn(async () => {}),
    respond: respondTo(world, body.response_url),
    say: sayIn(world, body.channel?.id ?? body.user.id),
  };
}

export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> &
  Common &
  Omit<Recorders<ViewResponseAction>, 'say'>;

/** A modal submitted with these input values. */
export function viewArgs(world: ListenerWorld, options: ViewSubmissionOptions): ViewArgs {
  const body = interactivePayload<ViewSubmitAction>(viewSubmission(options));
  return {
    ...common(world, body.team?.id ?? teamId),
    payload: body.view,
    view: body.view,
    body,
    ack: vi.fn(async () => {}),
    respond: respondTo(world, undefined),
  };
}

export type ShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & Common & Recorders<void>;

/** A global shortcut chosen from the shortcuts menu. */
export function shortcutArgs(world: ListenerWorld, callbackId: string): ShortcutArgs {
  const body = interactivePayload<GlobalShortcut>(globalShortcut(callbackId));
  return {
    ...common(world, body.team?.id ?? teamId),
    payload: body,
    shortcut: body,
    body,
    ack: vi.fn(async () => {}),
    respond: respondTo(world, undefined),
    say: sayIn(world, body.user.id),
  };
}

/** The arguments Bolt hands the listener of an event of type `Type`. */
export type EventArgs<Type extends string> = SlackEventMiddlewareArgs<Type> &
  Common & { readonly say: Mock<SayFn> };

/**
 * An Events API event in its envelope: `event`, `payload`, `body`, and for a message `message`
 * and `say`. `Type` names the event the listener takes; the event object is the test's own
 * (payloads.ts builds the usual ones).
 */
export function eventArgs<Type extends string>(
  world: ListenerWorld,
  event: Record<string, unknown>,
  options: { readonly eventId?: string; readonly teamId?: string } = {},
): EventArgs<Type> {
  const encoded = eventCallback({ event, ...options });
  const body = JSON.parse(encoded.body) as { team_id: string };
  const channel = typeof event.channel === 'string' ? event.channel : '';
  return {
    ...common(world, body.team_id),
    payload: event,
    event,
    body,
    ...(event.type === 'message' ? { message: event } : {}),
    say: sayIn(world, channel),
  } as unknown as EventArgs<Type>;
}

export type FunctionArgs = SlackEventMiddlewareArgs<'function_executed'> &
  Common & {
    readonly complete: Mock<SlackEventMiddlewareArgs<'function_executed'>['complete']>;
    readonly fail: Mock<SlackEventMiddlewareArgs<'function_executed'>['fail']>;
    readonly executionId: string;
  };

/**
 * A run of a Workflow Builder step with these inputs. `complete` and `fail` call Slack as Bolt's
 * do (functions.completeSuccess / completeError), so the fake records them too.
 */
export function functionArgs(
  world: ListenerWorld,
  callbackId: string,
  inputs: Record<string, unknown>,
): FunctionArgs {
  const run = functionExecutedEvent(callbackId, inputs);
  const args = eventArgs<'function_executed'>(world, run.event);
  const function_execution_id = run.executionId;
  return {
    ...args,
    inputs,
    ack: vi.fn(async () => {}),
    complete: vi.fn(async (params = {}) =>
      world.client.functions.completeSuccess({
        function_execution_id,
        outputs: params.outputs ?? {},
      }),
    ),
    fail: vi.fn(async (params) =>
      world.client.functions.completeError({ function_execution_id, error: params.error }),
    ),
    executionId: run.executionId,
  } as unknown as FunctionArgs;
}

/** One registration a `register` made: the Bolt method, the id it listens for, the listener. */
export interface Registered {
  readonly method: string;
  readonly id: string;
  readonly listener: unknown;
}

const registrationMethods = [
  'command',
  'action',
  'view',
  'event',
  'message',
  'shortcut',
  'function',
  'options',
  'assistant',
  'use',
] as const;

export interface FakeApp {
  readonly app: App;
  readonly registered: Registered[];
  /** The listener registered with `method` for `id`; throws when there is none. */
  listener<Args>(method: string, id: string): (args: Args) => Promise<void>;
}

/**
 * An object with Bolt App's registration methods, each recording what it was given, for the
 * tests of the folders' `register`. `assistant` and `use` record an empty id.
 */
export function fakeApp(): FakeApp {
  const registered: Registered[] = [];
  const asId = (id: unknown) =>
    typeof id === 'string' ? id : id instanceof RegExp ? id.toString() : JSON.stringify(id);
  const app: Record<string, unknown> = {};
  for (const method of registrationMethods) {
    app[method] = (...args: unknown[]) => {
      const takesId = method !== 'assistant' && method !== 'use';
      registered.push({
        method,
        id: takesId ? asId(args[0]) : '',
        listener: takesId ? args.at(-1) : args[0],
      });
      return app;
    };
  }
  return {
    app: app as unknown as App,
    registered,
    listener<Args>(method: string, id: string) {
      const found = registered.find((entry) => entry.method === method && entry.id === id);
      if (typeof found?.listener !== 'function') throw new Error(`no ${method} listener for ${id}`);
      return found.listener as (args: Args) => Promise<void>;
    },
  };
}
