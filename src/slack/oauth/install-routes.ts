/**
 * "Add to Slack" over HTTP, on Bolt's installer (`@slack/oauth`'s InstallProvider): `GET
 * /slack/install` is the install page with its signed, single-use state (and the browser cookie
 * the installer binds it to), the redirect path completes the install with oauth.v2.access and
 * stores it sealed, and `GET /privacy` is the privacy notice. Every other request goes on to
 * `next`. A failure is a page in words, never a stack trace.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type CallbackOptions, type Installation, InstallProvider } from '@slack/oauth';
import type { OAuthConfig } from '../../config/oauth.ts';
import { AppError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { defined } from '../../model/defined.ts';
import {
  type InstallFailure,
  installedPage,
  installFailedPage,
  installFailureStatus,
  installPage,
  privacyPage,
} from '../../render/install-pages.ts';
import type { InstallationRepository } from '../../store/installations.ts';
import type { SightingRepository } from '../../store/sightings.ts';
import { boltInstallationStore } from '../installation-store.ts';
import { boltLogger } from '../process/bolt-logger.ts';
import { webClientOptions } from '../web-api/client.ts';
import { eventScopes, featureScopes, webApiScopes } from '../web-api/scopes.ts';
import { StateRejectedError, signedStateStore, stateTtlMs } from './state.ts';

export const installPath = '/slack/install';
export const privacyPath = '/privacy';

/** How long oauth.v2.access may take before the installer is told Slack did not answer. */
const oauthCallTimeoutMs = 10_000;

/** Every bot scope the app's calls, events and features need: what an install asks for. */
export function requestedScopes(): string[] {
  const all = [
    ...Object.values(webApiScopes).flat(),
    ...Object.values(eventScopes).flat(),
    ...featureScopes,
  ];
  return [...new Set<string>(all)].sort();
}

export interface InstallRoutesOptions {
  readonly oauth: OAuthConfig;
  readonly installations: () => InstallationRepository;
  readonly sightings: () => SightingRepository;
  readonly logger: Logger;
  readonly apiUrl?: string;
  readonly fetch?: typeof fetch;
  readonly now?: () => Date;
  /** Told of each finished install, so what was cached of the workspace is read again. */
  readonly installed?: (installation: Installation) => void;
}

/** Slack's authorize page, on the host SLACK_API_URL names (GovSlack's for slack-gov.com). */
export function authorizationUrl(apiUrl: string | undefined): string {
  return new URL('/oauth/v2/authorize', apiUrl ?? 'https://slack.com/api/').href;
}

/** What a failed install is, from the installer's coded errors and the Web API's. */
export function installFailure(error: unknown): InstallFailure {
  if (error instanceof StateRejectedError) {
    return error.problem === 'expired'
      ? 'state_expired'
      : error.problem === 'replayed'
        ? 'state_replayed'
        : 'state_invalid';
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'slack_oauth_installer_authorization_error':
      return 'denied';
    case 'slack_oauth_invalid_state':
    case 'slack_oauth_missing_state':
      return 'state_invalid';
    case 'slack_oauth_missing_code':
      return 'incomplete';
    case 'slack_webapi_platform_error':
      return 'refused';
    case 'slack_webapi_request_error':
    case 'slack_webapi_http_error':
    case 'slack_webapi_rate_limited_error':
      return 'slack_unavailable';
  }
  if (error instanceof AppError && error.code === 'store_unavailable') {
    return 'store_unavailable';
  }
  return 'unknown';
}

function send(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; img-src https:; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  });
  res.end(html);
}

/** Puts the install, redirect and privacy pages in front of `next`. */
export function installRoutes(
  options: InstallRoutesOptions,
): (next: RequestListener) => RequestListener {
  const { oauth } = options;
  const now = options.now ?? (() => new Date());
  const scopes = requestedScopes();
  const log = options.logger.child({ component: 'install' });
  const redirectPath = new URL(oauth.redirectUri).pathname;
  const installOptions = { scopes, redirectUri: oauth.redirectUri };
  let provider: InstallProvider | undefined;
  // Built at the first request: the store it saves into opens after the routes are made.
  const installer = () => {
    provider ??= new InstallProvider({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret.reveal(),
      stateStore: signedStateStore({
        secret: oauth.stateSecret,
        sightings: options.sightings,
        installOptions,
      }),
      stateCookieExpirationSeconds: stateTtlMs / 1000,
      installationStore: boltInstallationStore(options.installations(), now),
      installUrlOptions: installOptions,
      authorizationUrl: authorizationUrl(options.apiUrl),
      renderHtmlForInstallPath: (url) =>
        installPage({ installUrl: url, scopes, privacyUrl: oauth.privacyUrl }),
      logger: boltLogger(log),
      clientOptions: {
        ...webClientOptions({
          retryConfig: { retries: 0 },
          timeoutMs: oauthCallTimeoutMs,
          logger: log,
          ...defined({ fetch: options.fetch, apiUrl: options.apiUrl }),
        }),
      },
    });
    return provider;
  };
  const callbacks: CallbackOptions = {
    success: (installation, _options, _req, res) => {
      options.installed?.(installation);
      const teamId = installation.team?.id;
      log.info(
        {
          team: teamId,
          enterprise: installation.enterprise?.id,
          orgWide: installation.isEnterpriseInstall ?? false,
        },
        'installed',
      );
      send(
        res,
        200,
        installedPage({
          ...defined({
            name: installation.team?.name ?? installation.enterprise?.name,
            homeUrl:
              teamId && installation.appId
                ? `slack://app?team=${encodeURIComponent(teamId)}&id=${encodeURIComponent(installation.appId)}&tab=home`
                : undefined,
          }),
        }),
      );
    },
    failure: (error, _options, _req, res) => {
      const failure = installFailure(error);
      if (failure === 'unknown') log.error({ err: error }, 'an install did not finish');
      else log.info({ failure }, 'an install did not finish');
      send(res, installFailureStatus[failure], installFailedPage(failure, installPath));
    },
  };

  return (next) => (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return next(req, res);
    const fail = (error: unknown) => {
      log.error({ err: error }, 'an install page failed');
      send(res, 500, installFailedPage('unknown', installPath));
    };
    if (path === installPath) {
      installer().handleInstallPath(req, res).catch(fail);
    } else if (path === redirectPath) {
      installer().handleCallback(req, res, callbacks).catch(fail);
    } else if (path === privacyPath) {
      send(res, 200, privacyPage({ installPath }));
    } else {
      next(req, res);
    }
  };
}
