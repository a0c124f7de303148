/**
 * `node src/cli.ts keys rotate [--database-url URL | --sqlite PATH] [--tls ...]`: re-seals every
 * installation's credentials under APP_ENCRYPTION_KEY, opening those sealed under a key of
 * APP_ENCRYPTION_KEY_PREVIOUS with it. Prints counts and key ids, never a credential or a key.
 * Safe beside running instances: a row written meanwhile is read again, never overwritten.
 */
import { loadInstallationsConfig } from '../config/installations.ts';
import { loadStorageConfig } from '../config/job-config.ts';
import { ConfigError } from '../errors.ts';
import type { KeyRotation } from '../store/installations.ts';
import { openDatabase } from '../store/open.ts';
import type { CliCommand, CliIo } from './command.ts';
import { writeLine } from './command.ts';
import { describeLocation, parseStoreLocation, storeFlagsHelp } from './migrate-command.ts';

export const usage =
  'keys rotate [--database-url URL | --sqlite PATH] [--tls off|no-verify|verify]  re-seal every installation under APP_ENCRYPTION_KEY';

const help = `Re-seals the tokens and analytics credentials of every installation under the key in
APP_ENCRYPTION_KEY; those sealed under a key listed in APP_ENCRYPTION_KEY_PREVIOUS are opened with
it. Prints how many rows were re-sealed, how many already were under the current key, and how many
are under a key neither variable holds (left as they are: exit 1). Run it after setting a new key;
once it reports nothing left under another key, APP_ENCRYPTION_KEY_PREVIOUS can go.
${storeFlagsHelp}`;

/** The rotation in one line: counts and key ids only. */
export function formatRotation(rotation: KeyRotation, currentKeyId: string): string {
  const unreadable =
    rotation.unreadable === 0
      ? 'none left under another key'
      : `${rotation.unreadable} left under a key not in APP_ENCRYPTION_KEY or APP_ENCRYPTION_KEY_PREVIOUS (key ${rotation.unreadableKeyIds.join(', key ')})`;
  return `re-sealed ${rotation.resealed} row(s) under key ${currentKeyId}, ${rotation.current} already under it, ${unreadable}`;
}

export async function runKeys(
  args: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr' | 'env'>,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'rotate') {
    await writeLine(io.stderr, `Usage: node src/cli.ts ${usage}`);
    return 2;
  }
  let settings: {
    storage: ReturnType<typeof loadStorageConfig>;
    installations: ReturnType<typeof loadInstallationsConfig>;
  };
  try {
    settings = {
      storage: loadStorageConfig(io.env),
      installations: loadInstallationsConfig(io.env),
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    await writeLine(io.stderr, `keys rotate cannot start:\n  - ${error.problems.join('\n  - ')}`);
    return 2;
  }
  const { keyring, retentionMs } = settings.installations;
  if (keyring === undefined) {
    await writeLine(
      io.stderr,
      'keys rotate needs APP_ENCRYPTION_KEY, the key to seal under (and APP_ENCRYPTION_KEY_PREVIOUS, the keys it replaces); see .env.example.',
    );
    return 2;
  }
  const location = parseStoreLocation(rest, settings.storage);
  if (typeof location === 'string') {
    await writeLine(io.stderr, `${location}\nUsage: node src/cli.ts ${usage}`);
    return 2;
  }
  try {
    const database = await openDatabase(location);
    try {
      const rotation = await database.installations
        .sealedWith(keyring, { retentionMs })
        .rotateKeys();
      await writeLine(
        io.stdout,
        `${describeLocation(location)}: ${formatRotation(rotation, keyring.current.id)}`,
      );
      return rotation.unreadable === 0 ? 0 : 1;
    } finally {
      await database.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await writeLine(io.stderr, `keys rotate failed on ${describeLocation(location)}: ${message}`);
    return 1;
  }
}

export const command: CliCommand = { usage, help, run: runKeys };
