import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { ConfigError } from '../../src/errors.ts';

const analytics = {
  ANALYTICS_BASE_URL: 'https://api.example.com',
  ANALYTICS_CLIENT_ID: 'client-id',
  ANALYTICS_CLIENT_SECRET: 'analytics-secret-value',
};
const key = 'ab'.repeat(32);
const distributed = {
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SLACK_CLIENT_ID: '1234.5678',
  SLACK_CLIENT_SECRET: 'client-secret-value',
  SLACK_STATE_SECRET: 'state-secret-value-0123456789abcdef',
  PUBLIC_URL: 'https://influencers.example.com/',
  APP_ENCRYPTION_KEY: key,
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

describe('loadConfig with "Add to Slack"', () => {
  it('serves many workspaces in HTTP mode with the OAuth variables and no bot token', () => {
    const config = loadConfig(distributed);
    expect(config.mode).toBe('http');
    if (config.mode !== 'http') return;
    expect(config.slack.botToken).toBeUndefined();
    expect(config.oauth).toMatchObject({
      clientId: '1234.5678',
      publicUrl: 'https://influencers.example.com',
      redirectUri: 'https://influencers.example.com/slack/oauth_redirect',
      privacyUrl: 'https://influencers.example.com/privacy',
    });
    expect(config.oauth?.clientSecret.reveal()).toBe('client-secret-value');
    expect(inspect(config)).not.toContain('client-secret-value');
    expect(inspect(config)).not.toContain('state-secret-value');
    expect(inspect(config)).not.toContain(key);
  });

  it('takes the redirect URI and the privacy URL as set', () => {
    const config = loadConfig({
      ...distributed,
      SLACK_REDIRECT_URI: 'https://auth.example.com/slack/oauth_redirect',
      PRIVACY_URL: 'https://example.com/legal/privacy',
    });
    if (config.mode !== 'http') throw new Error('expected HTTP mode');
    expect(config.oauth?.redirectUri).toBe('https://auth.example.com/slack/oauth_redirect');
    expect(config.oauth?.privacyUrl).toBe('https://example.com/legal/privacy');
  });

  it('names every missing variable, and that APP_ENCRYPTION_KEY is then required', () => {
    const problems = problemsOf({
      SLACK_SIGNING_SECRET: 'signing-secret-value',
      SLACK_CLIENT_ID: '1234.5678',
      ...analytics,
    });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^SLACK_CLIENT_SECRET is missing: distributing the app/);
    expect(problems[1]).toMatch(/^SLACK_STATE_SECRET is missing: .*openssl rand -hex 32/);
    expect(problems[2]).toMatch(/^PUBLIC_URL is missing: /);
    expect(problems[3]).toMatch(
      /^APP_ENCRYPTION_KEY is missing: .* every workspace's tokens are sealed at rest/,
    );
  });

  it('needs the signing secret with OAuth too', () => {
    const { SLACK_SIGNING_SECRET: _, ...withoutSecret } = distributed;
    expect(problemsOf(withoutSecret)).toEqual([
      expect.stringMatching(/^SLACK_SIGNING_SECRET is missing: HTTP mode needs it/),
    ]);
  });

  it('refuses Socket Mode with the OAuth variables, in words', () => {
    const problems = problemsOf({
      ...distributed,
      SLACK_APP_TOKEN: 'xapp-app-token-value',
      SLACK_BOT_TOKEN: 'xoxb-bot-token-value',
    });
    expect(problems).toEqual([
      expect.stringContaining(
        'Socket Mode serves one workspace (Slack does not allow Socket Mode for apps distributed to many workspaces)',
      ),
    ]);
  });

  it('refuses a bot token beside the OAuth variables', () => {
    expect(problemsOf({ ...distributed, SLACK_BOT_TOKEN: 'xoxb-bot-token-value' })).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN is set with SLACK_CLIENT_ID/),
    ]);
  });

  it('refuses a short state secret without quoting it', () => {
    const problems = problemsOf({ ...distributed, SLACK_STATE_SECRET: 'short-secret' });
    expect(problems).toEqual([expect.stringMatching(/^SLACK_STATE_SECRET must be at least 32/)]);
    expect(problems.join()).not.toContain('short-secret');
  });
});
