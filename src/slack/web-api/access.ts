/**
 * Slack access asked for by workspace: the bot token Bolt authorizes with, the interactive client
 * for the posts a person waits for, and the jobs' outlet. The single bot token of today is one
 * implementation ({@link singleTokenAccess}); a store of installations is another. Nothing else in
 * the app holds a token.
 */
import { WebClient } from '@slack/web-api';
import { type Outlet, type Outlets, outletsByTeam } from '../../digests/outlets.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import { singleAttemptClientOptions } from './client.ts';
import { slackDigestOutlet } from './digest-outlet.ts';
import { UserDirectory } from './user-directory.ts';

/** What the app may do in one workspace. */
export interface WorkspaceAccess {
  /** For Bolt's `authorize` and the start-up check; never logged. */
  botToken(): string;
  /**
   * The bot's Web API client without automatic retries, for the posts a person waits for in a
   * conversation: a post retried after a timeout or a 5xx may appear twice.
   */
  readonly chat: WebClient;
  /** Where the jobs post in this workspace. */
  readonly outlet: Required<Outlet>;
}

export interface SlackAccess {
  /** Every Slack request (Web API and response_url) goes through it. */
  readonly fetch: typeof fetch;
  /** Web API base URL (SLACK_API_URL). */
  readonly apiUrl?: string;
  /** The workspace's access; `undefined` when a request names no workspace. */
  forTeam(teamId: string | undefined): WorkspaceAccess;
  /** Each workspace has its own installation: there is no one token to confirm at start. */
  readonly perWorkspace?: true;
  /**
   * Bolt's `authorize`, when the access reads it from the request's workspace or organization (an
   * org-wide install by its enterprise id); else the workspace's `botToken()`.
   */
  authorize?(source: {
    readonly teamId?: string | undefined;
    readonly enterpriseId?: string | undefined;
    readonly isEnterpriseInstall?: boolean | undefined;
  }): Promise<{ botToken: string; botId?: string; botUserId?: string }>;
}

export interface SingleTokenAccessOptions {
  readonly slack: { readonly botToken: { reveal(): string }; readonly apiUrl?: string };
  readonly logger: Logger;
  readonly fetch?: typeof fetch;
  /** The users.info cache the rest of the app shares (zones, admin rights, names). */
  readonly directory: UserDirectory;
}

/** One bot token for every workspace the app hears from (SLACK_BOT_TOKEN). */
export function singleTokenAccess(options: SingleTokenAccessOptions): SlackAccess {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const { apiUrl } = options.slack;
  const token = options.slack.botToken;
  const workspace: WorkspaceAccess = {
    botToken: () => token.reveal(),
    chat: new WebClient(
      token.reveal(),
      singleAttemptClientOptions({
        fetch: fetchFn,
        logger: options.logger,
        ...defined({ apiUrl }),
      }),
    ),
    outlet: slackDigestOutlet({ token: token.reveal(), ...defined({ apiUrl }) }, options.logger, {
      fetch: fetchFn,
      directory: options.directory,
    }),
  };
  return {
    fetch: fetchFn,
    ...defined({ apiUrl }),
    forTeam: () => workspace,
  };
}

/** The jobs' outlets: each workspace's own. */
export function outletsOf(access: SlackAccess): Outlets {
  return outletsByTeam({ forTeam: (teamId) => access.forTeam(teamId).outlet });
}

/** The outlets of a scheduler job (`digests run-due`): the bot token's, with a users.info cache of its own. */
export function jobOutlets(
  slack: SingleTokenAccessOptions['slack'],
  logger: Logger,
  fetchFn?: typeof fetch,
): Outlets {
  return outletsOf(
    singleTokenAccess({
      slack,
      logger,
      directory: new UserDirectory(),
      ...defined({ fetch: fetchFn }),
    }),
  );
}
