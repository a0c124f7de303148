import { App } from '@slack/bolt';
import { type AppOverrides, createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/app-config.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeSlack } from './fake-slack.ts';

export interface Registrations {
  readonly commands: string[];
  readonly events: string[];
  readonly actions: string[];
  readonly views: string[];
  readonly shortcuts: string[];
  /** Workflow Builder steps (`app.function`). */
  readonly functions: string[];
  readonly middleware: number;
}

type Recorded = keyof Omit<Registrations, 'middleware'>;

const recordedMethods: Readonly<Record<string, Recorded>> = {
  command: 'commands',
  event: 'events',
  message: 'events',
  action: 'actions',
  view: 'views',
  shortcut: 'shortcuts',
  function: 'functions',
  options: 'actions',
};

/**
 * Everything the real composition root registers on Bolt: `createApp` builds the HTTP app (without
 * listening or calling Slack) while every registration method of `App` records its first argument,
 * so the lookup modules, the digest feature and any `modules` passed in are all seen.
 */
export function recordRegistrations(modules: AppOverrides['modules'] = []): Registrations {
  const seen: Registrations = {
    commands: [],
    events: [],
    actions: [],
    views: [],
    shortcuts: [],
    functions: [],
    middleware: 0,
  };
  const asId = (id: unknown) =>
    typeof id === 'string' ? id : id instanceof RegExp ? id.toString() : JSON.stringify(id);
  const prototype = App.prototype as unknown as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  originals.set('assistant', prototype.assistant);
  // Bolt's Assistant listens as middleware to these three events.
  prototype.assistant = function record(this: App) {
    seen.events.push('assistant_thread_started', 'assistant_thread_context_changed', 'message');
    return this;
  };
  for (const [method, bucket] of Object.entries(recordedMethods)) {
    originals.set(method, prototype[method]);
    prototype[method] = function record(this: App, id: unknown) {
      seen[bucket].push(method === 'message' ? 'message' : asId(id));
      return this;
    };
  }
  originals.set('use', prototype.use);
  const use = prototype.use as (this: App, ...args: unknown[]) => App;
  prototype.use = function record(this: App, ...args: unknown[]) {
    (seen as { middleware: number }).middleware += 1;
    return use.apply(this, args);
  };
  try {
    const config = loadConfig({
      SLACK_SIGNING_SECRET: 'recording-signing-secret',
      SLACK_BOT_TOKEN: 'xoxb-recording',
      ANALYTICS_BASE_URL: 'http://127.0.0.1:9',
      ANALYTICS_CLIENT_ID: 'recording',
      ANALYTICS_CLIENT_SECRET: 'recording',
      DIGESTS_SQLITE_PATH: ':memory:',
      DIGESTS_ENABLED: 'false',
      LOG_LEVEL: 'silent',
    });
    if (config.mode !== 'http') throw new Error('recording needs HTTP mode');
    createApp(config, { fetch: new FakeSlack().fetch, logger: silentLogger, modules });
  } finally {
    for (const [method, original] of originals) prototype[method] = original;
  }
  return seen;
}
