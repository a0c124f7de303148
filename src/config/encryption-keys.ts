/**
 * The keys that seal credentials at rest (the installations' tokens, each workspace's analytics
 * secret): APP_ENCRYPTION_KEY seals, and every key in APP_ENCRYPTION_KEY_PREVIOUS still opens
 * what it sealed until `npm run cli -- keys rotate` has re-sealed it under the current one.
 *
 * Each key is 32 random bytes, written as 64 hex digits or as base64 (standard or URL-safe, with
 * or without padding). A key is known by its id, the first 8 bytes of a SHA-256 of the key, which
 * every sealed value and every row carries: the id says which key opens it and reveals nothing of
 * the key. Problems name the variable and the shape expected, never the value.
 */
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { type Env, present } from './env.ts';

/** AES-256 takes a 32-byte key. */
export const encryptionKeyBytes = 32;

/** Hashed before the key for its id, so the id is no plain hash another system may also publish. */
const keyIdLabel = 'app-encryption-key-id\0';

/** The first 8 bytes of a labelled SHA-256 of the key, as 16 hex digits. */
export function keyIdOf(bytes: Uint8Array): string {
  return createHash('sha256').update(keyIdLabel).update(bytes).digest('hex').slice(0, 16);
}

/**
 * One key. It prints as its id through `String()`, JSON, template literals and `util.inspect`;
 * only `reveal()` gives its bytes, to the cipher.
 */
export class EncryptionKey {
  readonly id: string;
  readonly #bytes: Buffer;

  /** @throws RangeError when `bytes` is not 32 bytes long (a bug: readers check the length). */
  constructor(bytes: Uint8Array) {
    if (bytes.length !== encryptionKeyBytes) {
      // Not an AppError: readers of the environment check the length first.
      throw new RangeError(`an encryption key is ${encryptionKeyBytes} bytes`);
    }
    this.#bytes = Buffer.from(bytes);
    this.id = keyIdOf(this.#bytes);
  }

  reveal(): Buffer {
    return this.#bytes;
  }

  toString(): string {
    return `[key ${this.id}]`;
  }

  toJSON(): string {
    return this.toString();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** The key that seals, and the keys that may still open what they sealed before a rotation. */
export interface Keyring {
  readonly current: EncryptionKey;
  /** Newest first; never holds the current key. */
  readonly previous: readonly EncryptionKey[];
}

/** The key with that id, current or previous. */
export function keyById(keyring: Keyring, id: string): EncryptionKey | undefined {
  if (keyring.current.id === id) return keyring.current;
  return keyring.previous.find((key) => key.id === id);
}

const hexKey = /^[0-9a-fA-F]{64}$/;
const base64Key = /^[A-Za-z0-9+/_-]{43}=?$/;

/** The 32 bytes a key's text stands for, or undefined when it is neither form. */
export function decodeKey(text: string): Buffer | undefined {
  if (hexKey.test(text)) return Buffer.from(text, 'hex');
  if (!base64Key.test(text)) return undefined;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === encryptionKeyBytes ? bytes : undefined;
}

const keyShape = `${encryptionKeyBytes} random bytes written as 64 hex digits or 44 base64 characters (generate one with: openssl rand -hex 32)`;

/**
 * APP_ENCRYPTION_KEY and APP_ENCRYPTION_KEY_PREVIOUS (comma-separated, newest first); undefined
 * when no key is set, which only a process that stores no installation may run with.
 */
export function readKeyring(env: Env, problems: string[]): Keyring | undefined {
  const currentText = present(env, 'APP_ENCRYPTION_KEY');
  const previousText = present(env, 'APP_ENCRYPTION_KEY_PREVIOUS');
  if (currentText === undefined) {
    if (previousText !== undefined) {
      problems.push(
        'APP_ENCRYPTION_KEY_PREVIOUS is set but APP_ENCRYPTION_KEY is not: set APP_ENCRYPTION_KEY to the key that seals from now on, and keep the old one in APP_ENCRYPTION_KEY_PREVIOUS until `npm run cli -- keys rotate` has run.',
      );
    }
    return undefined;
  }
  const currentBytes = decodeKey(currentText);
  if (currentBytes === undefined) {
    problems.push(
      `APP_ENCRYPTION_KEY must be ${keyShape}; got ${currentText.length} characters of another form.`,
    );
  }
  const previous: EncryptionKey[] = [];
  const previousTexts = (previousText ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '');
  previousTexts.forEach((text, index) => {
    const bytes = decodeKey(text);
    if (bytes === undefined) {
      problems.push(
        `APP_ENCRYPTION_KEY_PREVIOUS must be a comma-separated list of keys, each ${keyShape}; key ${index + 1} of ${previousTexts.length} is not.`,
      );
    } else previous.push(new EncryptionKey(bytes));
  });
  if (currentBytes === undefined) return undefined;
  const current = new EncryptionKey(currentBytes);
  const seen = new Set([current.id]);
  return {
    current,
    previous: previous.filter((key) => !seen.has(key.id) && seen.add(key.id)),
  };
}
