import pkg from '../../package.json' with { type: 'json' };
import { ConfigError } from '../errors.ts';
import { defined } from '../model/defined.ts';
import {
  deepFreeze,
  type Env,
  howToFindSlack,
  integerVar,
  type LogLevel,
  present,
  readBotToken,
  readLogLevel,
  readSlackApiUrl,
  tokenVar,
} from './env.ts';
import { type McpConfig, readMcp } from './mcp.ts';
import { type OAuthConfig, oauthRequested, oauthVars, readOAuth } from './oauth.ts';
import { Secret } from './secret.ts';
import {
  type AnalyticsConfig,
  configDefaults,
  type DigestPolicy,
  type LookupPolicy,
  maxLookupTimeoutMs,
  maxUserZoneWaitMs,
  readAnalytics,
  readDigestPolicy,
  readEarliestDataDate,
  readLookupTimeoutMs,
  readStorage,
  type StorageConfig,
} from './sections.ts';

/** How the app reaches Slack, decided by which Slack variables are set. */
export type RunMode = 'http' | 'socket' | 'console';

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
    /** The one workspace's token; absent when the app is installed through OAuth (`oauth`). */
    readonly botToken?: Secret;
    readonly apiUrl?: string;
  };
  readonly analytics: AnalyticsConfig;
  /** Who may call the MCP server at `/mcp`; neither way set: it answers 404. */
  readonly mcp: McpConfig;
  /** "Add to Slack": the app serves every workspace that installed it, each with its own token. */
  readonly oauth?: OAuthConfig;
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

/** Slack settings that do not select a mode, so setting them alone still gives the console. */
const consoleIgnoredSlackSettings = ['SLACK_API_URL', 'SLACK_ALLOWED_TEAM_IDS'] as const;

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
  const botToken = readBotToken(env, problems);
  const appToken = tokenVar(
    env,
    problems,
    'SLACK_APP_TOKEN',
    'xapp-',
    howToFindSlack.SLACK_APP_TOKEN,
  );
  const wantsOAuth = oauthRequested(env);
  const anySlack =
    signingSecretRaw !== undefined ||
    botToken !== undefined ||
    appToken !== undefined ||
    wantsOAuth;
  const mode: RunMode = !anySlack ? 'console' : appToken !== undefined ? 'socket' : 'http';

  if (mode === 'socket' && botToken === undefined) {
    problems.push(
      `SLACK_BOT_TOKEN is missing: Socket Mode (SLACK_APP_TOKEN is set) also needs the bot token from ${howToFindSlack.SLACK_BOT_TOKEN}.`,
    );
  }
  if (mode === 'http' && wantsOAuth && signingSecretRaw === undefined) {
    problems.push(
      `SLACK_SIGNING_SECRET is missing: HTTP mode needs it to check every request comes from Slack, with ${oauthVars.join(', ')} too (find it under ${howToFindSlack.SLACK_SIGNING_SECRET}).`,
    );
  }
  if (mode === 'http' && !wantsOAuth) {
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
  const timeoutMs = readLookupTimeoutMs(env, problems);
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

  const earliestDataDate = readEarliestDataDate(env, problems);
  const storage = readStorage(env, problems);
  const digests = readDigestPolicy(env, problems);
  const mcp = readMcp(env, problems);
  const oauth = readOAuth(env, problems, {
    socketMode: mode === 'socket',
    botTokenSet: botToken !== undefined,
  });

  if (problems.length > 0) throw new ConfigError(problems);

  const base: BaseConfig = {
    version: pkg.version,
    port,
    logLevel,
    allowedTeamIds,
    lookup: {
      progressUpdateMs,
      timeoutMs,
      userZoneWaitMs,
      responseCacheTtlMs,
      earliestDataDate,
    },
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
  } else if (mode === 'http' && signingSecretRaw && (botToken || oauth) && analytics) {
    config = {
      ...base,
      mode: 'http',
      slack: { signingSecret: new Secret(signingSecretRaw), ...defined({ botToken }), ...slackApi },
      analytics,
      mcp,
      ...defined({ oauth }),
    };
  } else {
    throw new ConfigError(['Slack configuration is incomplete.']);
  }
  return deepFreeze(config);
}
