import { Writable } from 'node:stream';
import type { App } from '@slack/bolt';
import { type AppOverrides, createApp, type RunningApp } from '../../src/app.ts';
import { type HttpConfig, loadConfig } from '../../src/config/app-config.ts';
import { createLogger } from '../../src/logger.ts';
import {
  demoClient,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/server.ts';
import { FakeSlack } from './fake-slack.ts';
import type { EncodedBody } from './payloads.ts';
import { signSlackRequest } from './signing.ts';

export const signingSecret = 'test-signing-secret-0123456789';
export const botToken = 'xoxb-test-bot-token-0123456789';
export const slackApiUrl = 'http://slack.test/api/';

export interface HarnessOptions {
  /** Extra or replacing environment variables for loadConfig. */
  readonly env?: Record<string, string>;
  readonly sandbox?: SandboxOptions;
  /** Use this sandbox instead of starting one (shared between apps). */
  readonly sharedSandbox?: Sandbox;
  readonly overrides?: AppOverrides;
  /**
   * `user:password` put in the analytics base URL, to check it never reaches a log (the config
   * refuses one in SLACK_API_URL).
   */
  readonly urlUserinfo?: string;
}

export interface SentRequest {
  readonly status: number;
  readonly text: string;
  /** The JSON body of the HTTP answer (the ack), when there is one. */
  readonly json: Record<string, unknown> | undefined;
  readonly ms: number;
}

export interface Harness {
  readonly url: string;
  readonly slack: FakeSlack;
  readonly sandbox: Sandbox;
  readonly running: RunningApp;
  readonly config: HttpConfig;
  /** Every log line the app wrote, as JSON text. */
  readonly logs: string[];
  send(
    payload: EncodedBody,
    options?: { secret?: string; timestamp?: number; headers?: Record<string, string> },
  ): Promise<SentRequest>;
  /**
   * Resolves once no Slack listener is running and no work one started is in flight: after it,
   * whatever a request was going to post has been posted, so a test can check that nothing was.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** How long {@link Harness.settled} waits before it fails the test instead of hanging it. */
const settleLimitMs = 10_000;

/** The app in HTTP mode on an ephemeral port, Slack faked through `fetch`, analytics from the sandbox. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox =
    options.sharedSandbox ??
    (await startSandbox({ port: 0, host: '127.0.0.1', ...options.sandbox }));
  const withUserinfo = (url: string) =>
    options.urlUserinfo === undefined ? url : url.replace('://', `://${options.urlUserinfo}@`);
  const config = loadConfig({
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: botToken,
    SLACK_API_URL: slackApiUrl,
    ANALYTICS_BASE_URL: withUserinfo(sandbox.url),
    ANALYTICS_CLIENT_ID: demoClient.id,
    ANALYTICS_CLIENT_SECRET: demoClient.secret,
    LOG_LEVEL: 'debug',
    PROGRESS_UPDATE_MS: '400',
    LOOKUP_TIMEOUT_MS: '2500',
    USER_ZONE_WAIT_MS: '500',
    // Never the developer's ./data store, and no background ticks unless a test asks for them.
    DIGESTS_SQLITE_PATH: ':memory:',
    DIGESTS_ENABLED: 'false',
    ...options.env,
  });
  if (config.mode !== 'http') throw new Error('the harness runs HTTP mode');
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(
        ...String(chunk)
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  const slack = new FakeSlack({ apiUrl: slackApiUrl });
  // Every listener chain a request runs, from the last global middleware on (the earlier ones
  // either pass the request on at once or answer it themselves, tracked as work in flight).
  const listening = new Set<Promise<unknown>>();
  const trackListeners = (app: App) => {
    app.use(async ({ next }) => {
      const done = next();
      listening.add(done);
      try {
        await done;
      } finally {
        listening.delete(done);
      }
    });
  };
  const running = createApp(config, {
    fetch: slack.fetch,
    logger: createLogger({ level: 'debug', destination }),
    port: 0,
    ...options.overrides,
    modules: [...(options.overrides?.modules ?? []), trackListeners],
  });
  const { port } = await running.start();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    slack,
    sandbox,
    running,
    config,
    logs,
    async send(payload, sendOptions = {}) {
      const headers = {
        'content-type': payload.contentType,
        ...signSlackRequest(
          sendOptions.secret ?? signingSecret,
          payload.body,
          sendOptions.timestamp,
        ),
        ...sendOptions.headers,
      };
      const started = performance.now();
      const response = await fetch(`${url}/slack/events`, {
        method: 'POST',
        headers,
        body: payload.body,
      });
      const text = await response.text();
      const ms = performance.now() - started;
      let json: Record<string, unknown> | undefined;
      try {
        json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        json = undefined;
      }
      return { status: response.status, text, json, ms };
    },
    async settled() {
      const limit = performance.now() + settleLimitMs;
      const busy = () => listening.size > 0 || running.deps.inFlight.size > 0;
      // Idle across a turn of the event loop, so work started by what just finished counts too.
      const idleAfterTurn = async () => {
        await nextTurn();
        return !busy();
      };
      while (busy() || !(await idleAfterTurn())) {
        const left = limit - performance.now();
        if (left <= 0) throw new Error(`still busy after ${settleLimitMs} ms`);
        await Promise.allSettled([...listening]);
        await running.deps.inFlight.idleWithin(left);
      }
    },
    async close() {
      await running.stop();
      if (!options.sharedSandbox) await sandbox.close();
      if (slack.violations.length > 0) {
        throw new Error(`unfaithful Slack calls: ${slack.violations.join('; ')}`);
      }
    },
  };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
