import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncryptionKey, type Keyring } from '../../src/config/encryption-keys.ts';
import { SealedValueError } from '../../src/errors.ts';
import { seal, sealedKeyId, unseal } from '../../src/store/sealing.ts';

const keyOf = (bytes: Uint8Array) => new EncryptionKey(bytes);
const keyBytes = fc.uint8Array({ minLength: 32, maxLength: 32 });
const plaintext = fc.string({ unit: 'grapheme', maxLength: 300 });
const context = fc.string({ minLength: 1, maxLength: 60 });

function thrown(work: () => unknown): SealedValueError {
  try {
    work();
  } catch (error) {
    if (error instanceof SealedValueError) return error;
    throw error;
  }
  throw new Error('expected a SealedValueError');
}

describe('seal and unseal', () => {
  it('gives back every plaintext sealed for the same context', () => {
    fc.assert(
      fc.property(keyBytes, plaintext, context, (bytes, text, where) => {
        const key = keyOf(bytes);
        const sealed = seal(key, text, where);
        expect(sealedKeyId(sealed)).toBe(key.id);
        expect(unseal({ current: key, previous: [] }, sealed, where)).toBe(text);
      }),
    );
  });

  it('seals the same plaintext differently each time (a fresh IV per value)', () => {
    const key = keyOf(randomBytes(32));
    expect(seal(key, 'xoxb-1', 'c')).not.toBe(seal(key, 'xoxb-1', 'c'));
  });

  it('opens a value sealed with a previous key of the ring', () => {
    fc.assert(
      fc.property(keyBytes, keyBytes, plaintext, (oldBytes, newBytes, text) => {
        fc.pre(Buffer.compare(oldBytes, newBytes) !== 0);
        const old = keyOf(oldBytes);
        const sealed = seal(old, text, 'ctx');
        expect(unseal({ current: keyOf(newBytes), previous: [old] }, sealed, 'ctx')).toBe(text);
      }),
    );
  });

  it('refuses any altered character, naming the context and the key id only', () => {
    fc.assert(
      fc.property(keyBytes, plaintext, fc.nat(), fc.nat(63), (bytes, text, at, by) => {
        const key = keyOf(bytes);
        const sealed = seal(key, text, 'installations/T1/bot_token');
        const i = at % sealed.length;
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const swapped = alphabet[(alphabet.indexOf(sealed[i] ?? 'A') + 1 + by) % 64] ?? 'A';
        fc.pre(sealed[i] !== '.' && swapped !== sealed[i]);
        const altered = `${sealed.slice(0, i)}${swapped}${sealed.slice(i + 1)}`;
        const error = thrown(() =>
          unseal({ current: key, previous: [] }, altered, 'installations/T1/bot_token'),
        );
        expect(['not_authentic', 'malformed', 'unknown_key']).toContain(error.problem);
        expect(error.code).toBe('config_invalid');
        expect(error.message).toContain('installations/T1/bot_token');
        if (text.length >= 4) expect(error.message).not.toContain(text);
      }),
    );
  });

  it('refuses a value moved to another row or purpose', () => {
    fc.assert(
      fc.property(keyBytes, plaintext, context, context, (bytes, text, here, there) => {
        fc.pre(here !== there);
        const key = keyOf(bytes);
        const error = thrown(() =>
          unseal({ current: key, previous: [] }, seal(key, text, here), there),
        );
        expect(error.problem).toBe('not_authentic');
        expect(error.keyId).toBe(key.id);
      }),
    );
  });

  it('refuses a value sealed under a key the ring does not hold, saying so', () => {
    fc.assert(
      fc.property(keyBytes, keyBytes, plaintext, (sealing, other, text) => {
        fc.pre(Buffer.compare(sealing, other) !== 0);
        const ring: Keyring = { current: keyOf(other), previous: [] };
        const sealed = seal(keyOf(sealing), text, 'ctx');
        const error = thrown(() => unseal(ring, sealed, 'ctx'));
        expect(error.problem).toBe('unknown_key');
        expect(error.message).toBe(
          `ctx was sealed with key ${keyOf(sealing).id}, which is neither APP_ENCRYPTION_KEY nor in APP_ENCRYPTION_KEY_PREVIOUS`,
        );
      }),
    );
  });

  it('refuses what is no sealed value without quoting it', () => {
    const ring: Keyring = { current: keyOf(randomBytes(32)), previous: [] };
    for (const text of ['xoxb-plain-token', '', 'v1.abc', 'v1.0123456789abcdef.AA.AA.AA']) {
      const error = thrown(() => unseal(ring, text, 'ctx'));
      expect(error.problem).toBe('malformed');
      expect(error.message).toBe('ctx is not a sealed value');
    }
  });

  it('keeps the key out of every printed form of the key and of the sealed value', () => {
    const bytes = randomBytes(32);
    const key = keyOf(bytes);
    const printed = [String(key), JSON.stringify({ key }), `${key}`, seal(key, 'x', 'c')];
    for (const text of printed) {
      expect(text).not.toContain(bytes.toString('hex'));
      expect(text).not.toContain(bytes.toString('base64url').slice(0, 20));
    }
    expect(String(key)).toBe(`[key ${key.id}]`);
  });
});
