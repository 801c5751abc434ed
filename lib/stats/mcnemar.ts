import { logGamma } from "./specialFunctions";

/**
 * Exact McNemar test for paired yes/no outcomes (same rows, baseline vs
 * candidate). Only discordant rows carry information: under "no difference"
 * each one is equally likely to have flipped either way, so the smaller count
 * is Binomial(b + c, 1/2). Exact rather than chi-squared because eval diffs
 * often have a handful of discordant rows, where the approximation is poor.
 *
 * b: baseline yes, candidate no.  c: baseline no, candidate yes.
 */
export function exactMcNemar(b: number, c: number): { pValue: number; b: number; c: number } {
  for (const [name, value] of [
    ["b", b],
    ["c", c],
  ] as const) {
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  const n = b + c;
  if (n === 0) return { pValue: 1, b, c };
  const k = Math.min(b, c);
  // Two-sided by doubling the smaller tail; Binomial(n, 1/2) is symmetric, so
  // this equals summing every outcome at least as extreme. Capped at 1 because
  // the two tails overlap in the middle term when b = c.
  const tail = n <= SMALL_N ? binomialHalfLowerTail(n, k) : Math.exp(logBinomialHalfLowerTail(n, k));
  return { pValue: Math.min(1, 2 * tail), b, c };
}

// 2^-1000 ≈ 9e-302 is still a normal double, so up to here the plain
// recurrence cannot underflow.
const SMALL_N = 1000;

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2), n ≤ SMALL_N, by the recurrence
 * pmf(i+1) = pmf(i)·(n−i)/(i+1) from pmf(0) = 2^-n. Exact to rounding, so
 * hand-checkable cases like (1, 5) → 14/64 come out exactly.
 */
function binomialHalfLowerTail(n: number, k: number): number {
  let term = 2 ** -n;
  let sum = term;
  for (let i = 0; i < k; i++) {
    term = (term * (n - i)) / (i + 1);
    sum += term;
  }
  return sum;
}

/**
 * log P(X ≤ k) for X ~ Binomial(n, 1/2) with k ≤ n/2, any n. Direct sums overflow
 * (C(20000, 10000) ≈ 10^6018) and 2^-n underflows, so the largest term, pmf(k),
 * is taken in log space and the rest are summed as ratios to it, which all
 * lie in (0, 1]; pmf(i−1)/pmf(i) = i/(n−i+1).
 */
function logBinomialHalfLowerTail(n: number, k: number): number {
  const logPmfK = logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) - n * Math.LN2;
  let term = 1;
  let sum = 1;
  for (let i = k; i > 0; i--) {
    term *= i / (n - i + 1);
    sum += term;
    // Terms shrink monotonically; once one no longer changes the sum, none will.
    if (term < sum * 1e-17) break;
  }
  return logPmfK + Math.log(sum);
}
