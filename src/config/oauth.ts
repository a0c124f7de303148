/**
 * "Add to Slack" (HTTP mode): the app installs itself in many workspaces through Slack's OAuth, with
 * Bolt's own variable names. Any of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET
 * switches it on; then all three are needed, with PUBLIC_URL (every address the app builds) and
 * APP_ENCRYPTION_KEY (the installations' tokens are sealed at rest).
 */
import { type Keyring, readKeyring } from './encryption-keys.ts';
import { type Env, integerVar, present, urlVar } from './env.ts';
import { defaultRetentionDays } from './installations.ts';
import { Secret } from './secret.ts';

export interface OAuthConfig {
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** Signs each install's `state`. */
  readonly stateSecret: Secret;
  /** Where Slack sends the installer back; default `PUBLIC_URL/slack/oauth_redirect`. */
  readonly redirectUri: string;
  /** The app's public origin, for every link the pages hold. */
  readonly publicUrl: string;
  /** The privacy notice the install page links to; default `PUBLIC_URL/privacy`. */
  readonly privacyUrl: string;
  readonly keyring: Keyring;
  /** How long an uninstalled workspace's data is kept. */
  readonly retentionMs: number;
}

export const oauthVars = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;

/** Signed states shorter than this could be guessed; 32 is what `openssl rand -hex 16` prints. */
export const minStateSecretLength = 32;

const dayMs = 86_400_000;

/** True when any OAuth variable is set: the app is then meant to serve many workspaces. */
export function oauthRequested(env: Env): boolean {
  return oauthVars.some((name) => present(env, name) !== undefined);
}

/**
 * The OAuth settings, or undefined when none is set. Each missing variable is one problem saying
 * what the set needs; `socketMode` refuses the set in words, as Slack does not let an app
 * distributed to many workspaces use Socket Mode.
 */
export function readOAuth(
  env: Env,
  problems: string[],
  context: { readonly socketMode: boolean; readonly botTokenSet: boolean },
): OAuthConfig | undefined {
  if (!oauthRequested(env)) return undefined;
  if (context.socketMode) {
    problems.push(
      `${oauthVars.filter((name) => present(env, name) !== undefined).join(', ')} set with SLACK_APP_TOKEN: Socket Mode serves one workspace (Slack does not allow Socket Mode for apps distributed to many workspaces). Unset SLACK_APP_TOKEN and set SLACK_SIGNING_SECRET to install through "Add to Slack" in HTTP mode, or unset ${oauthVars.join(', ')} to keep one workspace.`,
    );
    return undefined;
  }
  if (context.botTokenSet) {
    problems.push(
      `SLACK_BOT_TOKEN is set with ${oauthVars.join(', ')}: a bot token serves one workspace, the OAuth variables install the app in many. Unset SLACK_BOT_TOKEN to distribute the app, or the OAuth variables to keep one workspace.`,
    );
  }
  const why = `distributing the app with "Add to Slack" needs ${oauthVars.join(', ')}, PUBLIC_URL and APP_ENCRYPTION_KEY`;
  for (const name of oauthVars) {
    if (present(env, name) === undefined) {
      problems.push(
        `${name} is missing: ${why}${name === 'SLACK_STATE_SECRET' ? ' (make one with `openssl rand -hex 32`)' : ' (Basic Information > App Credentials)'}.`,
      );
    }
  }
  const stateSecret = present(env, 'SLACK_STATE_SECRET');
  if (stateSecret !== undefined && stateSecret.length < minStateSecretLength) {
    problems.push(
      `SLACK_STATE_SECRET must be at least ${minStateSecretLength} characters (it has ${stateSecret.length}); make one with \`openssl rand -hex 32\`.`,
    );
  }
  const publicRaw = urlVar(env, problems, 'PUBLIC_URL', 'https://influencers.example.com');
  if (present(env, 'PUBLIC_URL') === undefined) {
    problems.push(
      `PUBLIC_URL is missing: ${why}; set it to the address the app is reached at (https://influencers.example.com), which every install link and OAuth address is built on.`,
    );
  }
  if (present(env, 'APP_ENCRYPTION_KEY') === undefined) {
    problems.push(
      `APP_ENCRYPTION_KEY is missing: ${why}, as every workspace's tokens are sealed at rest. Make one with \`openssl rand -hex 32\` and keep it safe: without it the stored installations cannot be read.`,
    );
  }
  const keyring = readKeyring(env, problems);
  const redirectRaw = urlVar(
    env,
    problems,
    'SLACK_REDIRECT_URI',
    'https://influencers.example.com/slack/oauth_redirect',
  );
  const privacyRaw = urlVar(
    env,
    problems,
    'PRIVACY_URL',
    'https://influencers.example.com/privacy',
  );
  const days = integerVar(
    env,
    problems,
    'INSTALLATION_RETENTION_DAYS',
    defaultRetentionDays,
    0,
    3_650,
  );
  const clientId = present(env, 'SLACK_CLIENT_ID');
  const clientSecret = present(env, 'SLACK_CLIENT_SECRET');
  if (
    clientId === undefined ||
    clientSecret === undefined ||
    stateSecret === undefined ||
    publicRaw === undefined ||
    keyring === undefined
  ) {
    return undefined;
  }
  const publicUrl = new URL(publicRaw).origin;
  return {
    clientId,
    clientSecret: new Secret(clientSecret),
    stateSecret: new Secret(stateSecret),
    redirectUri: redirectRaw ?? `${publicUrl}/slack/oauth_redirect`,
    publicUrl,
    privacyUrl: privacyRaw ?? `${publicUrl}/privacy`,
    keyring,
    retentionMs: days * dayMs,
  };
}
