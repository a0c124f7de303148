/**
 * The MCP server at `/mcp` (HTTP mode): who may call it. Slackbot calls it with Slack identity
 * auth (each request signed with the app's signing secret, naming the person); any other MCP client
 * presents `MCP_BEARER_TOKEN`. With neither set, `/mcp` does not exist (404).
 */
import { booleanWords, type Env, present } from './env.ts';
import { Secret } from './secret.ts';

export interface McpConfig {
  /** The token other MCP clients send as `Authorization: Bearer <token>`; undefined: none may. */
  readonly bearerToken?: Secret;
  /** True: Slackbot's requests, signed by Slack, are served (manifest `slack_identity_auth`). */
  readonly slackIdentityAuth: boolean;
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
  return {
    slackIdentityAuth,
    ...(token === undefined || token.length < minBearerTokenLength
      ? {}
      : { bearerToken: new Secret(token) }),
  };
}
