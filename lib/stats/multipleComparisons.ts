/**
 * Adjusted p-values for a family of tests read together (every metric of one comparison), so that "real"
 * keeps its meaning when many metrics are tested at once: at α = 0.05, 14 independent tests of metrics that
 * did not change flag at least one in 1 − 0.95¹⁴ ≈ 51 % of comparisons.
 *
 * - `holm`: Holm's step-down method (Holm 1979). Controls the family-wise error rate (the chance of any false
 *   "real") at α under any dependence between the tests, and rejects everything Bonferroni does and often more.
 *   The default: a CI gate must not fail a pull request on noise.
 * - `bh`: Benjamini and Hochberg's step-up method (1995). Controls the false discovery rate (the expected
 *   share of false ones among the metrics called real) at α for independent or positively dependent tests:
 *   more power when exploring many metrics, weaker than holm's guarantee.
 * - `none`: the raw p-values; each metric on its own at α.
 */
export const CORRECTIONS = ["holm", "bh", "none"] as const;
export type Correction = (typeof CORRECTIONS)[number];
export const DEFAULT_CORRECTION: Correction = "holm";

/** "Holm", "Benjamini–Hochberg", "no correction": how a page and a summary name the method. */
export function correctionName(correction: Correction): string {
  return correction === "holm" ? "Holm" : correction === "bh" ? "Benjamini–Hochberg" : "no correction";
}

/**
 * The adjusted p-values, in the order given. Each adjusted value is at least its raw one and at most 1, and
 * "adjusted p < α" is the method's decision at level α for that test.
 */
export function adjustPValues(pValues: readonly number[], correction: Correction): number[] {
  for (const p of pValues) if (!(p >= 0 && p <= 1)) throw new RangeError(`p-values must be in [0, 1], got ${p}`);
  const m = pValues.length;
  if (correction === "none" || m <= 1) return [...pValues];
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted = new Array<number>(m);
  if (correction === "holm") {
    // Step-down: the i-th smallest (from 0) is multiplied by m − i, and the running maximum keeps the
    // adjusted values in the order of the raw ones.
    let running = 0;
    order.forEach(({ p, index }, i) => {
      running = Math.max(running, Math.min(1, (m - i) * p));
      adjusted[index] = running;
    });
    return adjusted;
  }
  // Step-up: the i-th smallest (from 1) is multiplied by m / i, and the running minimum from the largest down.
  let running = 1;
  for (let i = m - 1; i >= 0; i--) {
    const { p, index } = order[i];
    running = Math.min(running, Math.min(1, (m / (i + 1)) * p));
    adjusted[index] = running;
  }
  return adjusted;
}
