import { inspect } from 'node:util';
import { z } from 'zod';
import pkg from '../package.json' with { type: 'json' };
import { ConfigError } from './errors.ts';

/**
 * A credential read from the environment. It prints as `[redacted]` through `String()`, JSON,
 * template literals and `util.inspect`, so logging a config object can never leak it; only
 * `reveal()` gives the value, at the one place that hands it to a library.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return '[redacted]';
  }
}

/** How the app reaches Slack, decided by which Slack variables are set. */
export type RunMode = 'http' | 'socket' | 'console';

export interface AnalyticsConfig {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
}

export interface LookupPolicy {
  /** After this long without an answer, the pending message is updated once to say so. */
  readonly progressUpdateMs: number;
  /** The final deadline of one lookup, retries included; far inside response_url's 30 minutes. */
  readonly timeoutMs: number;
  /** How long an ack may wait for users.info before falling back to UTC. */
  readonly userZoneWaitMs: number;
  /** How long an analytics answer is reused (Share in channel, repeated questions). */
  readonly responseCacheTtlMs: number;
}

interface BaseConfig {
  readonly version: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  /** Empty: every workspace is served. */
  readonly allowedTeamIds: readonly string[];
  readonly lookup: LookupPolicy;
  /** Read now so later features can rely on them; nothing requires them yet. */
  readonly storage: { readonly databaseUrl?: Secret; readonly sqlitePath?: string };
}

export interface HttpConfig extends BaseConfig {
  readonly mode: 'http';
  readonly slack: {
    readonly signingSecret: Secret;
    readonly botToken: Secret;
    readonly apiUrl?: string;
  };
  readonly analytics: AnalyticsConfig;
}

export interface SocketConfig extends BaseConfig {
  readonly mode: 'socket';
  readonly slack: {
    readonly appToken: Secret;
    readonly botToken: Secret;
    readonly apiUrl?: string;
  };
  readonly analytics: AnalyticsConfig;
}

export interface ConsoleConfig extends BaseConfig {
  readonly mode: 'console';
  /** Undefined: the console starts the sandbox analytics service in-process. */
  readonly analytics: AnalyticsConfig | undefined;
}

export type Config = HttpConfig | SocketConfig | ConsoleConfig;

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Defaults, named for what they protect. */
export const configDefaults = {
  port: 3000,
  progressUpdateMs: 8_000,
  lookupTimeoutMs: 120_000,
  userZoneWaitMs: 1_000,
  responseCacheTtlMs: 60_000,
} as const;

/** response_url stays usable for 30 minutes; the final answer must arrive well before that. */
const maxLookupTimeoutMs = 25 * 60_000;
/** Slack waits 3 s for an ack; the users.info wait must leave room for everything else. */
const maxUserZoneWaitMs = 2_000;

type Env = Readonly<Record<string, string | undefined>>;

function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integerVar(
  env: Env,
  problems: string[],
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(
    `${name} must be a whole number from ${min} to ${max} (got "${raw}"); unset it to use ${fallback}.`,
  );
  return fallback;
}

function urlVar(env: Env, problems: string[], name: string, example: string): string | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(`${name} must be an http(s) URL such as ${example} (got "${raw}").`);
  return undefined;
}

function tokenVar(
  env: Env,
  problems: string[],
  name: string,
  prefix: string,
  where: string,
): Secret | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  if (!raw.startsWith(prefix)) {
    problems.push(`${name} must start with "${prefix}": copy it from ${where}.`);
  }
  return new Secret(raw);
}

const howToFindSlack = {
  SLACK_SIGNING_SECRET: 'Basic Information > App Credentials > Signing Secret',
  SLACK_BOT_TOKEN: 'OAuth & Permissions > Bot User OAuth Token (xoxb-...)',
  SLACK_APP_TOKEN:
    'Basic Information > App-Level Tokens, with the connections:write scope (xapp-...)',
} as const;

const analyticsVars = ['ANALYTICS_BASE_URL', 'ANALYTICS_CLIENT_ID', 'ANALYTICS_CLIENT_SECRET'];

/**
 * Reads every setting once at start. The mode follows from the Slack variables: none at all gives
 * the local console, `SLACK_APP_TOKEN` gives Socket Mode, otherwise HTTP; a partial set is an
 * error naming what is missing rather than a silent fallback to another mode. Every problem is
 * reported at once, each with the variable and how to fix it.
 *
 * @throws ConfigError listing every problem found.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  const signingSecretRaw = present(env, 'SLACK_SIGNING_SECRET');
  const botToken = tokenVar(
    env,
    problems,
    'SLACK_BOT_TOKEN',
    'xoxb-',
    howToFindSlack.SLACK_BOT_TOKEN,
  );
  const appToken = tokenVar(
    env,
    problems,
    'SLACK_APP_TOKEN',
    'xapp-',
    howToFindSlack.SLACK_APP_TOKEN,
  );
  const anySlack =
    signingSecretRaw !== undefined || botToken !== undefined || appToken !== undefined;
  const mode: RunMode = !anySlack ? 'console' : appToken !== undefined ? 'socket' : 'http';

  if (mode === 'socket' && botToken === undefined) {
    problems.push(
      `SLACK_BOT_TOKEN is missing: Socket Mode (SLACK_APP_TOKEN is set) also needs the bot token from ${howToFindSlack.SLACK_BOT_TOKEN}.`,
    );
  }
  if (mode === 'http') {
    const missing = (['SLACK_SIGNING_SECRET', 'SLACK_BOT_TOKEN'] as const).filter(
      (name) => present(env, name) === undefined,
    );
    for (const name of missing) {
      problems.push(
        `${name} is missing: HTTP mode needs SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (find it under ${howToFindSlack[name]}); for Socket Mode set SLACK_APP_TOKEN and SLACK_BOT_TOKEN; for the local console unset every SLACK_ variable.`,
      );
    }
  }

  const apiUrlRaw = urlVar(env, problems, 'SLACK_API_URL', 'https://slack.com/api/');
  const apiUrl =
    apiUrlRaw === undefined ? undefined : apiUrlRaw.endsWith('/') ? apiUrlRaw : `${apiUrlRaw}/`;

  const analyticsSet = analyticsVars.filter((name) => present(env, name) !== undefined);
  const baseUrl = urlVar(env, problems, 'ANALYTICS_BASE_URL', 'https://api.example.com');
  const clientId = present(env, 'ANALYTICS_CLIENT_ID');
  const clientSecretRaw = present(env, 'ANALYTICS_CLIENT_SECRET');
  if (analyticsSet.length > 0 || mode !== 'console') {
    for (const name of analyticsVars.filter((n) => !analyticsSet.includes(n))) {
      problems.push(
        mode === 'console'
          ? `${name} is missing: set ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID and ANALYTICS_CLIENT_SECRET together, or none of them to use the built-in sandbox.`
          : `${name} is missing: connecting to Slack needs the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).`,
      );
    }
  }
  const analytics: AnalyticsConfig | undefined =
    baseUrl !== undefined && clientId !== undefined && clientSecretRaw !== undefined
      ? { baseUrl, clientId, clientSecret: new Secret(clientSecretRaw) }
      : undefined;

  const logLevelRaw = present(env, 'LOG_LEVEL')?.toLowerCase();
  let logLevel: LogLevel = mode === 'console' ? 'warn' : 'info';
  if (logLevelRaw !== undefined) {
    const parsed = z.enum(logLevels).safeParse(logLevelRaw);
    if (parsed.success) logLevel = parsed.data;
    else problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')} (got "${logLevelRaw}").`);
  }

  const allowedTeamIds = (present(env, 'SLACK_ALLOWED_TEAM_IDS') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  for (const id of allowedTeamIds) {
    if (!/^[TE][A-Z0-9]{2,}$/.test(id)) {
      problems.push(
        `SLACK_ALLOWED_TEAM_IDS must be comma-separated workspace ids such as T0123ABCD (got "${id}").`,
      );
    }
  }

  const port = integerVar(env, problems, 'PORT', configDefaults.port, 0, 65_535);
  const progressUpdateMs = integerVar(
    env,
    problems,
    'PROGRESS_UPDATE_MS',
    configDefaults.progressUpdateMs,
    100,
    maxLookupTimeoutMs,
  );
  const timeoutMs = integerVar(
    env,
    problems,
    'LOOKUP_TIMEOUT_MS',
    configDefaults.lookupTimeoutMs,
    1_000,
    maxLookupTimeoutMs,
  );
  if (timeoutMs <= progressUpdateMs) {
    problems.push(
      `LOOKUP_TIMEOUT_MS (${timeoutMs}) must be longer than PROGRESS_UPDATE_MS (${progressUpdateMs}), or the "still running" update could never be sent.`,
    );
  }
  const userZoneWaitMs = integerVar(
    env,
    problems,
    'USER_ZONE_WAIT_MS',
    configDefaults.userZoneWaitMs,
    0,
    maxUserZoneWaitMs,
  );
  const responseCacheTtlMs = integerVar(
    env,
    problems,
    'RESPONSE_CACHE_TTL_MS',
    configDefaults.responseCacheTtlMs,
    0,
    24 * 3_600_000,
  );

  const databaseUrl = present(env, 'DATABASE_URL');
  const sqlitePath = present(env, 'DIGESTS_SQLITE_PATH');

  if (problems.length > 0) throw new ConfigError(problems);

  const base: BaseConfig = {
    version: pkg.version,
    port,
    logLevel,
    allowedTeamIds,
    lookup: { progressUpdateMs, timeoutMs, userZoneWaitMs, responseCacheTtlMs },
    storage: {
      ...(databaseUrl === undefined ? {} : { databaseUrl: new Secret(databaseUrl) }),
      ...(sqlitePath === undefined ? {} : { sqlitePath }),
    },
  };
  const slackApi = apiUrl === undefined ? {} : { apiUrl };

  // The checks above guarantee each mode's credentials; these guards only narrow the types.
  let config: Config;
  if (mode === 'console') {
    config = { ...base, mode, analytics };
  } else if (mode === 'socket' && appToken && botToken && analytics) {
    config = { ...base, mode, slack: { appToken, botToken, ...slackApi }, analytics };
  } else if (mode === 'http' && signingSecretRaw && botToken && analytics) {
    config = {
      ...base,
      mode: 'http',
      slack: { signingSecret: new Secret(signingSecretRaw), botToken, ...slackApi },
      analytics,
    };
  } else {
    throw new ConfigError(['Slack configuration is incomplete.']);
  }
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Secret)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
