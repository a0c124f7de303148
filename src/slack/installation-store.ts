/**
 * Bolt's `InstallationStore` over the store's installations, for the OAuth flow (`InstallProvider`)
 * to save what it was given and Bolt's `authorize` to find a workspace's tokens. Tokens cross into
 * plain strings only here, where Bolt takes them; instants are Bolt's seconds since the epoch.
 */
import type {
  Installation as BoltInstallation,
  InstallationQuery as BoltQuery,
  InstallationStore,
} from '@slack/bolt';
import { Secret } from '../config/secret.ts';
import type {
  Installation,
  InstallationRepository,
  StoredInstallation,
} from '../store/installations.ts';

const fromSeconds = (seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(seconds * 1000);
const toSeconds = (instant: Date | undefined) =>
  instant === undefined ? undefined : Math.floor(instant.getTime() / 1000);

/** Only the properties that have a value, as `exactOptionalPropertyTypes` wants them. */
function present<T extends object>(props: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(
    Object.entries(props).filter(([, value]) => value !== undefined && value !== null),
  ) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const secret = (value: string | undefined) => (value ? new Secret(value) : undefined);

/** What Bolt's OAuth flow (or its token refresh) hands the store, as the store keeps it. */
export function fromBolt(installation: BoltInstallation): Installation {
  const { team, enterprise, bot, user } = installation;
  return {
    ...present({
      team: team ? { id: team.id, ...present({ name: team.name }) } : undefined,
      enterprise: enterprise
        ? { id: enterprise.id, ...present({ name: enterprise.name }) }
        : undefined,
      enterpriseUrl: installation.enterpriseUrl,
      appId: installation.appId,
    }),
    isEnterpriseInstall: installation.isEnterpriseInstall ?? false,
    authVersion: installation.authVersion ?? 'v2',
    ...(bot
      ? {
          bot: {
            token: new Secret(bot.token),
            id: bot.id,
            userId: bot.userId,
            scopes: bot.scopes,
            ...present({
              refreshToken: secret(bot.refreshToken),
              expiresAt: fromSeconds(bot.expiresAt),
            }),
          },
        }
      : {}),
    user: {
      id: user.id,
      ...present({
        token: secret(user.token),
        refreshToken: secret(user.refreshToken),
        expiresAt: fromSeconds(user.expiresAt),
        scopes: user.scopes,
      }),
    },
  };
}

/** A stored installation as Bolt reads it, its tokens revealed. */
export function toBolt(installation: StoredInstallation): BoltInstallation {
  const { bot, user } = installation;
  return {
    team: installation.team ? { ...installation.team } : undefined,
    enterprise: installation.enterprise ? { ...installation.enterprise } : undefined,
    isEnterpriseInstall: installation.isEnterpriseInstall,
    authVersion: installation.authVersion,
    ...present({ enterpriseUrl: installation.enterpriseUrl, appId: installation.appId }),
    ...(bot
      ? {
          tokenType: 'bot' as const,
          bot: {
            token: bot.token.reveal(),
            id: bot.id,
            userId: bot.userId,
            scopes: [...bot.scopes],
            ...present({
              refreshToken: bot.refreshToken?.reveal(),
              expiresAt: toSeconds(bot.expiresAt),
            }),
          },
        }
      : {}),
    user: {
      id: user.id,
      token: user.token?.reveal(),
      scopes: user.scopes ? [...user.scopes] : undefined,
      ...present({
        refreshToken: user.refreshToken?.reveal(),
        expiresAt: toSeconds(user.expiresAt),
      }),
    },
  } as BoltInstallation;
}

/**
 * Bolt's store over the repository. `fetchInstallation` throws when there is none, as Bolt's own
 * stores do (its `authorize` then refuses the request); `deleteInstallation` is the uninstall.
 */
export function boltInstallationStore(
  installations: InstallationRepository,
  now: () => Date,
): InstallationStore {
  return {
    async storeInstallation(installation) {
      await installations.storeInstallation(fromBolt(installation as BoltInstallation), now());
    },
    async fetchInstallation(query: BoltQuery<boolean>) {
      const found = await installations.fetchInstallation(query);
      if (found === undefined) {
        // Not an AppError: Bolt's authorize wraps whatever this throws in its AuthorizationError.
        throw new Error(
          `No installation for ${query.isEnterpriseInstall ? `organization ${query.enterpriseId}` : `workspace ${query.teamId}`}`,
        );
      }
      return toBolt(found);
    },
    async deleteInstallation(query: BoltQuery<boolean>) {
      await installations.deleteInstallation(query, now());
    },
  };
}
