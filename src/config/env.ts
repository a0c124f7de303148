/**
 * Readers of single environment variables: each returns the value or a fallback and adds one
 * actionable sentence to `problems` when the variable is set wrongly, so a start reports every
 * problem at once.
 */
import { z } from 'zod';
import { withoutUserinfo } from '../logger.ts';
import { Secret } from './secret.ts';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export type Env = Readonly<Record<string, string | undefined>>;

export function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function integerVar(
  env: Env,
  problems: string[],
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(
    `${name} must be a whole number from ${min} to ${max} (got "${raw}"); unset it to use ${fallback}.`,
  );
  return fallback;
}

/**
 * A URL as a problem may quote it: without the user and password a URL (or a string meant as one,
 * `user:password@host` without its scheme) may carry.
 */
function quotedUrl(raw: string): string {
  return withoutUserinfo(raw).replace(/^[^\s/?#@]*@/, '');
}

export function urlVar(
  env: Env,
  problems: string[],
  name: string,
  example: string,
): string | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  const parsed = z.url({ protocol: /^https?$/ }).safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(`${name} must be an http(s) URL such as ${example} (got "${quotedUrl(raw)}").`);
  return undefined;
}

export function tokenVar(
  env: Env,
  problems: string[],
  name: string,
  prefix: string,
  where: string,
): Secret | undefined {
  const raw = present(env, name);
  if (raw === undefined) return undefined;
  if (!raw.startsWith(prefix)) {
    problems.push(`${name} must start with "${prefix}": copy it from ${where}.`);
  }
  return new Secret(raw);
}

export const howToFindSlack = {
  SLACK_SIGNING_SECRET: 'Basic Information > App Credentials > Signing Secret',
  SLACK_BOT_TOKEN: 'OAuth & Permissions > Bot User OAuth Token (xoxb-...)',
  SLACK_APP_TOKEN:
    'Basic Information > App-Level Tokens, with the connections:write scope (xapp-...)',
} as const;

export const booleanWords: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
  on: true,
  off: false,
};

/**
 * SLACK_API_URL with the trailing slash @slack/web-api expects. A user or password in it is
 * refused, and the problem never quotes the value: Slack's Web API takes only the bot token, no
 * request can even be made to such a URL (fetch refuses it), and every failed attempt would print
 * the URL with its credentials.
 */
export function readSlackApiUrl(env: Env, problems: string[]): string | undefined {
  const raw = urlVar(env, problems, 'SLACK_API_URL', 'https://slack.com/api/');
  if (raw === undefined) return undefined;
  const { username, password } = new URL(raw);
  if (username !== '' || password !== '') {
    problems.push(
      'SLACK_API_URL must not contain a user name or password (the part before "@"): Slack takes only the bot token. Remove them, or unset SLACK_API_URL to use https://slack.com/api/.',
    );
    return undefined;
  }
  return raw.endsWith('/') ? raw : `${raw}/`;
}

export function readLogLevel(env: Env, problems: string[], fallback: LogLevel): LogLevel {
  const raw = present(env, 'LOG_LEVEL')?.toLowerCase();
  if (raw === undefined) return fallback;
  const parsed = z.enum(logLevels).safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')} (got "${raw}").`);
  return fallback;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Secret)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** SLACK_BOT_TOKEN, which every mode that talks to Slack needs. */
export function readBotToken(env: Env, problems: string[]): Secret | undefined {
  return tokenVar(env, problems, 'SLACK_BOT_TOKEN', 'xoxb-', howToFindSlack.SLACK_BOT_TOKEN);
}
