/**
 * Slack's side of OAuth for the fake Slack: the codes its authorize page hands out and the tokens
 * oauth.v2.access gives for them, as https://docs.slack.dev/reference/methods/oauth.v2.access
 * describes: a code is good once (`invalid_code` after), a bot token with token rotation comes
 * with `expires_in` and a `refresh_token`, and `grant_type=refresh_token` swaps a refresh token
 * for a new pair, the old refresh token then refused (`invalid_refresh_token`).
 */

export interface FakeInstall {
  readonly team?: { readonly id: string; readonly name: string };
  readonly enterprise?: { readonly id: string; readonly name: string };
  readonly isEnterpriseInstall?: boolean;
  readonly installerId?: string;
  /** The bot token the code gives. */
  readonly botToken: string;
  /** Token rotation on: the token expires after this many seconds and comes with a refresh token. */
  readonly expiresIn?: number;
  readonly scope?: string;
}

export const fakeClientId = '1111.2222';
export const fakeClientSecret = 'fake-client-secret-value';
export const fakeAppId = 'A0APP0001';
export const fakeBotUserId = 'U0BOTXYZ1';

export class FakeOAuth {
  /** Codes not yet exchanged. */
  readonly #codes = new Map<string, FakeInstall>();
  /** Live refresh tokens, each good once. */
  readonly #refreshTokens = new Map<string, FakeInstall>();
  #issued = 0;

  /** A code Slack's authorize page would hand the redirect for this install. */
  codeFor(install: FakeInstall): string {
    this.#issued += 1;
    const code = `code-${this.#issued}`;
    this.#codes.set(code, install);
    return code;
  }

  access(args: Record<string, unknown>): Record<string, unknown> {
    if (args.client_id !== fakeClientId) return { ok: false, error: 'invalid_client_id' };
    if (args.client_secret !== fakeClientSecret) return { ok: false, error: 'bad_client_secret' };
    const grant = args.grant_type ?? 'authorization_code';
    if (grant === 'refresh_token') {
      const install = this.#refreshTokens.get(String(args.refresh_token));
      if (install === undefined) return { ok: false, error: 'invalid_refresh_token' };
      this.#refreshTokens.delete(String(args.refresh_token));
      this.#issued += 1;
      return this.#answer({ ...install, botToken: `xoxe.xoxb-refreshed-${this.#issued}` });
    }
    if (grant !== 'authorization_code') return { ok: false, error: 'invalid_grant_type' };
    const install = this.#codes.get(String(args.code));
    if (install === undefined) return { ok: false, error: 'invalid_code' };
    this.#codes.delete(String(args.code));
    return this.#answer(install);
  }

  #answer(install: FakeInstall): Record<string, unknown> {
    const rotating = install.expiresIn !== undefined;
    this.#issued += 1;
    const refreshToken = rotating ? `xoxe-1-refresh-${this.#issued}` : undefined;
    if (refreshToken !== undefined) this.#refreshTokens.set(refreshToken, install);
    return {
      ok: true,
      access_token: install.botToken,
      token_type: 'bot',
      scope: install.scope ?? 'commands,chat:write',
      bot_user_id: fakeBotUserId,
      app_id: fakeAppId,
      team: install.team ?? null,
      enterprise: install.enterprise ?? null,
      is_enterprise_install: install.isEnterpriseInstall ?? false,
      authed_user: { id: install.installerId ?? 'U0INSTALL' },
      ...(rotating ? { expires_in: install.expiresIn, refresh_token: refreshToken } : {}),
    };
  }
}
