/**
 * Slack access over the store's installations ("Add to Slack"): each workspace is served with its
 * own bot token, read from the store once and kept in an LRU so authorizing a request from the
 * cache costs no query. A rotating token close to its expiry is refreshed (oauth.v2.access with
 * the refresh token) under the store's refresh lease, so of several instances one at a time
 * refreshes a workspace; the others read what it stored. An org-wide install is found by its
 * enterprise id, and then serves its workspaces by their team id too.
 */
import { randomUUID } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import { Secret } from '../../config/secret.ts';
import { SlackCallError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import {
  type InstallationQuery,
  type InstallationRepository,
  installationId,
  queryOf,
  type StoredInstallation,
} from '../../store/installations.ts';
import type { SlackAccess, WorkspaceAccess } from '../web-api/access.ts';
import { singleAttemptClientOptions, TokenSourceClient } from '../web-api/client.ts';
import { slackDigestOutlet } from '../web-api/digest-outlet.ts';
import type { UserDirectory } from '../web-api/user-directory.ts';

/** A token closer than this to its expiry is refreshed before use; Slack's last 12 hours. */
export const tokenExpirySkewMs = 10 * 60_000;
/** How long an instance may hold a workspace's refresh before another may take it over. */
export const refreshLeaseMs = 30_000;
/** How long an installation read from the store is reused: a reinstall elsewhere shows within it. */
export const installationCacheTtlMs = 5 * 60_000;
/** Installations kept in memory; the rest are read again when needed. */
export const installationCacheMax = 5_000;

export interface InstallationAccessOptions {
  /** The installations, opened with the keyring; asked for at each read (the store opens late). */
  readonly installations: () => InstallationRepository;
  readonly clientId: string;
  readonly clientSecret: Secret;
  readonly logger: Logger;
  readonly directory: UserDirectory;
  readonly apiUrl?: string;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
  /** Who holds a refresh lease: this instance. */
  readonly owner?: string;
}

/** What Bolt's `authorize` is given about a request's workspace. */
export interface AuthorizeSource {
  readonly teamId?: string | undefined;
  readonly enterpriseId?: string | undefined;
  readonly isEnterpriseInstall?: boolean | undefined;
}

/** The access by installation, with Bolt's `authorize` over it. */
export interface InstallationAccess extends SlackAccess {
  readonly perWorkspace: true;
  authorize(source: AuthorizeSource): Promise<{
    botToken: string;
    botId?: string;
    botUserId?: string;
    teamId?: string;
    enterpriseId?: string;
  }>;
  /** Forgets what is cached of a workspace (a reinstall, an uninstall). */
  forget(query: InstallationQuery): void;
}

/** The store has no live installation for the workspace: Slack cannot be reached on its behalf. */
function notInstalled(query: InstallationQuery): SlackCallError {
  return new SlackCallError({
    method: 'authorize',
    reason: `not_installed ${installationId(query) ?? 'unknown workspace'}`,
    transient: false,
    mayHaveActed: false,
    answered: true,
  });
}

export function installationAccess(options: InstallationAccessOptions): InstallationAccess {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const { apiUrl } = options;
  const now = options.now ?? (() => new Date());
  const owner = options.owner ?? randomUUID();
  const logger = options.logger.child({ component: 'installations' });
  const cache = new LRUCache<string, StoredInstallation>({
    max: installationCacheMax,
    ttl: installationCacheTtlMs,
  });
  /** An org-wide install serving a workspace: the workspace's organization, as a request named it. */
  const orgOf = new LRUCache<string, string>({ max: installationCacheMax });
  const refreshing = new Map<string, Promise<StoredInstallation>>();
  const oauthClient = new WebClient(
    undefined,
    singleAttemptClientOptions({ fetch: fetchFn, logger, ...defined({ apiUrl }) }),
  );

  const teamQuery = (teamId: string): InstallationQuery => {
    const enterpriseId = orgOf.get(teamId);
    return { teamId, isEnterpriseInstall: false, ...defined({ enterpriseId }) };
  };

  const remember = (query: InstallationQuery, installation: StoredInstallation) => {
    const key = installationId(query);
    if (key !== undefined) cache.set(key, installation);
    const own = installationId(queryOf(installation));
    if (own !== undefined) cache.set(own, installation);
    if (installation.isEnterpriseInstall && query.teamId && installation.enterprise) {
      orgOf.set(query.teamId, installation.enterprise.id);
      cache.set(`team:${query.teamId}`, installation);
    }
  };

  const read = async (query: InstallationQuery): Promise<StoredInstallation> => {
    const key = installationId(query);
    const cached = key === undefined ? undefined : cache.get(key);
    const found = cached ?? (await options.installations().fetchInstallation(query));
    if (found?.bot === undefined) throw notInstalled(query);
    if (cached === undefined) remember(query, found);
    return expiresSoon(found, now()) ? refresh(query, found) : found;
  };

  const refresh = (query: InstallationQuery, stale: StoredInstallation) => {
    const key = installationId(queryOf(stale)) ?? '';
    const running = refreshing.get(key);
    if (running !== undefined) return running;
    const work = refreshUnderLease(query, stale).finally(() => refreshing.delete(key));
    refreshing.set(key, work);
    return work;
  };

  const refreshUnderLease = async (
    asked: InstallationQuery,
    stale: StoredInstallation,
  ): Promise<StoredInstallation> => {
    const repo = options.installations();
    const query = queryOf(stale);
    const at = now();
    if (!(await repo.claimRefresh(query, owner, at, refreshLeaseMs))) {
      // Another instance refreshes it: its token is still good for the skew, or is already new.
      const stored = await repo.fetchInstallation(query);
      if (stored?.bot === undefined) throw notInstalled(query);
      remember(asked, stored);
      return stored;
    }
    try {
      // What another instance stored since this one read it: a refresh token is good once.
      const current = await repo.fetchInstallation(query);
      const bot = current?.bot;
      if (current === undefined || bot === undefined) throw notInstalled(query);
      if (!expiresSoon(current, at) || bot.refreshToken === undefined) {
        await repo.releaseRefresh(query, owner);
        remember(asked, current);
        return current;
      }
      const answer = (await oauthClient.oauth.v2.access({
        client_id: options.clientId,
        client_secret: options.clientSecret.reveal(),
        grant_type: 'refresh_token',
        refresh_token: bot.refreshToken.reveal(),
      })) as { access_token?: string; refresh_token?: string; expires_in?: number };
      if (answer.access_token === undefined) throw notInstalled(query);
      const refreshed: StoredInstallation = {
        ...current,
        bot: {
          ...bot,
          token: new Secret(answer.access_token),
          ...(answer.refresh_token === undefined
            ? {}
            : { refreshToken: new Secret(answer.refresh_token) }),
          ...(answer.expires_in === undefined
            ? {}
            : { expiresAt: new Date(at.getTime() + answer.expires_in * 1000) }),
        },
      };
      if (!(await repo.storeRefreshed(refreshed, owner, at))) {
        // A reinstall or an uninstall came between: what is stored now wins.
        const stored = await repo.fetchInstallation(query);
        if (stored?.bot === undefined) throw notInstalled(query);
        remember(asked, stored);
        return stored;
      }
      logger.info({ installation: installationId(query) }, 'refreshed a rotating bot token');
      remember(asked, refreshed);
      return refreshed;
    } catch (error) {
      await repo.releaseRefresh(query, owner).catch(() => undefined);
      throw error;
    }
  };

  const workspaces = new LRUCache<string, WorkspaceAccess>({ max: installationCacheMax });
  const accessFor = (teamId: string | undefined): WorkspaceAccess => {
    const key = teamId ?? '';
    const known = workspaces.get(key);
    if (known !== undefined) return known;
    const token = async () => {
      if (teamId === undefined) throw notInstalled({ isEnterpriseInstall: false });
      const installation = await read(teamQuery(teamId));
      // read() refuses an installation without a bot.
      return installation.bot?.token.reveal() ?? '';
    };
    const workspace: WorkspaceAccess = {
      botToken: () => {
        const cached = teamId === undefined ? undefined : cache.get(`team:${teamId}`);
        const bot = cached?.bot;
        if (bot === undefined) throw notInstalled({ teamId, isEnterpriseInstall: false });
        return bot.token.reveal();
      },
      chat: new TokenSourceClient(
        token,
        singleAttemptClientOptions({ fetch: fetchFn, logger, ...defined({ apiUrl }) }),
      ),
      outlet: slackDigestOutlet({ token, ...defined({ apiUrl }) }, logger, {
        fetch: fetchFn,
        directory: options.directory,
      }),
    };
    workspaces.set(key, workspace);
    return workspace;
  };

  return {
    perWorkspace: true,
    fetch: fetchFn,
    ...defined({ apiUrl }),
    forTeam: accessFor,
    async authorize(source) {
      const query: InstallationQuery = source.isEnterpriseInstall
        ? { enterpriseId: source.enterpriseId, isEnterpriseInstall: true }
        : { teamId: source.teamId, enterpriseId: source.enterpriseId, isEnterpriseInstall: false };
      const installation = await read(query);
      if (source.teamId !== undefined) remember({ ...query, teamId: source.teamId }, installation);
      const bot = installation.bot;
      if (bot === undefined) throw notInstalled(query);
      return {
        botToken: bot.token.reveal(),
        botId: bot.id,
        botUserId: bot.userId,
        ...defined({
          teamId: installation.team?.id ?? source.teamId,
          enterpriseId: installation.enterprise?.id,
        }),
      };
    },
    forget(query) {
      const key = installationId(query);
      if (key !== undefined) cache.delete(key);
      if (query.teamId) cache.delete(`team:${query.teamId}`);
    },
  };
}

function expiresSoon(installation: StoredInstallation, at: Date): boolean {
  const expiresAt = installation.bot?.expiresAt;
  return expiresAt !== undefined && expiresAt.getTime() - at.getTime() < tokenExpirySkewMs;
}
