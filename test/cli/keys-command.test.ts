import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncryptionKey } from '../../src/config/encryption-keys.ts';
import { Secret } from '../../src/config/secret.ts';
import { openDatabase } from '../../src/store/open.ts';
import { runCli } from '../helpers/run-cli.ts';
import { revealed, workspaceInstall } from '../store/installations-contract.ts';

const now = new Date('2026-06-08T08:00:30Z');
const retention = { retentionMs: 30 * 86_400_000 };
const oldBytes = randomBytes(32);
const newBytes = randomBytes(32);
const strayBytes = randomBytes(32);
const oldKey = new EncryptionKey(oldBytes);
const newKey = new EncryptionKey(newBytes);
const strayKey = new EncryptionKey(strayBytes);
const account = { clientId: 'client-T1', clientSecret: new Secret('analytics-secret-T1') };
const team = (teamId: string) => ({ teamId, isEnterpriseInstall: false });

/** Every secret the store holds or the keys are, none of which may be printed. */
const secrets = [
  ...['T1', 'T2', 'T3'].flatMap((teamId) => {
    const { bot, user } = workspaceInstall(teamId);
    return [bot?.token, bot?.refreshToken, user.token, user.refreshToken].map((s) => s?.reveal());
  }),
  account.clientSecret.reveal(),
  ...[oldBytes, newBytes, strayBytes].flatMap((b) => [b.toString('hex'), b.toString('base64')]),
].filter((s) => s !== undefined);

describe('keys rotate', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'keys-command-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function seeded(name: string): Promise<string> {
    const path = join(dir, `${name}.sqlite`);
    const db = await openDatabase({ sqlitePath: path });
    const old = db.installations.sealedWith({ current: oldKey, previous: [] }, retention);
    await old.storeInstallation(workspaceInstall('T1'), now);
    await old.setAnalyticsAccount(team('T1'), account, now);
    await old.storeInstallation(workspaceInstall('T2'), now);
    const current = db.installations.sealedWith({ current: newKey, previous: [] }, retention);
    await current.storeInstallation(workspaceInstall('T3'), now);
    await db.close();
    return path;
  }

  it('re-seals every row under the new key, prints counts and no secret', async () => {
    const path = await seeded('rotate');
    const env = {
      APP_ENCRYPTION_KEY: newBytes.toString('hex'),
      APP_ENCRYPTION_KEY_PREVIOUS: oldBytes.toString('base64'),
    };
    const run = await runCli(['keys', 'rotate', '--sqlite', path], { env });
    expect(run).toEqual({
      status: 0,
      stdout: `SQLite ${path}: re-sealed 3 row(s) under key ${newKey.id}, 1 already under it, none left under another key\n`,
      stderr: '',
    });
    const again = await runCli(['keys', 'rotate', '--sqlite', path], { env });
    expect(again.stdout).toContain('re-sealed 0 row(s)');
    expect(again.stdout).toContain('4 already under it');

    const db = await openDatabase({ sqlitePath: path });
    const onlyNew = db.installations.sealedWith({ current: newKey, previous: [] }, retention);
    expect(revealed(await onlyNew.fetchInstallation(team('T1')))).toEqual(
      revealed({ ...workspaceInstall('T1'), installedAt: now }),
    );
    expect(revealed(await onlyNew.analyticsAccount(team('T1')))).toEqual(revealed(account));
    await db.close();
    for (const secret of secrets) expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('counts and names the key of rows no key of the ring opens, and exits 1', async () => {
    const path = await seeded('stray');
    const run = await runCli(['keys', 'rotate', '--sqlite', path], {
      env: { APP_ENCRYPTION_KEY: strayBytes.toString('hex') },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      `SQLite ${path}: re-sealed 0 row(s) under key ${strayKey.id}, 0 already under it, 4 left under a key not in APP_ENCRYPTION_KEY or APP_ENCRYPTION_KEY_PREVIOUS (key ${[oldKey.id, newKey.id].sort().join(', key ')})\n`,
    );
    for (const secret of secrets) expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('needs the key, and names a malformed one without printing it', async () => {
    const path = join(dir, 'none.sqlite');
    const missing = await runCli(['keys', 'rotate', '--sqlite', path]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('keys rotate needs APP_ENCRYPTION_KEY');
    const wrong = 'not a key but a secret all the same';
    const malformed = await runCli(['keys', 'rotate', '--sqlite', path], {
      env: { APP_ENCRYPTION_KEY: wrong },
    });
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toMatch(
      /^keys rotate cannot start:\n {2}- APP_ENCRYPTION_KEY must be/,
    );
    expect(malformed.stderr).not.toContain(wrong);
  });

  it('refuses another verb with its usage', async () => {
    const run = await runCli(['keys', 'list']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^Usage: node src\/cli.ts keys rotate/);
  });
});
