/**
 * Stable pseudo-random numbers from a seed: the sandbox's population and its activity are the same
 * on every run and every machine, so tests and demos can name accounts and numbers.
 */

/** murmur3's finaliser: spreads every input bit over the 32 output bits. */
function finalise(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** 32-bit FNV-1a, then a murmur3 finaliser: a stable unsigned 32-bit hash of a text. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return finalise(hash);
}

/** A stable hash to [0, 1) for seeding numbers. */
export function unitHash(text: string): number {
  return hash32(text) / 0x1_0000_0000;
}

/**
 * 32 random bits for (seed, at, salt) from integers alone: cheap enough to draw several numbers per
 * account and day, thousands of times per answer.
 */
export function drawAt(seed: number, at: number, salt: number): number {
  return finalise(seed ^ finalise((Math.imul(at, 0x9e3779b1) + Math.imul(salt, 0x7feb352d)) | 0));
}

/** Successive numbers in [0, 1) for one seed, the same on every call with that seed. */
export function sequence(seed: string): () => number {
  let counter = 0;
  return () => unitHash(`${seed}:${counter++}`);
}
