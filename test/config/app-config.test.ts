import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { Secret } from '../../src/config/secret.ts';
import { ConfigError } from '../../src/errors.ts';

const analytics = {
  ANALYTICS_BASE_URL: 'https://api.example.com',
  ANALYTICS_CLIENT_ID: 'client-id',
  ANALYTICS_CLIENT_SECRET: 'analytics-secret-value',
};
const http = {
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SLACK_BOT_TOKEN: 'xoxb-bot-token-value',
  ...analytics,
};
const socket = {
  SLACK_APP_TOKEN: 'xapp-app-token-value',
  SLACK_BOT_TOKEN: 'xoxb-bot-token-value',
  ...analytics,
};

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('chooses the console with the sandbox when no Slack or analytics variable is set', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('console');
    expect(config.analytics).toBeUndefined();
    expect(config.logLevel).toBe('warn');
    expect(config.port).toBe(3000);
    expect(config.lookup).toEqual({
      progressUpdateMs: 8_000,
      timeoutMs: 120_000,
      userZoneWaitMs: 1_000,
      responseCacheTtlMs: 60_000,
      earliestDataDate: '2006-03-21',
    });
  });

  it('uses a real analytics service in the console when all three variables are set', () => {
    const config = loadConfig(analytics);
    expect(config.mode).toBe('console');
    expect(config.analytics?.baseUrl).toBe('https://api.example.com');
  });

  it('chooses HTTP mode with a signing secret and a bot token', () => {
    const config = loadConfig({ ...http, PORT: '8080', SLACK_API_URL: 'http://127.0.0.1:9/api' });
    expect(config.mode).toBe('http');
    if (config.mode !== 'http') return;
    expect(config.port).toBe(8080);
    expect(config.slack.signingSecret.reveal()).toBe('signing-secret-value');
    expect(config.slack.botToken?.reveal()).toBe('xoxb-bot-token-value');
    expect(config.slack.apiUrl).toBe('http://127.0.0.1:9/api/');
    expect(config.logLevel).toBe('info');
  });

  it('chooses Socket Mode when an app token is set', () => {
    const config = loadConfig(socket);
    expect(config.mode).toBe('socket');
    if (config.mode !== 'socket') return;
    expect(config.slack.appToken.reveal()).toBe('xapp-app-token-value');
  });

  it.each([
    [{ SLACK_API_URL: 'https://slack.test/api/' }, ['SLACK_API_URL']],
    [{ SLACK_ALLOWED_TEAM_IDS: 'T0123ABCD' }, ['SLACK_ALLOWED_TEAM_IDS']],
    [{}, []],
  ])('keeps the console with %j set alone, naming what it ignores', (env, ignored) => {
    const config = loadConfig(env);
    expect(config.mode).toBe('console');
    if (config.mode === 'console') expect(config.ignoredSlackSettings).toEqual(ignored);
  });

  it('treats blank variables as unset', () => {
    expect(loadConfig({ SLACK_BOT_TOKEN: '  ', SLACK_APP_TOKEN: '' }).mode).toBe('console');
  });

  it('parses the optional settings', () => {
    const config = loadConfig({
      ...http,
      SLACK_ALLOWED_TEAM_IDS: 'T0123ABCD, E0456EFGH',
      LOG_LEVEL: 'DEBUG',
      PROGRESS_UPDATE_MS: '500',
      LOOKUP_TIMEOUT_MS: '30000',
      USER_ZONE_WAIT_MS: '0',
      RESPONSE_CACHE_TTL_MS: '0',
      LOOKUP_EARLIEST_DATE: '2010-01-01',
      DATABASE_URL: 'postgres://u:p@h/db',
      DIGESTS_SQLITE_PATH: './data/x.sqlite',
    });
    expect(config.allowedTeamIds).toEqual(['T0123ABCD', 'E0456EFGH']);
    expect(config.logLevel).toBe('debug');
    expect(config.lookup).toEqual({
      progressUpdateMs: 500,
      timeoutMs: 30_000,
      userZoneWaitMs: 0,
      responseCacheTtlMs: 0,
      earliestDataDate: '2010-01-01',
    });
    expect(config.storage.databaseUrl?.reveal()).toBe('postgres://u:p@h/db');
    expect(config.storage.sqlitePath).toBe('./data/x.sqlite');
  });

  it('sends Bearer tokens unless ANALYTICS_AUTH_SCHEME names another scheme', () => {
    expect(loadConfig(http).analytics?.authScheme).toBe('Bearer');
    expect(loadConfig({ ...http, ANALYTICS_AUTH_SCHEME: 'Token' }).analytics?.authScheme).toBe(
      'Token',
    );
  });

  it('lists what HTTP mode is missing when only a bot token is set', () => {
    expect(problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1', ...analytics })).toEqual([
      'SLACK_SIGNING_SECRET is missing: HTTP mode needs SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (find it under Basic Information > App Credentials > Signing Secret); for Socket Mode set SLACK_APP_TOKEN and SLACK_BOT_TOKEN; for the local console unset every SLACK_ variable.',
    ]);
  });

  it('lists the bot token and every analytics variable when only a signing secret is set', () => {
    expect(problemsOf({ SLACK_SIGNING_SECRET: 's' })).toEqual([
      'SLACK_BOT_TOKEN is missing: HTTP mode needs SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (find it under OAuth & Permissions > Bot User OAuth Token (xoxb-...)); for Socket Mode set SLACK_APP_TOKEN and SLACK_BOT_TOKEN; for the local console unset every SLACK_ variable.',
      'ANALYTICS_BASE_URL is missing: connecting to Slack needs the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
      'ANALYTICS_CLIENT_ID is missing: connecting to Slack needs the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
      'ANALYTICS_CLIENT_SECRET is missing: connecting to Slack needs the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
    ]);
  });

  it('asks for the bot token in Socket Mode', () => {
    expect(problemsOf({ SLACK_APP_TOKEN: 'xapp-1', ...analytics })).toEqual([
      'SLACK_BOT_TOKEN is missing: Socket Mode (SLACK_APP_TOKEN is set) also needs the bot token from OAuth & Permissions > Bot User OAuth Token (xoxb-...).',
    ]);
  });

  it('refuses a partial analytics configuration in the console', () => {
    expect(problemsOf({ ANALYTICS_BASE_URL: 'https://api.example.com' })).toEqual([
      'ANALYTICS_CLIENT_ID is missing: set ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID and ANALYTICS_CLIENT_SECRET together, or none of them to use the built-in sandbox.',
      'ANALYTICS_CLIENT_SECRET is missing: set ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID and ANALYTICS_CLIENT_SECRET together, or none of them to use the built-in sandbox.',
    ]);
  });

  it.each([
    [
      { ...http, SLACK_BOT_TOKEN: 'xoxp-user-token' },
      'SLACK_BOT_TOKEN must start with "xoxb-": copy it from OAuth & Permissions > Bot User OAuth Token (xoxb-...).',
    ],
    [
      { ...socket, SLACK_APP_TOKEN: 'xoxb-wrong' },
      'SLACK_APP_TOKEN must start with "xapp-": copy it from Basic Information > App-Level Tokens, with the connections:write scope (xapp-...).',
    ],
    [
      { ...http, PORT: 'eighty' },
      'PORT must be a whole number from 0 to 65535 (got "eighty"); unset it to use 3000.',
    ],
    [
      { ...http, PORT: '70000' },
      'PORT must be a whole number from 0 to 65535 (got "70000"); unset it to use 3000.',
    ],
    [
      { ...http, LOOKUP_EARLIEST_DATE: '2006-02-30' },
      'LOOKUP_EARLIEST_DATE must be a day from 1970 on written YYYY-MM-DD, such as 2006-03-21 (got "2006-02-30"); unset it to use 2006-03-21.',
    ],
    [
      { ...http, ANALYTICS_BASE_URL: 'api.example.com' },
      'ANALYTICS_BASE_URL must be an http(s) URL such as https://api.example.com (got "api.example.com").',
    ],
    [
      { ...http, SLACK_API_URL: 'ftp://slack' },
      'SLACK_API_URL must be an http(s) URL such as https://slack.com/api/ (got "ftp://slack").',
    ],
    [
      { ...http, SLACK_API_URL: 'ftp://proxy:secret-password@slack' },
      'SLACK_API_URL must be an http(s) URL such as https://slack.com/api/ (got "ftp://slack").',
    ],
    [
      { ...http, SLACK_API_URL: 'http://proxy-user:secret-password@slack.test/api/' },
      'SLACK_API_URL must not contain a user name or password (the part before "@"): Slack takes only the bot token. Remove them, or unset SLACK_API_URL to use https://slack.com/api/.',
    ],
    [
      { ...http, ANALYTICS_BASE_URL: 'proxy:secret-password@api.example.com' },
      'ANALYTICS_BASE_URL must be an http(s) URL such as https://api.example.com (got "api.example.com").',
    ],
    [
      { ...http, ANALYTICS_AUTH_SCHEME: 'Bearer token' },
      'ANALYTICS_AUTH_SCHEME must be one word such as Bearer or Token (got "Bearer token"); unset it for Bearer.',
    ],
    [
      { ...http, LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
    ],
    [
      { ...http, SLACK_ALLOWED_TEAM_IDS: 'T0123ABCD,acme' },
      'SLACK_ALLOWED_TEAM_IDS must be comma-separated workspace ids such as T0123ABCD (got "acme").',
    ],
    [
      { ...http, LOOKUP_TIMEOUT_MS: '3600000' },
      'LOOKUP_TIMEOUT_MS must be a whole number from 1000 to 1500000 (got "3600000"); unset it to use 120000.',
    ],
    [
      { ...http, USER_ZONE_WAIT_MS: '2500' },
      'USER_ZONE_WAIT_MS must be a whole number from 0 to 2000 (got "2500"); unset it to use 1000.',
    ],
    [
      { ...http, PROGRESS_UPDATE_MS: '9000', LOOKUP_TIMEOUT_MS: '9000' },
      'LOOKUP_TIMEOUT_MS (9000) must be longer than PROGRESS_UPDATE_MS (9000), or the "still running" update could never be sent.',
    ],
  ])('explains an invalid value (%#)', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  it('reports every problem at once in the error message', () => {
    try {
      loadConfig({ SLACK_APP_TOKEN: 'xapp-1', PORT: 'x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(5);
      expect((error as Error).message).toMatch(
        /^Invalid configuration:\n {2}- SLACK_BOT_TOKEN is missing/,
      );
    }
  });

  it('returns a frozen configuration', () => {
    const config = loadConfig(http);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.lookup)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('never prints a secret through JSON, String or inspect', () => {
    const config = loadConfig({ ...http, DATABASE_URL: 'postgres://u:db-password@h/db' });
    const printed = [
      JSON.stringify(config),
      inspect(config, { depth: 10 }),
      `${String(config.analytics?.clientSecret)}`,
    ];
    for (const text of printed) {
      for (const secret of [
        'signing-secret-value',
        'xoxb-bot-token-value',
        'analytics-secret-value',
        'db-password',
      ]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(JSON.stringify(config)).toContain('"botToken":"[redacted]"');
  });
});

describe('Secret', () => {
  it('reveals its value only through reveal()', () => {
    const secret = new Secret('s3cret');
    expect(secret.reveal()).toBe('s3cret');
    expect(`${secret}`).toBe('[redacted]');
    expect(inspect({ secret })).toBe('{ secret: [redacted] }');
  });
});
