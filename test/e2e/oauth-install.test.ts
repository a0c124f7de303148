/**
 * "Add to Slack" end to end over HTTP: the install page, Slack's authorize link it holds, the
 * redirect back with a code, the installation stored sealed, and a request from the new workspace
 * answered with that workspace's own token; and each way an install fails, as a page in words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKey, EncryptionKey } from '../../src/config/encryption-keys.ts';
import { fakeClientId, fakeClientSecret } from '../helpers/fake-oauth.ts';
import { type Harness, slackApiUrl, startHarness } from '../helpers/harness.ts';
import { slashCommand } from '../helpers/payloads.ts';

const encryptionKey = 'cd'.repeat(32);
const publicUrl = 'https://influencers.example.com';
const secondTeam = { id: 'T0SECOND1', name: 'Second & Co' };
const secondToken = 'xoxb-second-workspace-token';

let harness: Harness;
let folder: string;
let sqlitePath: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'oauth-install-'));
  sqlitePath = join(folder, 'store.sqlite');
  harness = await startHarness({
    env: {
      SLACK_BOT_TOKEN: '',
      SLACK_CLIENT_ID: fakeClientId,
      SLACK_CLIENT_SECRET: fakeClientSecret,
      SLACK_STATE_SECRET: 'state-secret-for-tests-0123456789abcdef',
      PUBLIC_URL: publicUrl,
      APP_ENCRYPTION_KEY: encryptionKey,
      DIGESTS_SQLITE_PATH: sqlitePath,
    },
  });
});

afterAll(async () => {
  await harness?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** An install page opened in a browser: Slack's authorize link, and the cookie it set. */
async function openInstallPage() {
  const response = await fetch(`${harness.url}/slack/install`);
  const html = await response.text();
  const href = /<a href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(html)?.[1];
  if (href === undefined) throw new Error(`no Add to Slack link in ${html}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { response, html, link: new URL(href.replaceAll('&amp;', '&')), cookie };
}

function redirect(query: Record<string, string>, cookie: string) {
  return fetch(`${harness.url}/slack/oauth_redirect?${new URLSearchParams(query)}`, {
    headers: { cookie },
  });
}

describe('Add to Slack', () => {
  let state = '';
  let cookie = '';
  let code = '';

  it('serves an install page saying what the app does, its scopes and why, and the button', async () => {
    const page = await openInstallPage();
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.html).toContain('tells you who drove a healthcare conversation');
    expect(page.html).toContain('<dt>users:read</dt><dd>reads your time zone');
    expect(page.html).toContain(`<a href="${publicUrl}/privacy">privacy notice</a>`);
    expect(page.html).toContain('alt="Add to Slack"');
    expect(page.html).not.toContain('<script');

    expect(page.link.origin + page.link.pathname).toBe(
      new URL('/oauth/v2/authorize', slackApiUrl).href,
    );
    expect(page.link.searchParams.get('client_id')).toBe(fakeClientId);
    expect(page.link.searchParams.get('redirect_uri')).toBe(`${publicUrl}/slack/oauth_redirect`);
    const scopes = page.link.searchParams.get('scope')?.split(',') ?? [];
    expect(scopes).toEqual(expect.arrayContaining(['commands', 'chat:write', 'users:read']));
    state = page.link.searchParams.get('state') ?? '';
    expect(state).toMatch(/^[\w-]+\.\d+\.[\w-]+$/);
    expect(page.cookie).toContain(state);
    cookie = page.cookie;
  });

  it('completes the install, stores it sealed, and says what to do next', async () => {
    code = harness.slack.oauth.codeFor({ team: secondTeam, botToken: secondToken });
    const response = await redirect({ code, state }, cookie);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('Influencers is installed in Second &amp; Co');
    expect(html).toContain('Home in Slack</a>: it shows what you can ask');
    expect(html).toContain('An admin of the workspace sets the analytics account');
    const exchange = harness.slack.calls.find((call) => call.method === 'oauth.v2.access');
    expect(exchange?.args).toMatchObject({
      code,
      redirect_uri: `${publicUrl}/slack/oauth_redirect`,
    });

    const key = new EncryptionKey(decodeKey(encryptionKey) ?? Buffer.alloc(0));
    const installs = harness.running.core.digests.database.installations.sealedWith(
      { current: key, previous: [] },
      { retentionMs: 0 },
    );
    const stored = await installs.fetchInstallation({
      teamId: secondTeam.id,
      isEnterpriseInstall: false,
    });
    expect(stored?.bot?.token.reveal()).toBe(secondToken);
    const raw = new DatabaseSync(sqlitePath, { readOnly: true });
    try {
      const rows = JSON.stringify(raw.prepare('SELECT * FROM installations').all());
      expect(rows).toContain(secondTeam.id);
      expect(rows).not.toContain(secondToken);
    } finally {
      raw.close();
    }
  });

  it("answers the new workspace's requests with its own token", async () => {
    const sent = await harness.send(
      slashCommand({ text: 'top 3 #hcsm last week', teamId: secondTeam.id }),
    );
    expect(sent.status).toBe(200);
    await harness.settled();
    const tokenCalls = harness.slack.calls.filter(
      (call) => call.kind === 'api' && call.method !== 'oauth.v2.access',
    );
    expect(tokenCalls.length).toBeGreaterThan(0);
    for (const call of tokenCalls) {
      if (call.method === 'auth.test') continue;
      expect(call.authorization).toBe(`Bearer ${secondToken}`);
    }
    expect(tokenCalls.some((call) => call.method === 'users.info')).toBe(true);
    expect(harness.logs.join('\n')).not.toContain(secondToken);
    expect(harness.logs.join('\n')).not.toContain(fakeClientSecret);
  });

  it('serves nothing to a workspace that never installed the app', async () => {
    const before = harness.slack.calls.length;
    const sent = await harness.send(slashCommand({ text: 'top 3 #hcsm', teamId: 'T0NOBODY1' }));
    await harness.settled();
    // Bolt's authorize refuses it: the request is acked and nothing reaches Slack.
    expect(sent.status).toBe(200);
    expect(harness.slack.calls.slice(before)).toEqual([]);
    const lines = harness.logs.filter((line) => line.includes('T0NOBODY1'));
    expect(lines).toEqual([expect.stringContaining('"level":40')]);
    expect(lines[0]).toContain('a request from a workspace the app is not installed in');
    expect(lines[0]).not.toContain('stack');
  });

  it('refuses a replayed state with a page in words', async () => {
    const response = await redirect({ code, state }, cookie);
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).toContain('This install link was already used');
    expect(html).toContain('Each install link works once');
    expect(html).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a state this app did not sign', async () => {
    const forged = `${state.split('.').slice(0, 2).join('.')}.not-the-signature`;
    const response = await redirect(
      { code: 'code-x', state: forged },
      `slack-app-oauth-state=${forged}`,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This install link is not valid');
  });

  it('says so in words when the installer chose not to allow the app', async () => {
    const page = await openInstallPage();
    const response = await redirect(
      { error: 'access_denied', state: page.link.searchParams.get('state') ?? '' },
      page.cookie,
    );
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('Influencers was not installed');
    expect(html).toContain('You chose not to allow it');
  });

  it('says so in words when Slack is down', async () => {
    const page = await openInstallPage();
    harness.slack.failHttp('oauth.v2.access', 503, 1);
    const code = harness.slack.oauth.codeFor({
      team: { id: 'T0THIRD01', name: 'Third' },
      botToken: 'xoxb-third',
    });
    const response = await redirect(
      { code, state: page.link.searchParams.get('state') ?? '' },
      page.cookie,
    );
    const html = await response.text();
    expect(response.status).toBe(502);
    expect(html).toContain('Slack could not be reached');
    expect(html).toContain('Start the install again');
  });

  it('serves the privacy notice', async () => {
    const response = await fetch(`${harness.url}/privacy`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('What it stores');
  });
});
