/**
 * An installation as its row holds it and back: every token sealed for its own row and column, so
 * a sealed value moved to another row or column does not open there.
 */
import type { EncryptionKey, Keyring } from '../../config/encryption-keys.ts';
import { Secret } from '../../config/secret.ts';
import type {
  AnalyticsAccount,
  Installation,
  InstalledToken,
  StoredInstallation,
} from '../installations.ts';
import { seal, unseal } from '../sealing.ts';
import type { SqlRow, SqlScalar } from './executor.ts';
import { toDate } from './rows.ts';

/** The columns that hold a sealed token, each sealed for its own name. */
export const tokenColumns = [
  'bot_token',
  'bot_refresh_token',
  'user_token',
  'user_refresh_token',
] as const;
export type TokenColumn = (typeof tokenColumns)[number];

/** The plain columns an install writes, in the order of {@link installationValues}. */
export const installationColumns = [
  'team_id',
  'team_name',
  'enterprise_id',
  'enterprise_name',
  'enterprise_url',
  'is_enterprise_install',
  'app_id',
  'auth_version',
  'bot_id',
  'bot_user_id',
  'bot_scopes',
  'bot_expires_at',
  'user_id',
  'user_scopes',
  'user_expires_at',
  ...tokenColumns,
] as const;

/** What a sealed value is, as its associated data: the table, the row and the column. */
export function sealContext(table: string, id: string, column: string): string {
  return `${table}/${id}/${column}`;
}

const sealOptional = (key: EncryptionKey, value: Secret | undefined, context: string) =>
  value === undefined ? null : seal(key, value.reveal(), context);

/** The tokens of an installation, sealed under `key` for the row `id`. */
export function sealTokens(
  installation: Installation,
  id: string,
  key: EncryptionKey,
): Record<TokenColumn, string | null> {
  const { bot, user } = installation;
  const tokens: Record<TokenColumn, Secret | undefined> = {
    bot_token: bot?.token,
    bot_refresh_token: bot?.refreshToken,
    user_token: user.token,
    user_refresh_token: user.refreshToken,
  };
  return Object.fromEntries(
    tokenColumns.map((column) => [
      column,
      sealOptional(key, tokens[column], sealContext('installations', id, column)),
    ]),
  ) as Record<TokenColumn, string | null>;
}

const scopes = (list: readonly string[] | undefined) => (list ? list.join(',') : null);

/** Every column of {@link installationColumns}, in order, its tokens sealed under `key`. */
export function installationValues(
  installation: Installation,
  id: string,
  key: EncryptionKey,
): SqlScalar[] {
  const { bot, user } = installation;
  const sealed = sealTokens(installation, id, key);
  return [
    installation.team?.id ?? null,
    installation.team?.name ?? null,
    installation.enterprise?.id ?? null,
    installation.enterprise?.name ?? null,
    installation.enterpriseUrl ?? null,
    installation.isEnterpriseInstall ? 1 : 0,
    installation.appId ?? null,
    installation.authVersion,
    bot?.id ?? null,
    bot?.userId ?? null,
    scopes(bot?.scopes),
    bot?.expiresAt ?? null,
    user.id,
    scopes(user.scopes),
    user.expiresAt ?? null,
    ...tokenColumns.map((column) => sealed[column]),
  ];
}

const text = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);
const instant = (value: unknown): Date | undefined =>
  value === null || value === undefined ? undefined : toDate(value);
const list = (value: unknown): string[] | undefined => {
  const joined = text(value);
  return joined === undefined ? undefined : joined.split(',').filter((scope) => scope !== '');
};

/** The row's sealed tokens, opened. @throws SealedValueError when one does not open. */
export function openTokens(row: SqlRow, keyring: Keyring): Record<TokenColumn, Secret | undefined> {
  const id = String(row.id);
  return Object.fromEntries(
    tokenColumns.map((column) => {
      const sealed = text(row[column]);
      const opened =
        sealed === undefined
          ? undefined
          : new Secret(unseal(keyring, sealed, sealContext('installations', id, column)));
      return [column, opened];
    }),
  ) as Record<TokenColumn, Secret | undefined>;
}

function withName<T extends { id: string }>(base: T, name: string | undefined): T {
  return name === undefined ? base : { ...base, name };
}

function token(
  value: Secret | undefined,
  refresh: Secret | undefined,
  expiresAt: Date | undefined,
): Partial<InstalledToken> {
  return {
    ...(value ? { token: value } : {}),
    ...(refresh ? { refreshToken: refresh } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** @throws SealedValueError when a token does not open with the keyring. */
export function rowToInstallation(row: SqlRow, keyring: Keyring): StoredInstallation {
  const tokens = openTokens(row, keyring);
  const teamId = text(row.team_id);
  const enterpriseId = text(row.enterprise_id);
  const botToken = tokens.bot_token;
  const userScopes = list(row.user_scopes);
  const optional = {
    enterpriseUrl: text(row.enterprise_url),
    appId: text(row.app_id),
  };
  return {
    ...(teamId ? { team: withName({ id: teamId }, text(row.team_name)) } : {}),
    ...(enterpriseId
      ? { enterprise: withName({ id: enterpriseId }, text(row.enterprise_name)) }
      : {}),
    isEnterpriseInstall: Number(row.is_enterprise_install) === 1,
    ...(optional.enterpriseUrl ? { enterpriseUrl: optional.enterpriseUrl } : {}),
    ...(optional.appId ? { appId: optional.appId } : {}),
    authVersion: row.auth_version === 'v1' ? 'v1' : 'v2',
    ...(botToken
      ? {
          bot: {
            ...token(botToken, tokens.bot_refresh_token, instant(row.bot_expires_at)),
            token: botToken,
            id: String(row.bot_id ?? ''),
            userId: String(row.bot_user_id ?? ''),
            scopes: list(row.bot_scopes) ?? [],
          },
        }
      : {}),
    user: {
      id: String(row.user_id),
      ...token(tokens.user_token, tokens.user_refresh_token, instant(row.user_expires_at)),
      ...(userScopes ? { scopes: userScopes } : {}),
    },
    installedAt: toDate(row.installed_at),
  };
}

/** The analytics account's two sealed columns, under `key` for the row `id`. */
export function sealAccount(
  account: AnalyticsAccount,
  id: string,
  key: EncryptionKey,
): { readonly clientId: string; readonly clientSecret: string } {
  return {
    clientId: seal(key, account.clientId, sealContext('installation_analytics', id, 'client_id')),
    clientSecret: seal(
      key,
      account.clientSecret.reveal(),
      sealContext('installation_analytics', id, 'client_secret'),
    ),
  };
}

/** @throws SealedValueError when a credential does not open with the keyring. */
export function rowToAccount(row: SqlRow, keyring: Keyring): AnalyticsAccount {
  const id = String(row.installation_id);
  return {
    clientId: unseal(
      keyring,
      String(row.client_id),
      sealContext('installation_analytics', id, 'client_id'),
    ),
    clientSecret: new Secret(
      unseal(
        keyring,
        String(row.client_secret),
        sealContext('installation_analytics', id, 'client_secret'),
      ),
    ),
  };
}
