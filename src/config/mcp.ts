/**
 * The MCP server at `/mcp` (HTTP mode): who may call it. Slackbot calls it with Slack identity
 * auth (each request signed with the app's signing secret, naming the person); any other MCP client
 * presents `MCP_BEARER_TOKEN`. With neither set, `/mcp` does not exist (404). `PUBLIC_URL`, the
 * address the app is reached at, is the one site besides Slack's and loopback whose pages, and the
 * one name besides loopback, `/mcp` answers (DNS rebinding protection).
 */
import { booleanWords, type Env, present, urlVar } from './env.ts';
import { Secret } from './secret.ts';

export interface McpConfig {
  /** The token other MCP clients send as `Authorization: Bearer <token>`; undefined: none may. */
  readonly bearerToken?: Secret;
  /** True: Slackbot's requests, signed by Slack, are served (manifest `slack_identity_auth`). */
  readonly slackIdentityAuth: boolean;
  /** `PUBLIC_URL`: the app's public origin (`https://influencers.example.com`); undefined: unknown. */
  readonly publicUrl?: string;
}

/** Short tokens can be guessed; 32 characters is what `openssl rand -hex 16` prints. */
export const minBearerTokenLength = 32;

export function readMcp(env: Env, problems: string[]): McpConfig {
  const token = present(env, 'MCP_BEARER_TOKEN');
  if (token !== undefined && token.length < minBearerTokenLength) {
    // Never quoted: it is a secret, however short.
    problems.push(
      `MCP_BEARER_TOKEN must be at least ${minBearerTokenLength} characters (it has ${token.length}); make one with \`openssl rand -hex 32\`, or unset it.`,
    );
  }
  const identityRaw = present(env, 'MCP_SLACK_IDENTITY_AUTH')?.toLowerCase();
  let slackIdentityAuth = false;
  if (identityRaw !== undefined) {
    const value = booleanWords[identityRaw];
    if (value === undefined) {
      problems.push(
        `MCP_SLACK_IDENTITY_AUTH must be true or false (got "${identityRaw}"); set it to true once the manifest declares the MCP server for Slackbot.`,
      );
    } else {
      slackIdentityAuth = value;
    }
  }
  const publicUrl = urlVar(env, problems, 'PUBLIC_URL', 'https://influencers.example.com');
  return {
    slackIdentityAuth,
    ...(publicUrl === undefined ? {} : { publicUrl: new URL(publicUrl).origin }),
    ...(token === undefined || token.length < minBearerTokenLength
      ? {}
      : { bearerToken: new Secret(token) }),
  };
}
