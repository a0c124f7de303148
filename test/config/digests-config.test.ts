import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { loadDigestJobConfig } from '../../src/config/job-config.ts';
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

function problemsOf(load: () => unknown): readonly string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig: digests', () => {
  it('runs the in-app timer every 30 s with an hour of grace and 3 failures before a pause', () => {
    const config = loadConfig(http);
    expect(config.digests).toEqual({
      timerEnabled: true,
      tickMs: 30_000,
      graceMs: 3_600_000,
      maxConsecutiveFailures: 3,
    });
    expect(config.storage).toEqual({});
  });

  it('reads every digest variable', () => {
    const config = loadConfig({
      ...http,
      DIGESTS_ENABLED: 'FALSE',
      DIGEST_TICK_MS: '60000',
      DIGEST_GRACE_MS: '7200000',
      DIGEST_MAX_FAILURES: '5',
      DATABASE_URL: 'postgresql://u:p@db.example.com:5432/digests',
      DATABASE_TLS: 'verify',
      DIGESTS_SQLITE_PATH: ':memory:',
    });
    expect(config.digests).toEqual({
      timerEnabled: false,
      tickMs: 60_000,
      graceMs: 7_200_000,
      maxConsecutiveFailures: 5,
    });
    expect(config.storage.databaseUrl?.reveal()).toBe(
      'postgresql://u:p@db.example.com:5432/digests',
    );
    expect(config.storage.databaseTls).toBe('verify');
    expect(config.storage.sqlitePath).toBe(':memory:');
  });

  it('reads the PostgreSQL timeouts only when they are set, and refuses them below 100 ms', () => {
    const config = loadConfig({
      ...http,
      DATABASE_CONNECT_TIMEOUT_MS: '2500',
      DATABASE_STATEMENT_TIMEOUT_MS: '8000',
    });
    expect(config.storage).toEqual({
      databaseConnectTimeoutMs: 2_500,
      databaseStatementTimeoutMs: 8_000,
    });
    expect(
      problemsOf(() =>
        loadConfig({
          ...http,
          DATABASE_CONNECT_TIMEOUT_MS: '50',
          DATABASE_STATEMENT_TIMEOUT_MS: 'soon',
        }),
      ),
    ).toEqual([
      'DATABASE_CONNECT_TIMEOUT_MS must be a whole number from 100 to 60000 (got "50"); unset it to use 5000.',
      'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 100 to 600000 (got "soon"); unset it to use 5000.',
    ]);
  });

  it.each([
    ['1', true],
    ['yes', true],
    ['on', true],
    ['0', false],
    ['no', false],
    ['off', false],
  ])('reads DIGESTS_ENABLED=%s as %s', (value, expected) => {
    expect(loadConfig({ ...http, DIGESTS_ENABLED: value }).digests.timerEnabled).toBe(expected);
  });

  it.each([
    [
      { DIGESTS_ENABLED: 'sometimes' },
      'DIGESTS_ENABLED must be true or false (got "sometimes"); set it to false when a platform scheduler runs `npm run digests:run-due` instead of the in-app timer.',
    ],
    [
      { DIGEST_TICK_MS: '500' },
      'DIGEST_TICK_MS must be a whole number from 1000 to 3600000 (got "500"); unset it to use 30000.',
    ],
    [
      { DIGEST_GRACE_MS: 'an hour' },
      'DIGEST_GRACE_MS must be a whole number from 60000 to 604800000 (got "an hour"); unset it to use 3600000.',
    ],
    [
      { DIGEST_MAX_FAILURES: '0' },
      'DIGEST_MAX_FAILURES must be a whole number from 1 to 100 (got "0"); unset it to use 3.',
    ],
    [
      { DIGEST_TICK_MS: '3600000', DIGEST_GRACE_MS: '600000' },
      'DIGEST_TICK_MS (3600000) must be shorter than DIGEST_GRACE_MS (600000): a slot falling between two ticks would be older than the grace window and skipped.',
    ],
    [
      { DATABASE_TLS: 'strict' },
      'DATABASE_TLS must be one of off, no-verify, verify (got "strict"); unset it to decide from DATABASE_URL (Heroku Postgres needs no-verify, the default for remote hosts).',
    ],
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/digests' },
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/db (got a mysql: URL); unset it to store digests in SQLite.',
    ],
  ])('explains a bad value: %j', (env, problem) => {
    expect(problemsOf(() => loadConfig({ ...http, ...env }))).toEqual([problem]);
  });

  it('never repeats a database password in a problem', () => {
    const problems = problemsOf(() =>
      loadConfig({ ...http, DATABASE_URL: 'not a url with s3cret-password' }),
    );
    expect(problems).toHaveLength(1);
    expect(problems.join(' ')).not.toContain('s3cret');
  });

  it('accepts a slow tick when the timer is off (a platform scheduler runs digests)', () => {
    const config = loadConfig({
      ...http,
      DIGESTS_ENABLED: 'false',
      DIGEST_TICK_MS: '3600000',
      DIGEST_GRACE_MS: '600000',
    });
    expect(config.digests.tickMs).toBe(3_600_000);
  });
});

describe('loadDigestJobConfig', () => {
  it('needs only the bot token and the analytics service, not the signing secret', () => {
    const config = loadDigestJobConfig({
      SLACK_BOT_TOKEN: 'xoxb-job-token',
      SLACK_API_URL: 'http://127.0.0.1:9/api',
      ...analytics,
      DIGEST_GRACE_MS: '120000',
    });
    expect(config.slack.botToken.reveal()).toBe('xoxb-job-token');
    expect(config.slack.apiUrl).toBe('http://127.0.0.1:9/api/');
    expect(config.analytics.baseUrl).toBe('https://api.example.com');
    expect(config.digests).toEqual({ graceMs: 120_000, maxConsecutiveFailures: 3 });
    expect(config.analyticsTimeoutMs).toBe(120_000);
    expect(config.logLevel).toBe('info');
  });

  it('names every missing variable', () => {
    expect(problemsOf(() => loadDigestJobConfig({ ANALYTICS_CLIENT_ID: 'id' }))).toEqual([
      'SLACK_BOT_TOKEN is missing: digests are posted with the bot token (OAuth & Permissions > Bot User OAuth Token (xoxb-...)).',
      'ANALYTICS_BASE_URL is missing: digests ask the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
      'ANALYTICS_CLIENT_SECRET is missing: digests ask the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
    ]);
  });

  it('refuses a token of the wrong kind', () => {
    expect(
      problemsOf(() => loadDigestJobConfig({ SLACK_BOT_TOKEN: 'xapp-1', ...analytics })),
    ).toEqual([
      'SLACK_BOT_TOKEN must start with "xoxb-": copy it from OAuth & Permissions > Bot User OAuth Token (xoxb-...).',
    ]);
  });
});
