/**
 * Stable pseudo-random numbers from a seed: the sandbox's population and its activity are the same
 * on every run and every machine, so tests and demos can name accounts and numbers.
 */

/** 32-bit FNV-1a, then a murmur3 finaliser: a stable hash to [0, 1) for seeding numbers. */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 0x1_0000_0000;
}

/** Successive numbers in [0, 1) for one seed, the same on every call with that seed. */
export function sequence(seed: string): () => number {
  let counter = 0;
  return () => unitHash(`${seed}:${counter++}`);
}
