import { twoSidedZ } from "./normal";

/**
 * Wilson score interval for a yes-rate. Preferred over the textbook
 * p̂ ± z·sqrt(p̂(1−p̂)/n) because that one collapses to a zero-width interval at
 * 0/n and n/n and leaves [0, 1] for small n, both common in eval runs.
 *
 * Returns null when there are no trials: there is no rate to bound.
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  confidence = 0.95,
): { low: number; high: number } | null {
  if (!Number.isInteger(trials) || trials < 0)
    throw new RangeError(`trials must be a non-negative integer, got ${trials}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`successes must be an integer in [0, trials], got ${successes} of ${trials}`);
  }
  twoSidedZ(confidence); // checks the level, whether or not there is a rate to bound
  if (trials === 0) return null;
  return wilsonIntervalOfRate(successes / trials, trials, confidence);
}

/**
 * Wilson's interval for a rate `p` observed over `n` observations, `n` not necessarily whole (an effective
 * number of rows, lib/stats/trialAgreement.ts rowRateInterval).
 */
export function wilsonIntervalOfRate(p: number, n: number, confidence = 0.95): { low: number; high: number } {
  const z = twoSidedZ(confidence);
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0/n and n/n the bound on that side is exactly 0 or 1 analytically, but
  // center − halfWidth can miss by an ulp; pin it so callers can test equality.
  const low = p === 0 ? 0 : center - halfWidth;
  const high = p === 1 ? 1 : center + halfWidth;
  return { low: clamp01(low), high: clamp01(high) };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
