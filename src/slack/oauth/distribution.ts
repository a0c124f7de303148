/**
 * Which Slack access the app runs with: the one bot token (SLACK_BOT_TOKEN), or, when the app is
 * distributed with "Add to Slack", each workspace's installation from the store, with the install
 * pages served beside Slack's routes.
 */
import type { RequestListener } from 'node:http';
import type { HttpConfig, SocketConfig } from '../../config/app-config.ts';
import type { Core } from '../../core/core.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import type { InstallationRepository } from '../../store/installations.ts';
import { type SlackAccess, singleTokenAccess } from '../web-api/access.ts';
import type { UserDirectory } from '../web-api/user-directory.ts';
import { installRoutes } from './install-routes.ts';
import { type InstallationAccess, installationAccess } from './installation-access.ts';

export interface AccessParts {
  readonly logger: Logger;
  readonly directory: UserDirectory;
  readonly fetch?: typeof fetch;
  /** The core, once built: the store is reached through it, at requests only. */
  readonly core: () => Core;
}

/** The store's installations under the configured keys, opened once the database is. */
function installationsOf(config: HttpConfig, core: () => Core): () => InstallationRepository {
  let repository: InstallationRepository | undefined;
  return () => {
    const { oauth } = config;
    // Not an AppError: a bug, as only the OAuth configuration builds this reader.
    if (oauth === undefined) throw new Error('installations are read only with OAuth set');
    repository ??= core().digests.database.installations.sealedWith(oauth.keyring, {
      retentionMs: oauth.retentionMs,
    });
    return repository;
  };
}

/** The access the configuration asks for, and the install pages when it distributes the app. */
export function slackAccessFor(
  config: HttpConfig | SocketConfig,
  parts: AccessParts,
): { access: SlackAccess; pages?: (next: RequestListener) => RequestListener } {
  const { apiUrl } = config.slack;
  if (config.mode === 'http' && config.oauth !== undefined) {
    const installations = installationsOf(config, parts.core);
    const access: InstallationAccess = installationAccess({
      installations,
      clientId: config.oauth.clientId,
      clientSecret: config.oauth.clientSecret,
      logger: parts.logger,
      directory: parts.directory,
      ...defined({ apiUrl, fetch: parts.fetch }),
    });
    const pages = installRoutes({
      oauth: config.oauth,
      installations,
      sightings: () => parts.core().digests.database.sightings,
      logger: parts.logger,
      installed: (installation) =>
        access.forget({
          teamId: installation.team?.id,
          enterpriseId: installation.enterprise?.id,
          isEnterpriseInstall: installation.isEnterpriseInstall ?? false,
        }),
      ...defined({ apiUrl, fetch: parts.fetch }),
    });
    return { access, pages };
  }
  const { botToken } = config.slack;
  // Not an AppError: a bug, as the configuration sets a bot token wherever OAuth is not set.
  if (botToken === undefined) throw new Error('SLACK_BOT_TOKEN is not set');
  return {
    access: singleTokenAccess({
      slack: { botToken, ...defined({ apiUrl }) },
      logger: parts.logger,
      directory: parts.directory,
      ...defined({ fetch: parts.fetch }),
    }),
  };
}
