import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptionKey } from '../../../src/config/encryption-keys.ts';
import { Secret } from '../../../src/config/secret.ts';
import { silentLogger } from '../../../src/logger.ts';
import {
  type InstallationAccess,
  installationAccess,
  tokenExpirySkewMs,
} from '../../../src/slack/oauth/installation-access.ts';
import { UserDirectory } from '../../../src/slack/web-api/user-directory.ts';
import type { Database } from '../../../src/store/database.ts';
import type { Installation, InstallationRepository } from '../../../src/store/installations.ts';
import { openDatabase } from '../../../src/store/open.ts';
import { fakeClientId, fakeClientSecret } from '../../helpers/fake-oauth.ts';
import { FakeSlack } from '../../helpers/fake-slack.ts';

const apiUrl = 'http://slack.test/api/';
const keyring = { current: new EncryptionKey(Buffer.alloc(32, 7)), previous: [] };
const now = new Date('2026-11-28T10:00:00Z');

let store: Database;
let installs: InstallationRepository;
let slack: FakeSlack;

beforeEach(async () => {
  store = await openDatabase({ sqlitePath: ':memory:' });
  installs = store.installations.sealedWith(keyring, { retentionMs: 0 });
  slack = new FakeSlack({ apiUrl });
});

afterEach(async () => {
  await store.close();
});

/** An instance of the app reading the shared store. */
function instance(owner: string): InstallationAccess {
  return installationAccess({
    installations: () => installs,
    clientId: fakeClientId,
    clientSecret: new Secret(fakeClientSecret),
    logger: silentLogger,
    directory: new UserDirectory(),
    apiUrl,
    fetch: slack.fetch,
    now: () => now,
    owner,
  });
}

/** A workspace installed with token rotation, its token expiring within the refresh skew. */
async function installRotating(teamId: string): Promise<string> {
  const code = slack.oauth.codeFor({
    team: { id: teamId, name: 'Rotating' },
    botToken: `xoxe.xoxb-${teamId}-first`,
    expiresIn: 43_200,
  });
  const answer = slack.oauth.access({
    client_id: fakeClientId,
    client_secret: fakeClientSecret,
    code,
  });
  const installation: Installation = {
    team: { id: teamId, name: 'Rotating' },
    isEnterpriseInstall: false,
    authVersion: 'v2',
    bot: {
      token: new Secret(String(answer.access_token)),
      refreshToken: new Secret(String(answer.refresh_token)),
      expiresAt: new Date(now.getTime() + tokenExpirySkewMs / 2),
      id: 'B1',
      userId: 'U0BOT',
      scopes: ['commands'],
    },
    user: { id: 'U1' },
  };
  await installs.storeInstallation(installation, now);
  return String(answer.access_token);
}

const refreshCalls = () =>
  slack.calls.filter(
    (call) => call.method === 'oauth.v2.access' && call.args.grant_type === 'refresh_token',
  );

describe('installationAccess', () => {
  it('authorizes a workspace with its own token, and calls Slack with it', async () => {
    await installs.storeInstallation(
      {
        team: { id: 'T1' },
        isEnterpriseInstall: false,
        authVersion: 'v2',
        bot: { token: new Secret('xoxb-T1'), id: 'B1', userId: 'U0BOT', scopes: ['commands'] },
        user: { id: 'U1' },
      },
      now,
    );
    const access = instance('a');
    await expect(access.authorize({ teamId: 'T1' })).resolves.toMatchObject({
      botToken: 'xoxb-T1',
      botId: 'B1',
      botUserId: 'U0BOT',
    });
    expect(access.forTeam('T1').botToken()).toBe('xoxb-T1');
    await access.forTeam('T1').chat.auth.test();
    expect(slack.calls.at(-1)?.authorization).toBe('Bearer xoxb-T1');
  });

  it('serves an org-wide install by its enterprise id, and to its workspaces', async () => {
    await installs.storeInstallation(
      {
        enterprise: { id: 'E1', name: 'Health Org' },
        isEnterpriseInstall: true,
        authVersion: 'v2',
        bot: { token: new Secret('xoxb-org-E1'), id: 'B2', userId: 'U0BOT2', scopes: [] },
        user: { id: 'U2' },
      },
      now,
    );
    const access = instance('a');
    const authorized = await access.authorize({
      teamId: 'T9',
      enterpriseId: 'E1',
      isEnterpriseInstall: true,
    });
    expect(authorized).toMatchObject({ botToken: 'xoxb-org-E1', enterpriseId: 'E1' });
    await access.forTeam('T9').chat.auth.test();
    expect(slack.calls.at(-1)?.authorization).toBe('Bearer xoxb-org-E1');
  });

  it('refuses a workspace with no installation', async () => {
    await expect(instance('a').authorize({ teamId: 'T0NONE' })).rejects.toThrow(
      'not_installed team:T0NONE',
    );
    await expect(instance('a').forTeam('T0NONE').chat.auth.test()).rejects.toThrow('not_installed');
    expect(slack.calls).toEqual([]);
  });

  it('refreshes a token close to its expiry once, however many instances ask at once', async () => {
    const first = await installRotating('T2');
    const [a, b] = [instance('a'), instance('b')];
    const answers = await Promise.all([
      a.authorize({ teamId: 'T2' }),
      b.authorize({ teamId: 'T2' }),
      a.authorize({ teamId: 'T2' }),
    ]);
    expect(refreshCalls()).toHaveLength(1);
    expect(refreshCalls()[0]?.args).toMatchObject({
      client_id: fakeClientId,
      refresh_token: expect.stringMatching(/^xoxe-1-refresh-/),
    });
    const stored = await installs.fetchInstallation({ teamId: 'T2', isEnterpriseInstall: false });
    const refreshed = stored?.bot?.token.reveal();
    expect(refreshed).toMatch(/^xoxe\.xoxb-refreshed-/);
    expect(stored?.bot?.expiresAt).toEqual(new Date(now.getTime() + 43_200_000));
    // The instance that did not hold the lease served the old token, still good for the skew.
    for (const answer of answers) expect([first, refreshed]).toContain(answer.botToken);
    // Its next request reads what the other stored, without refreshing again.
    await expect(b.authorize({ teamId: 'T2' })).resolves.toMatchObject({ botToken: refreshed });
    await expect(a.authorize({ teamId: 'T2' })).resolves.toMatchObject({ botToken: refreshed });
    expect(refreshCalls()).toHaveLength(1);
  });

  it('gives the lease back when Slack refuses the refresh, so a later request tries again', async () => {
    await installRotating('T3');
    slack.failHttp('oauth.v2.access', 503, 1);
    const a = instance('a');
    await expect(a.authorize({ teamId: 'T3' })).rejects.toThrow();
    await expect(instance('b').authorize({ teamId: 'T3' })).resolves.toMatchObject({
      botToken: expect.stringMatching(/^xoxe\.xoxb-refreshed-/),
    });
  });
});
