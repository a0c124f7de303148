/**
 * What the store needs to keep the app's installations: the keys that seal their credentials and
 * how long a workspace's data outlives the app's uninstall there.
 */
import { ConfigError } from '../errors.ts';
import { defined } from '../model/defined.ts';
import { type Keyring, readKeyring } from './encryption-keys.ts';
import { type Env, integerVar } from './env.ts';

export interface InstallationsConfig {
  /** Absent when APP_ENCRYPTION_KEY is unset: nothing can then be sealed or opened. */
  readonly keyring?: Keyring;
  /**
   * How long an uninstalled workspace's data is kept, so that a reinstall within it resumes where
   * the workspace left off; 0 deletes it at the uninstall.
   */
  readonly retentionMs: number;
}

export const defaultRetentionDays = 30;
const dayMs = 86_400_000;

export function readInstallations(env: Env, problems: string[]): InstallationsConfig {
  const keyring = readKeyring(env, problems);
  const days = integerVar(
    env,
    problems,
    'INSTALLATION_RETENTION_DAYS',
    defaultRetentionDays,
    0,
    3_650,
  );
  return { ...defined({ keyring }), retentionMs: days * dayMs };
}

/**
 * The installations' settings alone (`keys rotate`).
 *
 * @throws ConfigError listing every problem found.
 */
export function loadInstallationsConfig(env: Env = process.env): InstallationsConfig {
  const problems: string[] = [];
  const config = readInstallations(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
