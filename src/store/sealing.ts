/**
 * Credentials sealed at rest with AES-256-GCM: a random 12-byte IV per value, the 16-byte tag, and
 * associated data binding the value to what it is (`installations/T0123/bot_token`), so a sealed
 * value copied to another row or another column does not open there.
 *
 * A sealed value is text, `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url), and says which key
 * opens it, so values sealed before a key rotation still open with the previous key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type EncryptionKey, type Keyring, keyById } from '../config/encryption-keys.ts';
import { SealedValueError } from '../errors.ts';

const version = 'v1';
const ivBytes = 12;
const tagBytes = 16;
const keyIdPattern = /^[0-9a-f]{16}$/;
const base64url = /^[A-Za-z0-9_-]*$/;

function associatedData(keyId: string, context: string): Buffer {
  return Buffer.from(`${version}.${keyId}.${context}`, 'utf8');
}

/** `plaintext` sealed under `key` for `context`, which opening must name again. */
export function seal(key: EncryptionKey, plaintext: string, context: string): string {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', key.reveal(), iv, { authTagLength: tagBytes });
  cipher.setAAD(associatedData(key.id, context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [version, key.id, iv, ciphertext, tag]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

interface SealedParts {
  readonly keyId: string;
  readonly iv: Buffer;
  readonly ciphertext: Buffer;
  readonly tag: Buffer;
}

function parse(sealed: string): SealedParts | undefined {
  const parts = sealed.split('.');
  if (parts.length !== 5) return undefined;
  const [v, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  if (v !== version || !keyIdPattern.test(keyId)) return undefined;
  const [ivBytesRead, ciphertextRead, tagRead] = [iv, ciphertext, tag].map(canonical);
  if (
    ivBytesRead?.length !== ivBytes ||
    ciphertextRead === undefined ||
    tagRead?.length !== tagBytes
  )
    return undefined;
  return { keyId, iv: ivBytesRead, ciphertext: ciphertextRead, tag: tagRead };
}

/**
 * The bytes of base64url text written as `seal` writes it, else undefined: the last character's
 * unused bits must be zero, so every altered character is refused, not decoded to the same bytes.
 */
function canonical(text: string): Buffer | undefined {
  if (!base64url.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** The id of the key a sealed value says it was sealed with; undefined when it is no sealed value. */
export function sealedKeyId(sealed: string): string | undefined {
  return parse(sealed)?.keyId;
}

/**
 * The plaintext of `sealed`, opened with whichever key of `keyring` sealed it.
 *
 * @throws SealedValueError when no key of the ring sealed it (`unknown_key`), when it was altered or
 * sealed for another context (`not_authentic`), or when it is no sealed value (`malformed`).
 */
export function unseal(keyring: Keyring, sealed: string, context: string): string {
  const parts = parse(sealed);
  if (parts === undefined) throw new SealedValueError('malformed', context);
  const key = keyById(keyring, parts.keyId);
  if (key === undefined) throw new SealedValueError('unknown_key', context, parts.keyId);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.reveal(), parts.iv, {
      authTagLength: tagBytes,
    });
    decipher.setAAD(associatedData(key.id, context));
    decipher.setAuthTag(parts.tag);
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedValueError('not_authentic', context, parts.keyId);
  }
}
