import { inspect } from 'node:util';
import { z } from 'zod';
import pkg from '../package.json' with { type: 'json' };
import type { PostgresTls } from './digests/postgres-store.ts';
import { ConfigError } from './errors.ts';
import { defined } from './model/defined.ts';

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
  /** The word before the access token on data requests; `Bearer` unless the service says else. */
  readonly authScheme: string;
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

/** Where digests are stored: PostgreSQL when a URL is set, else the SQLite file. */
export interface StorageConfig {
  readonly databaseUrl?: Secret;
  /** Overrides what DATABASE_URL implies about TLS; see `postgresConnectionConfig`. */
  readonly databaseTls?: PostgresTls;
  /** Default `./data/digests.sqlite`. */
  readonly sqlitePath?: string;
}

/** How this instance runs scheduled digests. */
export interface DigestPolicy {
  /** False when a platform scheduler runs `digests run-due` instead of the in-app timer. */
  readonly timerEnabled: boolean;
  /** Between two ticks of the in-app timer. */
  readonly tickMs: number;
  /** A missed slot younger than this is still posted once; older ones are skipped. */
  readonly graceMs: number;
  /** Failed runs in a row before a digest is paused and its creator told. */
  readonly maxConsecutiveFailures: number;
}

interface BaseConfig {
  readonly version: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  /** Empty: every workspace is served. */
  readonly allowedTeamIds: readonly string[];
  readonly lookup: LookupPolicy;
  readonly storage: StorageConfig;
  readonly digests: DigestPolicy;
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
  /**
   * Slack settings that are set but mean nothing without Slack credentials (SLACK_API_URL,
   * SLACK_ALLOWED_TEAM_IDS): the console says it ignores them.
   */
  readonly ignoredSlackSettings: readonly string[];
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
  digestTickMs: 30_000,
  digestGraceMs: 3_600_000,
  digestMaxFailures: 3,
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

/** Slack settings that do not select a mode, so setting them alone still gives the console. */
const consoleIgnoredSlackSettings = ['SLACK_API_URL', 'SLACK_ALLOWED_TEAM_IDS'] as const;

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

  const apiUrl = readSlackApiUrl(env, problems);

  const analytics = readAnalytics(
    env,
    problems,
    mode === 'console'
      ? {
          optional: true,
          whyNeeded:
            'set ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID and ANALYTICS_CLIENT_SECRET together, or none of them to use the built-in sandbox.',
        }
      : {
          optional: false,
          whyNeeded:
            'connecting to Slack needs the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
        },
  );

  const logLevel = readLogLevel(env, problems, mode === 'console' ? 'warn' : 'info');

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

  const storage = readStorage(env, problems);
  const digests = readDigestPolicy(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  const base: BaseConfig = {
    version: pkg.version,
    port,
    logLevel,
    allowedTeamIds,
    lookup: { progressUpdateMs, timeoutMs, userZoneWaitMs, responseCacheTtlMs },
    storage,
    digests,
  };
  const slackApi = apiUrl === undefined ? {} : { apiUrl };

  // The checks above guarantee each mode's credentials; these guards only narrow the types.
  let config: Config;
  if (mode === 'console') {
    const ignoredSlackSettings = consoleIgnoredSlackSettings.filter(
      (name) => present(env, name) !== undefined,
    );
    config = { ...base, mode, analytics, ignoredSlackSettings };
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

/** Every DATABASE_TLS value, which the `--tls` flag of the CLI accepts too. */
export const postgresTlsModes = [
  'off',
  'no-verify',
  'verify',
] as const satisfies readonly PostgresTls[];
const booleanWords: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
  on: true,
  off: false,
};

/** SLACK_API_URL with the trailing slash @slack/web-api expects. */
function readSlackApiUrl(env: Env, problems: string[]): string | undefined {
  const raw = urlVar(env, problems, 'SLACK_API_URL', 'https://slack.com/api/');
  return raw === undefined ? undefined : raw.endsWith('/') ? raw : `${raw}/`;
}

function readLogLevel(env: Env, problems: string[], fallback: LogLevel): LogLevel {
  const raw = present(env, 'LOG_LEVEL')?.toLowerCase();
  if (raw === undefined) return fallback;
  const parsed = z.enum(logLevels).safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')} (got "${raw}").`);
  return fallback;
}

/** An HTTP auth scheme is one token (RFC 9110 §11.1): `Bearer`, `Token`, `OAuth`. */
function readAuthScheme(env: Env, problems: string[]): string {
  const raw = present(env, 'ANALYTICS_AUTH_SCHEME');
  if (raw === undefined) return 'Bearer';
  if (/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(raw)) return raw;
  problems.push(
    `ANALYTICS_AUTH_SCHEME must be one word such as Bearer or Token (got "${raw}"); unset it for Bearer.`,
  );
  return 'Bearer';
}

/**
 * The analytics service variables, read the same way for the app and the scheduler job. When
 * `optional`, none set means no service (the console's sandbox) and only a partial set is a problem;
 * otherwise each missing variable is one problem ending in `whyNeeded`.
 */
function readAnalytics(
  env: Env,
  problems: string[],
  need: { readonly optional: boolean; readonly whyNeeded: string },
): AnalyticsConfig | undefined {
  const set = analyticsVars.filter((name) => present(env, name) !== undefined);
  const baseUrl = urlVar(env, problems, 'ANALYTICS_BASE_URL', 'https://api.example.com');
  const clientId = present(env, 'ANALYTICS_CLIENT_ID');
  const clientSecret = present(env, 'ANALYTICS_CLIENT_SECRET');
  if (set.length > 0 || !need.optional) {
    for (const name of analyticsVars.filter((n) => !set.includes(n))) {
      problems.push(`${name} is missing: ${need.whyNeeded}`);
    }
  }
  const complete = baseUrl !== undefined && clientId !== undefined && clientSecret !== undefined;
  // Only a console without a service skips the scheme: it has nothing to send it to.
  const authScheme = complete || !need.optional ? readAuthScheme(env, problems) : 'Bearer';
  return complete
    ? { baseUrl, clientId, clientSecret: new Secret(clientSecret), authScheme }
    : undefined;
}

function readStorage(env: Env, problems: string[]): StorageConfig {
  const databaseUrl = present(env, 'DATABASE_URL');
  if (databaseUrl !== undefined) {
    // The URL carries a password: problems name its scheme at most, never the value.
    const parsed = z.url({ protocol: /^postgres(ql)?$/ }).safeParse(databaseUrl);
    if (!parsed.success) {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(databaseUrl)?.[1];
      problems.push(
        `DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/db${scheme ? ` (got a ${scheme}: URL)` : ''}; unset it to store digests in SQLite.`,
      );
    }
  }
  const tlsRaw = present(env, 'DATABASE_TLS')?.toLowerCase();
  let databaseTls: PostgresTls | undefined;
  if (tlsRaw !== undefined) {
    const parsed = z.enum(postgresTlsModes).safeParse(tlsRaw);
    if (parsed.success) databaseTls = parsed.data;
    else
      problems.push(
        `DATABASE_TLS must be one of ${postgresTlsModes.join(', ')} (got "${tlsRaw}"); unset it to decide from DATABASE_URL (Heroku Postgres needs no-verify, the default for remote hosts).`,
      );
  }
  const sqlitePath = present(env, 'DIGESTS_SQLITE_PATH');
  return {
    ...(databaseUrl === undefined ? {} : { databaseUrl: new Secret(databaseUrl) }),
    ...defined({ databaseTls }),
    ...defined({ sqlitePath }),
  };
}

/**
 * Only where the digest store is (`npm run migrate`): DATABASE_URL, DATABASE_TLS and
 * DIGESTS_SQLITE_PATH, checked as the app checks them.
 *
 * @throws ConfigError listing every problem found.
 */
export function loadStorageConfig(env: Env = process.env): StorageConfig {
  const problems: string[] = [];
  const storage = readStorage(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(storage);
}

/** `forJob`: one tick of `digests run-due`, which no timer setting constrains. */
function readDigestPolicy(env: Env, problems: string[], forJob = false): DigestPolicy {
  const enabledRaw = present(env, 'DIGESTS_ENABLED')?.toLowerCase();
  let timerEnabled = true;
  if (enabledRaw !== undefined) {
    const value = booleanWords[enabledRaw];
    if (value === undefined) {
      problems.push(
        `DIGESTS_ENABLED must be true or false (got "${enabledRaw}"); set it to false when a platform scheduler runs \`npm run digests:run-due\` instead of the in-app timer.`,
      );
    } else {
      timerEnabled = value;
    }
  }
  const tickMs = integerVar(
    env,
    problems,
    'DIGEST_TICK_MS',
    configDefaults.digestTickMs,
    1_000,
    3_600_000,
  );
  const graceMs = integerVar(
    env,
    problems,
    'DIGEST_GRACE_MS',
    configDefaults.digestGraceMs,
    60_000,
    7 * 24 * 3_600_000,
  );
  const maxConsecutiveFailures = integerVar(
    env,
    problems,
    'DIGEST_MAX_FAILURES',
    configDefaults.digestMaxFailures,
    1,
    100,
  );
  if (!forJob && timerEnabled && tickMs >= graceMs) {
    problems.push(
      `DIGEST_TICK_MS (${tickMs}) must be shorter than DIGEST_GRACE_MS (${graceMs}): a slot falling between two ticks would be older than the grace window and skipped.`,
    );
  }
  return { timerEnabled, tickMs, graceMs, maxConsecutiveFailures };
}

/** What `digests run-due` needs: no signing secret or app token, since it never receives requests. */
export interface DigestJobConfig {
  readonly version: string;
  readonly logLevel: LogLevel;
  readonly slack: { readonly botToken: Secret; readonly apiUrl?: string };
  readonly analytics: AnalyticsConfig;
  /** Deadline of one analytics call, retries included (LOOKUP_TIMEOUT_MS). */
  readonly analyticsTimeoutMs: number;
  readonly storage: StorageConfig;
  readonly digests: Pick<DigestPolicy, 'graceMs' | 'maxConsecutiveFailures'>;
}

/**
 * Reads the settings of a scheduler job (`npm run digests:run-due`): the bot token to post with,
 * the analytics service, storage and the digest policy. Unlike {@link loadConfig} it chooses no
 * mode, so a cron job needs neither the signing secret nor an app token.
 *
 * @throws ConfigError listing every problem found, each missing variable by name.
 */
export function loadDigestJobConfig(env: Env = process.env): DigestJobConfig {
  const problems: string[] = [];
  const botToken = tokenVar(
    env,
    problems,
    'SLACK_BOT_TOKEN',
    'xoxb-',
    howToFindSlack.SLACK_BOT_TOKEN,
  );
  if (botToken === undefined) {
    problems.push(
      `SLACK_BOT_TOKEN is missing: digests are posted with the bot token (${howToFindSlack.SLACK_BOT_TOKEN}).`,
    );
  }
  const apiUrl = readSlackApiUrl(env, problems);
  const analytics = readAnalytics(env, problems, {
    optional: false,
    whyNeeded:
      'digests ask the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
  });
  const logLevel = readLogLevel(env, problems, 'info');
  const analyticsTimeoutMs = integerVar(
    env,
    problems,
    'LOOKUP_TIMEOUT_MS',
    configDefaults.lookupTimeoutMs,
    1_000,
    maxLookupTimeoutMs,
  );
  const storage = readStorage(env, problems);
  const { graceMs, maxConsecutiveFailures } = readDigestPolicy(env, problems, true);
  if (problems.length > 0 || !botToken || !analytics) {
    throw new ConfigError(problems);
  }
  return deepFreeze({
    version: pkg.version,
    logLevel,
    slack: { botToken, ...defined({ apiUrl }) },
    analytics,
    analyticsTimeoutMs,
    storage,
    digests: { graceMs, maxConsecutiveFailures },
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Secret)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
