/**
 * The settings the app and the scheduler job share (the analytics service, lookups, digest
 * storage and policy), with their defaults and the one reader of each.
 */
import { z } from 'zod';
import { defined } from '../model/defined.ts';
import { earliestDataDate } from '../model/lookup.ts';
import { booleanWords, type Env, integerVar, present, urlVar } from './env.ts';
import { Secret } from './secret.ts';

export interface AnalyticsConfig {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** The word before the access token on data requests; `Bearer` unless the service says else. */
  readonly authScheme: string;
}

export interface LookupPolicy {
  /** After this long without an answer, the pending message is updated once to say so. */
  readonly progressUpdateMs: number;
  /** The final deadline of one lookup, retries included; far inside response_url's 30 minutes. */
  readonly timeoutMs: number;
  /** How long an ack may wait for users.info before falling back to UTC. */
  readonly userZoneWaitMs: number;
  /** How long an analytics answer is reused (Share in channel, repeated questions). */
  readonly responseCacheTtlMs: number;
  /**
   * The first day with data (`YYYY-MM-DD`): a window starting before it, in the request's zone, is
   * refused while parsing instead of being sent to a service that cannot serve it.
   */
  readonly earliestDataDate: string;
}

/** Where digests are stored: PostgreSQL when a URL is set, else the SQLite file. */
export interface StorageConfig {
  readonly databaseUrl?: Secret;
  /** Overrides what DATABASE_URL implies about TLS; see `postgresConnectionConfig`. */
  readonly databaseTls?: PostgresTls;
  /** Default `./data/digests.sqlite`. */
  readonly sqlitePath?: string;
  /**
   * How long PostgreSQL may take to accept a connection (or the pool to hand one out); set only
   * when DATABASE_CONNECT_TIMEOUT_MS is, else `configDefaults.databaseConnectTimeoutMs`.
   */
  readonly databaseConnectTimeoutMs?: number;
  /**
   * How long one PostgreSQL statement may take before the server cancels it and the app stops
   * waiting; set only when DATABASE_STATEMENT_TIMEOUT_MS is, else
   * `configDefaults.databaseStatementTimeoutMs`.
   */
  readonly databaseStatementTimeoutMs?: number;
}

/** How this instance runs scheduled digests. */
export interface DigestPolicy {
  /** False when a platform scheduler runs `digests run-due` instead of the in-app timer. */
  readonly timerEnabled: boolean;
  /** Between two ticks of the in-app timer. */
  readonly tickMs: number;
  /** A missed slot younger than this is still posted once; older ones are skipped. */
  readonly graceMs: number;
  /** Failed runs in a row before a digest is paused and its creator told. */
  readonly maxConsecutiveFailures: number;
}

/** Defaults, named for what they protect. */
export const configDefaults = {
  port: 3000,
  progressUpdateMs: 8_000,
  lookupTimeoutMs: 120_000,
  userZoneWaitMs: 1_000,
  responseCacheTtlMs: 60_000,
  earliestDataDate,
  digestTickMs: 30_000,
  digestGraceMs: 3_600_000,
  digestMaxFailures: 3,
  /**
   * A database that accepts connections but never answers must not hold a command: a connection
   * and a statement each give up after a few seconds, so a command that needs the store answers
   * within 10 s, saying the store is unavailable.
   */
  databaseConnectTimeoutMs: 5_000,
  databaseStatementTimeoutMs: 5_000,
} as const;

/** The lookup policy of a process that reads no lookup settings (a scheduler job). */
export const defaultLookupPolicy: LookupPolicy = {
  progressUpdateMs: configDefaults.progressUpdateMs,
  timeoutMs: configDefaults.lookupTimeoutMs,
  userZoneWaitMs: configDefaults.userZoneWaitMs,
  responseCacheTtlMs: configDefaults.responseCacheTtlMs,
  earliestDataDate: configDefaults.earliestDataDate,
};

/** response_url stays usable for 30 minutes; the final answer must arrive well before that. */
export const maxLookupTimeoutMs = 25 * 60_000;
/** Slack waits 3 s for an ack; the users.info wait must leave room for everything else. */
export const maxUserZoneWaitMs = 2_000;

export const analyticsVars = [
  'ANALYTICS_BASE_URL',
  'ANALYTICS_CLIENT_ID',
  'ANALYTICS_CLIENT_SECRET',
];

/** Every DATABASE_TLS value, which the `--tls` flag of the CLI accepts too. */
export const postgresTlsModes = ['off', 'no-verify', 'verify'] as const;

/** How the digest store's PostgreSQL connection uses TLS; see `postgresConnectionConfig`. */
export type PostgresTls = (typeof postgresTlsModes)[number];

/** LOOKUP_EARLIEST_DATE: a real calendar day from 1970 on, written `YYYY-MM-DD`. */
export function readEarliestDataDate(env: Env, problems: string[]): string {
  const raw = present(env, 'LOOKUP_EARLIEST_DATE');
  if (raw === undefined) return configDefaults.earliestDataDate;
  const parsed = z.iso.date().safeParse(raw);
  if (parsed.success && parsed.data >= '1970-01-01') return parsed.data;
  problems.push(
    `LOOKUP_EARLIEST_DATE must be a day from 1970 on written YYYY-MM-DD, such as ${configDefaults.earliestDataDate} (got "${raw}"); unset it to use ${configDefaults.earliestDataDate}.`,
  );
  return configDefaults.earliestDataDate;
}

/** An HTTP auth scheme is one token (RFC 9110 §11.1): `Bearer`, `Token`, `OAuth`. */
export function readAuthScheme(env: Env, problems: string[]): string {
  const raw = present(env, 'ANALYTICS_AUTH_SCHEME');
  if (raw === undefined) return 'Bearer';
  if (/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(raw)) return raw;
  problems.push(
    `ANALYTICS_AUTH_SCHEME must be one word such as Bearer or Token (got "${raw}"); unset it for Bearer.`,
  );
  return 'Bearer';
}

/**
 * The analytics service variables, read the same way for the app and the scheduler job. When
 * `optional`, none set means no service (the console's sandbox) and only a partial set is a problem;
 * otherwise each missing variable is one problem ending in `whyNeeded`.
 */
export function readAnalytics(
  env: Env,
  problems: string[],
  need: { readonly optional: boolean; readonly whyNeeded: string },
): AnalyticsConfig | undefined {
  const set = analyticsVars.filter((name) => present(env, name) !== undefined);
  const baseUrl = urlVar(env, problems, 'ANALYTICS_BASE_URL', 'https://api.example.com');
  const clientId = present(env, 'ANALYTICS_CLIENT_ID');
  const clientSecret = present(env, 'ANALYTICS_CLIENT_SECRET');
  if (set.length > 0 || !need.optional) {
    for (const name of analyticsVars.filter((n) => !set.includes(n))) {
      problems.push(`${name} is missing: ${need.whyNeeded}`);
    }
  }
  const complete = baseUrl !== undefined && clientId !== undefined && clientSecret !== undefined;
  // Only a console without a service skips the scheme: it has nothing to send it to.
  const authScheme = complete || !need.optional ? readAuthScheme(env, problems) : 'Bearer';
  return complete
    ? { baseUrl, clientId, clientSecret: new Secret(clientSecret), authScheme }
    : undefined;
}

export function readStorage(env: Env, problems: string[]): StorageConfig {
  const databaseUrl = present(env, 'DATABASE_URL');
  if (databaseUrl !== undefined) {
    // The URL carries a password: problems name its scheme at most, never the value.
    const parsed = z.url({ protocol: /^postgres(ql)?$/ }).safeParse(databaseUrl);
    if (!parsed.success) {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(databaseUrl)?.[1];
      problems.push(
        `DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/db${scheme ? ` (got a ${scheme}: URL)` : ''}; unset it to store digests in SQLite.`,
      );
    }
  }
  const tlsRaw = present(env, 'DATABASE_TLS')?.toLowerCase();
  let databaseTls: PostgresTls | undefined;
  if (tlsRaw !== undefined) {
    const parsed = z.enum(postgresTlsModes).safeParse(tlsRaw);
    if (parsed.success) databaseTls = parsed.data;
    else
      problems.push(
        `DATABASE_TLS must be one of ${postgresTlsModes.join(', ')} (got "${tlsRaw}"); unset it to decide from DATABASE_URL (Heroku Postgres needs no-verify, the default for remote hosts).`,
      );
  }
  const sqlitePath = present(env, 'DIGESTS_SQLITE_PATH');
  return {
    ...(databaseUrl === undefined ? {} : { databaseUrl: new Secret(databaseUrl) }),
    ...defined({ databaseTls }),
    ...defined({ sqlitePath }),
    ...defined({
      databaseConnectTimeoutMs: optionalInteger(
        env,
        problems,
        'DATABASE_CONNECT_TIMEOUT_MS',
        configDefaults.databaseConnectTimeoutMs,
        60_000,
      ),
      databaseStatementTimeoutMs: optionalInteger(
        env,
        problems,
        'DATABASE_STATEMENT_TIMEOUT_MS',
        configDefaults.databaseStatementTimeoutMs,
        600_000,
      ),
    }),
  };
}

/** A store timeout from 100 ms, present only when its variable is set. */
function optionalInteger(
  env: Env,
  problems: string[],
  name: string,
  fallback: number,
  max: number,
): number | undefined {
  if (present(env, name) === undefined) return undefined;
  return integerVar(env, problems, name, fallback, 100, max);
}

/**
 * Where the digest store is, for messages: PostgreSQL's host, port and database (never the user or
 * password in the URL), else the SQLite file.
 */
export function storeWhere(databaseUrl: string | undefined, sqlitePath: string): string {
  if (databaseUrl === undefined) return `SQLite ${sqlitePath}`;
  const url = new URL(databaseUrl);
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/** `forJob`: one tick of `digests run-due`, which no timer setting constrains. */
export function readDigestPolicy(env: Env, problems: string[], forJob = false): DigestPolicy {
  const enabledRaw = present(env, 'DIGESTS_ENABLED')?.toLowerCase();
  let timerEnabled = true;
  if (enabledRaw !== undefined) {
    const value = booleanWords[enabledRaw];
    if (value === undefined) {
      problems.push(
        `DIGESTS_ENABLED must be true or false (got "${enabledRaw}"); set it to false when a platform scheduler runs \`npm run digests:run-due\` instead of the in-app timer.`,
      );
    } else {
      timerEnabled = value;
    }
  }
  const tickMs = integerVar(
    env,
    problems,
    'DIGEST_TICK_MS',
    configDefaults.digestTickMs,
    1_000,
    3_600_000,
  );
  const graceMs = integerVar(
    env,
    problems,
    'DIGEST_GRACE_MS',
    configDefaults.digestGraceMs,
    60_000,
    7 * 24 * 3_600_000,
  );
  const maxConsecutiveFailures = integerVar(
    env,
    problems,
    'DIGEST_MAX_FAILURES',
    configDefaults.digestMaxFailures,
    1,
    100,
  );
  if (!forJob && timerEnabled && tickMs >= graceMs) {
    problems.push(
      `DIGEST_TICK_MS (${tickMs}) must be shorter than DIGEST_GRACE_MS (${graceMs}): a slot falling between two ticks would be older than the grace window and skipped.`,
    );
  }
  return { timerEnabled, tickMs, graceMs, maxConsecutiveFailures };
}

/** LOOKUP_TIMEOUT_MS: the deadline of one analytics call, retries included. */
export function readLookupTimeoutMs(env: Env, problems: string[]): number {
  return integerVar(
    env,
    problems,
    'LOOKUP_TIMEOUT_MS',
    configDefaults.lookupTimeoutMs,
    1_000,
    maxLookupTimeoutMs,
  );
}
