import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeKey, keyIdOf, readKeyring } from '../../src/config/encryption-keys.ts';
import { loadInstallationsConfig } from '../../src/config/installations.ts';
import { ConfigError } from '../../src/errors.ts';

const bytes = randomBytes(32);
const older = randomBytes(32);

function read(env: Record<string, string>) {
  const problems: string[] = [];
  return { keyring: readKeyring(env, problems), problems };
}

describe('decodeKey', () => {
  it('reads 32 bytes written as hex, base64 or base64url, padded or not', () => {
    for (const text of [
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      bytes.toString('base64'),
      bytes.toString('base64').replace(/=$/, ''),
      bytes.toString('base64url'),
    ]) {
      expect(decodeKey(text)).toEqual(bytes);
    }
  });

  it('refuses any other length or alphabet', () => {
    for (const text of [
      bytes.toString('hex').slice(2),
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      'correct horse battery staple',
      `${bytes.toString('hex').slice(1)}g`,
    ]) {
      expect(decodeKey(text)).toBeUndefined();
    }
  });
});

describe('readKeyring', () => {
  it('has no keyring when no key is set', () => {
    expect(read({})).toEqual({ keyring: undefined, problems: [] });
  });

  it('reads the current key and the previous ones, newest first, by id', () => {
    const { keyring, problems } = read({
      APP_ENCRYPTION_KEY: bytes.toString('hex'),
      APP_ENCRYPTION_KEY_PREVIOUS: ` ${older.toString('base64')} , ${bytes.toString('base64')}`,
    });
    expect(problems).toEqual([]);
    expect(keyring?.current.id).toBe(keyIdOf(bytes));
    expect(keyring?.current.id).toMatch(/^[0-9a-f]{16}$/);
    // The current key repeated among the previous ones is dropped.
    expect(keyring?.previous.map((key) => key.id)).toEqual([keyIdOf(older)]);
  });

  it('names the variable and the expected form, never the value', () => {
    const secretish = 'my very secret passphrase';
    const { keyring, problems } = read({
      APP_ENCRYPTION_KEY: secretish,
      APP_ENCRYPTION_KEY_PREVIOUS: `${older.toString('hex')},${secretish}`,
    });
    expect(keyring).toBeUndefined();
    expect(problems).toEqual([
      `APP_ENCRYPTION_KEY must be 32 random bytes written as 64 hex digits or 44 base64 characters (generate one with: openssl rand -hex 32); got ${secretish.length} characters of another form.`,
      'APP_ENCRYPTION_KEY_PREVIOUS must be a comma-separated list of keys, each 32 random bytes written as 64 hex digits or 44 base64 characters (generate one with: openssl rand -hex 32); key 2 of 2 is not.',
    ]);
    expect(problems.join(' ')).not.toContain(older.toString('hex'));
  });

  it('refuses a previous key without a current one', () => {
    expect(read({ APP_ENCRYPTION_KEY_PREVIOUS: older.toString('hex') }).problems).toEqual([
      'APP_ENCRYPTION_KEY_PREVIOUS is set but APP_ENCRYPTION_KEY is not: set APP_ENCRYPTION_KEY to the key that seals from now on, and keep the old one in APP_ENCRYPTION_KEY_PREVIOUS until `npm run cli -- keys rotate` has run.',
    ]);
  });
});

describe('loadInstallationsConfig', () => {
  it('keeps an uninstalled workspace 30 days unless told otherwise, 0 meaning not at all', () => {
    expect(loadInstallationsConfig({}).retentionMs).toBe(30 * 86_400_000);
    expect(loadInstallationsConfig({ INSTALLATION_RETENTION_DAYS: '0' }).retentionMs).toBe(0);
    expect(loadInstallationsConfig({ INSTALLATION_RETENTION_DAYS: '7' }).retentionMs).toBe(
      7 * 86_400_000,
    );
  });

  it('lists every problem at once', () => {
    expect(() =>
      loadInstallationsConfig({ APP_ENCRYPTION_KEY: 'x', INSTALLATION_RETENTION_DAYS: '-1' }),
    ).toThrow(ConfigError);
    try {
      loadInstallationsConfig({ APP_ENCRYPTION_KEY: 'x', INSTALLATION_RETENTION_DAYS: '-1' });
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
