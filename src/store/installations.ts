/**
 * The app's installations, one per workspace (or per Enterprise Grid organization for an org-wide
 * install): what Slack's OAuth gave (the bot token, its refresh token and expiry, the installer's
 * user token, the scopes) and each workspace's own analytics account. Every token and the analytics
 * credentials are sealed at rest (`sealing.ts`) under the current key of a {@link Keyring}; a row
 * carries its key's id, so `keys rotate` re-seals the rows still under a previous key.
 *
 * The methods follow Bolt's `InstallationStore` (`storeInstallation`, `fetchInstallation`,
 * `deleteInstallation`), with the instant passed in. Slack's token rotation is served by a refresh
 * lease: of several instances, one at a time refreshes a workspace's tokens.
 */
import type { Keyring } from '../config/encryption-keys.ts';
import type { Secret } from '../config/secret.ts';

/** Which installation: Bolt's `InstallationQuery`. */
export interface InstallationQuery {
  readonly teamId?: string | undefined;
  readonly enterpriseId?: string | undefined;
  readonly isEnterpriseInstall: boolean;
}

/** A token and what goes with it; Slack's token rotation gives a refresh token and an expiry. */
export interface InstalledToken {
  readonly token: Secret;
  readonly refreshToken?: Secret;
  readonly expiresAt?: Date;
}

/**
 * What the store keeps of Bolt's `Installation` (its incoming webhook aside: the app asks for none,
 * and its URL is a credential). Tokens are {@link Secret}s; instants are `Date`s.
 */
export interface Installation {
  /** Absent for an org-wide install. */
  readonly team?: { readonly id: string; readonly name?: string };
  /** The organization, for an org-wide install and for a workspace of one. */
  readonly enterprise?: { readonly id: string; readonly name?: string };
  readonly isEnterpriseInstall: boolean;
  readonly enterpriseUrl?: string;
  readonly appId?: string;
  readonly authVersion: 'v1' | 'v2';
  readonly bot?: InstalledToken & {
    readonly id: string;
    readonly userId: string;
    readonly scopes: readonly string[];
  };
  /** The installer, and their user token when the app asked for user scopes. */
  readonly user: Partial<InstalledToken> & {
    readonly id: string;
    readonly scopes?: readonly string[];
  };
}

export interface StoredInstallation extends Installation {
  /** The latest install (a reinstall moves it). */
  readonly installedAt: Date;
}

/** A workspace's own account with the analytics service. */
export interface AnalyticsAccount {
  readonly clientId: string;
  readonly clientSecret: Secret;
}

/** An installation whose retention ran out: its row and analytics account are gone. */
export interface PurgedInstallation {
  readonly teamId?: string;
  readonly enterpriseId?: string;
  readonly isEnterpriseInstall: boolean;
}

/** What `rotateKeys` did, row by row; sealed values are counted, never shown. */
export interface KeyRotation {
  /** Rows re-sealed under the current key. */
  readonly resealed: number;
  /** Rows already under the current key, or holding no credential (an uninstalled workspace). */
  readonly current: number;
  /** Rows under a key the ring does not hold, or that did not open: left as they were. */
  readonly unreadable: number;
  /** The ids of the keys those unreadable rows name. */
  readonly unreadableKeyIds: readonly string[];
}

export interface InstallationPolicy {
  /** How long an uninstalled workspace's data is kept (a reinstall within it resumes); 0: none. */
  readonly retentionMs: number;
}

export interface InstallationRepository {
  /**
   * Saves an install or a reinstall, replacing the workspace's (or organization's) previous
   * installation. A reinstall within the retention period resumes the workspace: its analytics
   * account is kept. Any refresh lease on it is released.
   */
  storeInstallation(installation: Installation, now: Date): Promise<void>;
  /**
   * The live installation the query names: by enterprise id for an org-wide install, else by team
   * id, falling back to the organization's org-wide install for a workspace of one that has no
   * install of its own. Undefined when there is none, or it was uninstalled.
   *
   * @throws SealedValueError when a credential does not open with the keyring.
   */
  fetchInstallation(query: InstallationQuery): Promise<StoredInstallation | undefined>;
  /**
   * The app was uninstalled (`app_uninstalled`): its tokens are deleted at once, the rest (the
   * analytics account) after the retention period, or at once when it is 0. True when there was a
   * live installation.
   */
  deleteInstallation(query: InstallationQuery, now: Date): Promise<boolean>;
  /**
   * Takes the installation's refresh lease until `now + leaseMs`: true for one caller at a time,
   * however many instances try at once, and again for the holder. False when another holds it, or
   * there is no live installation.
   */
  claimRefresh(
    query: InstallationQuery,
    owner: string,
    now: Date,
    leaseMs: number,
  ): Promise<boolean>;
  /**
   * Saves the refreshed tokens of an installation and releases its lease, only while `owner` holds
   * it; false (nothing saved) when it does not (a reinstall or an uninstall came between).
   */
  storeRefreshed(installation: Installation, owner: string, now: Date): Promise<boolean>;
  /** Gives the lease back without saving (the refresh failed); only its owner can. */
  releaseRefresh(query: InstallationQuery, owner: string): Promise<void>;
  /**
   * The workspace's analytics account, when one was set and the installation is live.
   *
   * @throws SealedValueError when the credentials do not open with the keyring.
   */
  analyticsAccount(query: InstallationQuery): Promise<AnalyticsAccount | undefined>;
  /** Sets the workspace's analytics account; false when there is no live installation. */
  setAnalyticsAccount(
    query: InstallationQuery,
    account: AnalyticsAccount,
    now: Date,
  ): Promise<boolean>;
  /** Deletes the installations whose retention has run out by `now`, and says whose they were. */
  purgeExpired(now: Date): Promise<PurgedInstallation[]>;
  /**
   * Re-seals under the keyring's current key every row sealed under a previous one. Rows that do
   * not open are counted and left; a row changed meanwhile is read again.
   */
  rotateKeys(): Promise<KeyRotation>;
}

/** The installations' table, opened with the keys that seal and open its credentials. */
export interface InstallationStorage {
  sealedWith(keyring: Keyring, policy: InstallationPolicy): InstallationRepository;
}

/**
 * The row an installation is kept in: an org-wide install by its organization, any other by its
 * workspace. Undefined when the query names neither.
 */
export function installationId(query: InstallationQuery): string | undefined {
  if (query.isEnterpriseInstall) {
    return query.enterpriseId ? `enterprise:${query.enterpriseId}` : undefined;
  }
  return query.teamId ? `team:${query.teamId}` : undefined;
}

/** The query that finds an installation again. */
export function queryOf(installation: Installation): InstallationQuery {
  return {
    teamId: installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall,
  };
}
