/**
 * mulberry32: a tiny 32-bit PRNG. Not cryptographic; chosen because it is fast,
 * has a full 2^32 period, and lets the stats code take its randomness as an
 * argument, so the same seed always reproduces the same bootstrap interval.
 *
 * Returns a function yielding floats in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  // Coerce to uint32 so any number (negative, fractional, > 2^32) is a valid seed.
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
