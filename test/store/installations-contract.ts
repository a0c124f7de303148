/**
 * The part of the Database contract about the app's installations: their sealed tokens, the
 * org-wide installs, uninstalls with their retention, the refresh lease and key rotation.
 * `database.test.ts` runs it per adapter, beside `storeContract`.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptionKey, type Keyring } from '../../src/config/encryption-keys.ts';
import { Secret } from '../../src/config/secret.ts';
import { SealedValueError } from '../../src/errors.ts';
import type { Installation, InstallationRepository } from '../../src/store/installations.ts';
import type { StoreFixture } from './store-contract.ts';

const now = new Date('2026-06-08T08:00:30Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const day = 86_400_000;
const retention = { retentionMs: 30 * day };

export const keyA = new EncryptionKey(randomBytes(32));
export const keyB = new EncryptionKey(randomBytes(32));
export const ringA: Keyring = { current: keyA, previous: [] };
export const ringBA: Keyring = { current: keyB, previous: [keyA] };

/** A workspace install with every field, tokens marked with the team id so a mix-up shows. */
export function workspaceInstall(teamId = 'T1', extra: Partial<Installation> = {}): Installation {
  return {
    team: { id: teamId, name: 'Oncology Social' },
    enterprise: { id: 'E1', name: 'Health Org' },
    isEnterpriseInstall: false,
    appId: 'A1',
    authVersion: 'v2',
    bot: {
      token: new Secret(`xoxe.xoxb-1-${teamId}-bot`),
      refreshToken: new Secret(`xoxe-1-${teamId}-bot-refresh`),
      expiresAt: later(12 * 3_600_000),
      id: 'B1',
      userId: 'U0BOT',
      scopes: ['commands', 'chat:write'],
    },
    user: {
      id: 'U1',
      token: new Secret(`xoxe.xoxp-1-${teamId}-user`),
      refreshToken: new Secret(`xoxe-1-${teamId}-user-refresh`),
      expiresAt: later(12 * 3_600_000),
      scopes: ['search:read'],
    },
    ...extra,
  };
}

export function orgInstall(enterpriseId = 'E1'): Installation {
  return {
    enterprise: { id: enterpriseId, name: 'Health Org' },
    enterpriseUrl: 'https://health.enterprise.slack.com/',
    isEnterpriseInstall: true,
    appId: 'A1',
    authVersion: 'v2',
    bot: {
      token: new Secret(`xoxb-org-${enterpriseId}`),
      id: 'B2',
      userId: 'U0BOT2',
      scopes: ['commands'],
    },
    user: { id: 'U2' },
  };
}

/** An installation (or account) with its secrets revealed and its instants as ISO text. */
export function revealed(value: unknown): unknown {
  if (value instanceof Secret) return `secret:${value.reveal()}`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(revealed);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, revealed(field)]));
  }
  return value;
}

const team = (teamId: string, enterpriseId?: string) => ({
  teamId,
  enterpriseId,
  isEnterpriseInstall: false,
});
const org = (enterpriseId: string) => ({ enterpriseId, isEnterpriseInstall: true });
const account = { clientId: 'client-T1', clientSecret: new Secret('analytics-secret-T1') };

export function installationsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`Database contract, installations: ${name}`, () => {
    let fixture: StoreFixture;
    let installs: InstallationRepository;

    beforeEach(async () => {
      fixture = await open();
      installs = fixture.store.installations.sealedWith(ringA, retention);
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('stores an install and fetches it by team id with every field and token', async () => {
      const install = workspaceInstall();
      await installs.storeInstallation(install, now);
      const fetched = await installs.fetchInstallation(team('T1', 'E1'));
      expect(revealed(fetched)).toEqual(revealed({ ...install, installedAt: now }));
      expect(fetched?.bot?.token).toBeInstanceOf(Secret);
      expect(await installs.fetchInstallation(team('T2'))).toBeUndefined();
    });

    it('keeps an install without a bot refresh token or a user token as it came', async () => {
      const install = orgInstall();
      const { enterpriseUrl: _, ...withoutUrl } = install;
      await installs.storeInstallation({ ...withoutUrl, isEnterpriseInstall: true }, now);
      expect(revealed(await installs.fetchInstallation(org('E1')))).toEqual(
        revealed({ ...withoutUrl, installedAt: now }),
      );
    });

    it('serves an org-wide install by enterprise id, and to its workspaces without their own', async () => {
      await installs.storeInstallation(orgInstall('E1'), now);
      await installs.storeInstallation(workspaceInstall('T9'), now);
      const orgWide = revealed(await installs.fetchInstallation(org('E1')));
      expect(orgWide).toMatchObject({
        isEnterpriseInstall: true,
        bot: { token: 'secret:xoxb-org-E1' },
      });
      expect(revealed(await installs.fetchInstallation(team('T5', 'E1')))).toEqual(orgWide);
      expect(revealed(await installs.fetchInstallation(team('T9', 'E1')))).toMatchObject({
        team: { id: 'T9' },
      });
      expect(await installs.fetchInstallation(team('T5'))).toBeUndefined();
      expect(await installs.fetchInstallation(org('E2'))).toBeUndefined();
    });

    it('replaces a workspace install with its reinstall, keeping its analytics account', async () => {
      await installs.storeInstallation(workspaceInstall(), now);
      expect(await installs.setAnalyticsAccount(team('T1'), account, now)).toBe(true);
      const reinstall = workspaceInstall('T1', { appId: 'A2', user: { id: 'U7' } });
      await installs.storeInstallation(reinstall, later(1_000));
      expect(revealed(await installs.fetchInstallation(team('T1')))).toEqual(
        revealed({ ...reinstall, installedAt: later(1_000) }),
      );
      expect(revealed(await installs.analyticsAccount(team('T1')))).toEqual(revealed(account));
    });

    it('keeps an analytics account per workspace, only for a live installation', async () => {
      expect(await installs.setAnalyticsAccount(team('T1'), account, now)).toBe(false);
      await installs.storeInstallation(workspaceInstall('T1'), now);
      await installs.storeInstallation(workspaceInstall('T2'), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      const other = { clientId: 'client-T2', clientSecret: new Secret('analytics-secret-T2') };
      await installs.setAnalyticsAccount(team('T2'), other, now);
      expect(revealed(await installs.analyticsAccount(team('T1')))).toEqual(revealed(account));
      expect(revealed(await installs.analyticsAccount(team('T2')))).toEqual(revealed(other));
      expect(await installs.analyticsAccount(team('T3'))).toBeUndefined();
    });

    it('forgets the tokens at the uninstall and resumes the workspace on a reinstall within the retention', async () => {
      await installs.storeInstallation(workspaceInstall(), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      expect(await installs.deleteInstallation(team('T1'), later(1_000))).toBe(true);
      expect(await installs.deleteInstallation(team('T1'), later(2_000))).toBe(false);
      expect(await installs.fetchInstallation(team('T1'))).toBeUndefined();
      expect(await installs.analyticsAccount(team('T1'))).toBeUndefined();
      expect(await installs.purgeExpired(later(29 * day))).toEqual([]);
      await installs.storeInstallation(workspaceInstall(), later(29 * day));
      expect(revealed(await installs.analyticsAccount(team('T1')))).toEqual(revealed(account));
    });

    it('deletes an uninstalled workspace once its retention has run out', async () => {
      await installs.storeInstallation(workspaceInstall('T1'), now);
      await installs.storeInstallation(orgInstall('E5'), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      await installs.deleteInstallation(team('T1'), now);
      await installs.deleteInstallation(org('E5'), now);
      expect(await installs.purgeExpired(later(retention.retentionMs - 1))).toEqual([]);
      const purged = await installs.purgeExpired(later(retention.retentionMs));
      expect(purged).toEqual(
        expect.arrayContaining([
          { teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: false },
          { enterpriseId: 'E5', isEnterpriseInstall: true },
        ]),
      );
      expect(purged).toHaveLength(2);
      await installs.storeInstallation(workspaceInstall('T1'), later(retention.retentionMs + 1));
      expect(await installs.analyticsAccount(team('T1'))).toBeUndefined();
    });

    it('starts afresh on a reinstall after the retention, even before a purge ran', async () => {
      await installs.storeInstallation(workspaceInstall(), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      await installs.deleteInstallation(team('T1'), now);
      await installs.storeInstallation(workspaceInstall(), later(retention.retentionMs));
      expect(await installs.fetchInstallation(team('T1'))).toBeDefined();
      expect(await installs.analyticsAccount(team('T1'))).toBeUndefined();
    });

    it('deletes everything at the uninstall when the retention is 0', async () => {
      const atOnce = fixture.store.installations.sealedWith(ringA, { retentionMs: 0 });
      await atOnce.storeInstallation(workspaceInstall(), now);
      await atOnce.setAnalyticsAccount(team('T1'), account, now);
      expect(await atOnce.deleteInstallation(team('T1'), now)).toBe(true);
      await atOnce.storeInstallation(workspaceInstall(), later(1));
      expect(await atOnce.analyticsAccount(team('T1'))).toBeUndefined();
    });

    it('hands the refresh lease to one owner at a time, until it expires or is given back', async () => {
      await installs.storeInstallation(workspaceInstall(), now);
      const claims = await Promise.all(
        ['a', 'b', 'c'].map((owner) => installs.claimRefresh(team('T1'), owner, now, 30_000)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      const holder = ['a', 'b', 'c'][claims.indexOf(true)] as string;
      const other = holder === 'a' ? 'b' : 'a';
      expect(await installs.claimRefresh(team('T1'), holder, later(1), 30_000)).toBe(true);
      expect(await installs.claimRefresh(team('T1'), other, later(29_000), 30_000)).toBe(false);
      expect(await installs.claimRefresh(team('T1'), other, later(30_001), 30_000)).toBe(true);
      await installs.releaseRefresh(team('T1'), holder);
      expect(await installs.claimRefresh(team('T1'), holder, later(30_002), 30_000)).toBe(false);
      await installs.releaseRefresh(team('T1'), other);
      expect(await installs.claimRefresh(team('T1'), holder, later(30_003), 30_000)).toBe(true);
      expect(await installs.claimRefresh(team('T2'), holder, now, 30_000)).toBe(false);
    });

    it('saves refreshed tokens only while holding the lease, then releases it', async () => {
      await installs.storeInstallation(workspaceInstall(), now);
      const refreshed = workspaceInstall('T1', {
        bot: {
          ...(workspaceInstall().bot as NonNullable<Installation['bot']>),
          token: new Secret('xoxe.xoxb-1-T1-bot-2'),
          refreshToken: new Secret('xoxe-1-T1-bot-refresh-2'),
          expiresAt: later(24 * 3_600_000),
        },
      });
      expect(await installs.storeRefreshed(refreshed, 'a', now)).toBe(false);
      await installs.claimRefresh(team('T1'), 'a', now, 30_000);
      expect(await installs.storeRefreshed(refreshed, 'b', now)).toBe(false);
      expect(await installs.storeRefreshed(refreshed, 'a', later(10))).toBe(true);
      expect(revealed(await installs.fetchInstallation(team('T1')))).toEqual(
        revealed({ ...refreshed, installedAt: now }),
      );
      expect(await installs.claimRefresh(team('T1'), 'b', later(20), 30_000)).toBe(true);
    });

    it('drops the lease of a workspace reinstalled or uninstalled meanwhile', async () => {
      await installs.storeInstallation(workspaceInstall(), now);
      await installs.claimRefresh(team('T1'), 'a', now, 30_000);
      await installs.storeInstallation(workspaceInstall(), later(1));
      expect(await installs.storeRefreshed(workspaceInstall(), 'a', later(2))).toBe(false);
      await installs.claimRefresh(team('T1'), 'a', later(3), 30_000);
      await installs.deleteInstallation(team('T1'), later(4));
      expect(await installs.storeRefreshed(workspaceInstall(), 'a', later(5))).toBe(false);
      expect(await installs.claimRefresh(team('T1'), 'b', later(6), 30_000)).toBe(false);
    });

    it('opens rows sealed under the previous key and re-seals them all under the new one', async () => {
      await installs.storeInstallation(workspaceInstall('T1'), now);
      await installs.storeInstallation(workspaceInstall('T2'), now);
      await installs.storeInstallation(orgInstall('E3'), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      await installs.storeInstallation(workspaceInstall('T4'), now);
      await installs.deleteInstallation(team('T4'), now);
      const rotated = fixture.store.installations.sealedWith(ringBA, retention);
      const before = revealed(await rotated.fetchInstallation(team('T1')));
      expect(before).toEqual(revealed({ ...workspaceInstall('T1'), installedAt: now }));
      // A row written under the new key before the rotation is already current.
      await rotated.storeInstallation(workspaceInstall('T2'), now);
      expect(await rotated.rotateKeys()).toEqual({
        resealed: 3,
        current: 2,
        unreadable: 0,
        unreadableKeyIds: [],
      });
      expect(await rotated.rotateKeys()).toMatchObject({ resealed: 0, current: 5 });
      const onlyB = fixture.store.installations.sealedWith(
        { current: keyB, previous: [] },
        retention,
      );
      expect(revealed(await onlyB.fetchInstallation(team('T1')))).toEqual(before);
      expect(revealed(await onlyB.fetchInstallation(org('E3')))).toMatchObject({
        bot: { token: 'secret:xoxb-org-E3' },
      });
      expect(revealed(await onlyB.analyticsAccount(team('T1')))).toEqual(revealed(account));
    });

    it('leaves and counts the rows under a key the ring does not hold, naming the key', async () => {
      await installs.storeInstallation(workspaceInstall('T1'), now);
      await installs.setAnalyticsAccount(team('T1'), account, now);
      const lost = fixture.store.installations.sealedWith(
        { current: keyB, previous: [] },
        retention,
      );
      await lost.storeInstallation(workspaceInstall('T2'), now);
      expect(await lost.rotateKeys()).toEqual({
        resealed: 0,
        current: 1,
        unreadable: 2,
        unreadableKeyIds: [keyA.id],
      });
      const error = await lost.fetchInstallation(team('T1')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SealedValueError);
      expect((error as SealedValueError).message).toBe(
        `installations/team:T1/bot_token was sealed with key ${keyA.id}, which is neither APP_ENCRYPTION_KEY nor in APP_ENCRYPTION_KEY_PREVIOUS`,
      );
      // Still there for the key, once it is back in the ring.
      expect(await installs.fetchInstallation(team('T1'))).toBeDefined();
    });

    it('shows an install stored on one connection to another', async () => {
      if (!fixture.openSibling) return;
      const other = (await fixture.openSibling()).installations.sealedWith(ringA, retention);
      await installs.storeInstallation(workspaceInstall(), now);
      expect(revealed(await other.fetchInstallation(team('T1')))).toEqual(
        revealed({ ...workspaceInstall(), installedAt: now }),
      );
      expect(await other.claimRefresh(team('T1'), 'b', now, 30_000)).toBe(true);
      expect(await installs.claimRefresh(team('T1'), 'a', now, 30_000)).toBe(false);
    });
  });
}
