import { afterEach } from 'vitest';
import {
  influencersPath,
  type Sandbox,
  startSandbox,
  tokenPath,
} from '../../src/sandbox/server.ts';

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export const form = { 'content-type': 'application/x-www-form-urlencoded' };

export async function requestToken(
  url: string,
  id = 'demo-client',
  secret = 'demo-secret',
): Promise<string> {
  const response = await fetch(`${url}${tokenPath}`, {
    method: 'POST',
    headers: { ...form, authorization: basic(id, secret) },
    body: 'grant_type=client_credentials',
  });
  if (response.status !== 200) throw new Error(`token request answered ${response.status}`);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

/**
 * A `ready()` for a test file: a sandbox with the default options and a token from it; each test's
 * sandbox is closed after that test.
 */
export function sandboxPerTest(): () => Promise<{ sandbox: Sandbox; token: string }> {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return async () => {
    sandbox = await startSandbox();
    return { sandbox, token: await requestToken(sandbox.url) };
  };
}

/** Builds a query string with %20 for spaces and %23 for '#', as the spec asks. */
export function query(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
}

export function influencers(
  url: string,
  token: string,
  params: Record<string, string> | string,
): Promise<Response> {
  const search = typeof params === 'string' ? params : query(params);
  return fetch(`${url}${influencersPath}?${search}`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

export interface WireBody {
  influencers: {
    symplurrank: number;
    hsg_score: number;
    mentions: number;
    tweets: number;
    retweets: number;
    replies: number;
    impressions: number;
    user: {
      screen_name: string;
      display_name?: string;
      profile_image?: string;
      hsg_score: number;
      stakeholder_categories?: { id: number; name: string }[];
      followers_count: number;
    };
  }[];
  databases: string[];
  start: string;
  end: string;
  timezone: string;
}
