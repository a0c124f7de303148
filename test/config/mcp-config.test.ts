import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config.ts';
import { ConfigError } from '../../src/errors.ts';

const http = {
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SLACK_BOT_TOKEN: 'xoxb-bot-token-value',
  ANALYTICS_BASE_URL: 'https://api.example.com',
  ANALYTICS_CLIENT_ID: 'client-id',
  ANALYTICS_CLIENT_SECRET: 'analytics-secret-value',
};
const token = 'mcp-bearer-token-value-0123456789abcdef';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig: the MCP server', () => {
  it('offers neither way in by default', () => {
    const config = loadConfig(http);
    if (config.mode !== 'http') throw new Error('expected HTTP mode');
    expect(config.mcp).toEqual({ slackIdentityAuth: false });
  });

  it('reads the bearer token as a secret and Slack identity auth as a boolean', () => {
    const config = loadConfig({ ...http, MCP_BEARER_TOKEN: token, MCP_SLACK_IDENTITY_AUTH: 'on' });
    if (config.mode !== 'http') throw new Error('expected HTTP mode');
    expect(config.mcp.slackIdentityAuth).toBe(true);
    expect(config.mcp.bearerToken?.reveal()).toBe(token);
    expect(JSON.stringify(config)).not.toContain(token);
    expect(inspect(config, { depth: 10 })).not.toContain(token);
  });

  it('reads PUBLIC_URL as the origin /mcp answers for, path and all left out', () => {
    const config = loadConfig({ ...http, PUBLIC_URL: 'https://Influencers.example.com/slack/' });
    if (config.mode !== 'http') throw new Error('expected HTTP mode');
    expect(config.mcp.publicUrl).toBe('https://influencers.example.com');
  });

  it.each([
    [
      { ...http, PUBLIC_URL: 'influencers.example.com' },
      'PUBLIC_URL must be an http(s) URL such as https://influencers.example.com (got "influencers.example.com").',
    ],
    [
      { ...http, MCP_BEARER_TOKEN: 'short-secret' },
      'MCP_BEARER_TOKEN must be at least 32 characters (it has 12); make one with `openssl rand -hex 32`, or unset it.',
    ],
    [
      { ...http, MCP_SLACK_IDENTITY_AUTH: 'maybe' },
      'MCP_SLACK_IDENTITY_AUTH must be true or false (got "maybe"); set it to true once the manifest declares the MCP server for Slackbot.',
    ],
  ])('explains an invalid value without quoting a token (%#)', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
    expect(problemsOf(env).join()).not.toContain('short-secret');
  });
});
