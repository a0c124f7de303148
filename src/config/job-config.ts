import pkg from '../../package.json' with { type: 'json' };
import { ConfigError } from '../errors.ts';
import { defined } from '../model/defined.ts';
import {
  deepFreeze,
  type Env,
  howToFindSlack,
  type LogLevel,
  readBotToken,
  readLogLevel,
  readSlackApiUrl,
} from './env.ts';
import type { Secret } from './secret.ts';
import {
  type AnalyticsConfig,
  type DigestPolicy,
  readAnalytics,
  readDigestPolicy,
  readLookupTimeoutMs,
  readStorage,
  type StorageConfig,
} from './sections.ts';

/**
 * Only where the digest store is (`npm run migrate`): DATABASE_URL, DATABASE_TLS and
 * DIGESTS_SQLITE_PATH, checked as the app checks them.
 *
 * @throws ConfigError listing every problem found.
 */
export function loadStorageConfig(env: Env = process.env): StorageConfig {
  const problems: string[] = [];
  const storage = readStorage(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(storage);
}

/** What `digests run-due` needs: no signing secret or app token, since it never receives requests. */
export interface DigestJobConfig {
  readonly version: string;
  readonly logLevel: LogLevel;
  readonly slack: { readonly botToken: Secret; readonly apiUrl?: string };
  readonly analytics: AnalyticsConfig;
  /** Deadline of one analytics call, retries included (LOOKUP_TIMEOUT_MS). */
  readonly analyticsTimeoutMs: number;
  readonly storage: StorageConfig;
  readonly digests: Pick<DigestPolicy, 'graceMs' | 'maxConsecutiveFailures'>;
}

/**
 * Reads the settings of a scheduler job (`npm run digests:run-due`): the bot token to post with,
 * the analytics service, storage and the digest policy. Unlike {@link loadConfig} it chooses no
 * mode, so a cron job needs neither the signing secret nor an app token.
 *
 * @throws ConfigError listing every problem found, each missing variable by name.
 */
export function loadDigestJobConfig(env: Env = process.env): DigestJobConfig {
  const problems: string[] = [];
  const botToken = readBotToken(env, problems);
  if (botToken === undefined) {
    problems.push(
      `SLACK_BOT_TOKEN is missing: digests are posted with the bot token (${howToFindSlack.SLACK_BOT_TOKEN}).`,
    );
  }
  const apiUrl = readSlackApiUrl(env, problems);
  const analytics = readAnalytics(env, problems, {
    optional: false,
    whyNeeded:
      'digests ask the analytics service (ANALYTICS_BASE_URL, ANALYTICS_CLIENT_ID, ANALYTICS_CLIENT_SECRET).',
  });
  const logLevel = readLogLevel(env, problems, 'info');
  const analyticsTimeoutMs = readLookupTimeoutMs(env, problems);
  const storage = readStorage(env, problems);
  const { graceMs, maxConsecutiveFailures } = readDigestPolicy(env, problems, true);
  if (problems.length > 0 || !botToken || !analytics) {
    throw new ConfigError(problems);
  }
  return deepFreeze({
    version: pkg.version,
    logLevel,
    slack: { botToken, ...defined({ apiUrl }) },
    analytics,
    analyticsTimeoutMs,
    storage,
    digests: { graceMs, maxConsecutiveFailures },
  });
}
