/**
 * The one place an analytics client is built from settings: the app, the console and the
 * scheduler job each call it, so they cannot drift apart in how they reach the service.
 */
import type { AnalyticsConfig } from '../config/sections.ts';
import type { Logger } from '../logger.ts';
import { defined } from '../model/defined.ts';
import { AnalyticsClient } from './client.ts';

/** The console's in-process sandbox: a plain secret, the default auth scheme. */
export interface SandboxAnalyticsSettings {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** How long a call may take and how long its answer is reused. */
export interface AnalyticsCallPolicy {
  /** Deadline of one call, retries included. */
  readonly timeoutMs: number;
  /** Default: the client's own. */
  readonly responseCacheTtlMs?: number;
}

/**
 * Builds the client when a process starts; the configured secret is revealed here and nowhere
 * else. Its logs are a child of `logger` tagged `component: analytics`.
 */
export function analyticsClientFor(
  settings: AnalyticsConfig | SandboxAnalyticsSettings,
  policy: AnalyticsCallPolicy,
  logger: Logger,
): AnalyticsClient {
  return new AnalyticsClient({
    baseUrl: settings.baseUrl,
    clientId: settings.clientId,
    clientSecret:
      typeof settings.clientSecret === 'string'
        ? settings.clientSecret
        : settings.clientSecret.reveal(),
    ...('authScheme' in settings ? { authScheme: settings.authScheme } : {}),
    deadlineMs: policy.timeoutMs,
    ...defined({ responseCacheTtlMs: policy.responseCacheTtlMs }),
    logger: logger.child({ component: 'analytics' }),
  });
}
