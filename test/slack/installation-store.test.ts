import { randomBytes } from 'node:crypto';
import type { Installation as BoltInstallation } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptionKey } from '../../src/config/encryption-keys.ts';
import { boltInstallationStore } from '../../src/slack/installation-store.ts';
import type { Database } from '../../src/store/database.ts';
import { openDatabase } from '../../src/store/open.ts';

const now = new Date('2026-06-08T08:00:30Z');
const inADay = Math.floor(now.getTime() / 1000) + 86_400;
const keyring = { current: new EncryptionKey(randomBytes(32)), previous: [] };

const workspace = {
  team: { id: 'T1', name: 'Oncology Social' },
  enterprise: { id: 'E1', name: 'Health Org' },
  isEnterpriseInstall: false,
  appId: 'A1',
  authVersion: 'v2',
  tokenType: 'bot',
  bot: {
    token: 'xoxe.xoxb-1-bot',
    refreshToken: 'xoxe-1-refresh',
    expiresAt: inADay,
    id: 'B1',
    userId: 'U0BOT',
    scopes: ['commands', 'chat:write'],
  },
  user: { id: 'U1', token: undefined, scopes: undefined },
} satisfies BoltInstallation<'v2', false>;

const organization: BoltInstallation<'v2', true> = {
  team: undefined,
  enterprise: { id: 'E2', name: 'Other Org' },
  enterpriseUrl: 'https://other.enterprise.slack.com/',
  isEnterpriseInstall: true,
  appId: 'A1',
  authVersion: 'v2',
  tokenType: 'bot',
  bot: { token: 'xoxb-org', id: 'B2', userId: 'U0BOT2', scopes: ['commands'] },
  user: { id: 'U2', token: 'xoxp-installer', scopes: ['search:read'] },
};

describe('boltInstallationStore', () => {
  let db: Database;
  beforeEach(async () => {
    db = await openDatabase({ sqlitePath: ':memory:' });
  });
  afterEach(async () => {
    await db.close();
  });
  const store = () =>
    boltInstallationStore(
      db.installations.sealedWith(keyring, { retentionMs: 86_400_000 }),
      () => now,
    );

  it('gives Bolt back what its OAuth flow stored, workspace and org-wide alike', async () => {
    await store().storeInstallation(workspace);
    await store().storeInstallation(organization);
    const query = { teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: false } as const;
    expect(await store().fetchInstallation(query)).toEqual(workspace);
    expect(
      await store().fetchInstallation({
        teamId: undefined,
        enterpriseId: 'E2',
        isEnterpriseInstall: true,
      }),
    ).toEqual(organization);
  });

  it('refuses a workspace with no installation, and one uninstalled', async () => {
    const query = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false } as const;
    await expect(store().fetchInstallation(query)).rejects.toThrow(
      'No installation for workspace T1',
    );
    await store().storeInstallation(workspace);
    await store().deleteInstallation?.(query);
    await expect(store().fetchInstallation(query)).rejects.toThrow(
      'No installation for workspace T1',
    );
  });

  it("serves Bolt's authorize with the workspace's bot token", async () => {
    // Bolt reads its own clock: a token it sees expiring would be refreshed with Slack.
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    await store().storeInstallation({ ...workspace, bot: { ...workspace.bot, expiresAt } });
    const provider = new InstallProvider({
      clientId: 'client',
      clientSecret: 'secret',
      stateSecret: 'state-secret',
      installationStore: store(),
    });
    const authorized = await provider.authorize({
      teamId: 'T1',
      enterpriseId: 'E1',
      isEnterpriseInstall: false,
    });
    expect(authorized).toMatchObject({
      botToken: 'xoxe.xoxb-1-bot',
      botId: 'B1',
      botUserId: 'U0BOT',
      teamId: 'T1',
      enterpriseId: 'E1',
    });
  });
});
