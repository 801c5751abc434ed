import { twoSidedZ } from "./normal";

/**
 * The paired difference in yes-rates (second minus first) over n rows judged in both, with its 95% interval.
 * `firstOnly` (b) counts rows yes in the first and no in the second, `secondOnly` (c) the reverse.
 *
 * The interval is the Wald interval with Agresti and Min's adjustment (Agresti A, Min Y, "Simple improved
 * confidence intervals for comparing matched proportions", Statistics in Medicine 2005;24:729–740): half a
 * row is added to each of the four cells before the textbook Wald interval is taken. The plain paired Wald
 * interval is exactly [0, 0] when no row flipped (b = c = 0), which reads as a certainty no sample gives;
 * Fagerland, Lydersen and Laake (BMC Medical Research Methodology 2013;13:91, "The McNemar test for binary
 * matched-pairs data") recommend this adjustment among the simple intervals for its coverage. The
 * difference it belongs to stays the observed (c − b) / n, which always lies inside it.
 */
export function pairedRateDifference(
  firstOnly: number,
  secondOnly: number,
  n: number,
  confidence = 0.95,
): { difference: number; low: number; high: number } | null {
  for (const [name, value] of [
    ["firstOnly", firstOnly],
    ["secondOnly", secondOnly],
    ["n", n],
  ] as const)
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  if (firstOnly + secondOnly > n)
    throw new RangeError(`flipped rows (${firstOnly} + ${secondOnly}) cannot exceed the paired rows (${n})`);
  if (n === 0) return null;
  const adjustedN = n + 2;
  const b = firstOnly + 0.5;
  const c = secondOnly + 0.5;
  const center = (c - b) / adjustedN;
  const half = (twoSidedZ(confidence) * Math.sqrt(b + c - ((c - b) * (c - b)) / adjustedN)) / adjustedN;
  return {
    difference: (secondOnly - firstOnly) / n,
    low: Math.max(-1, center - half),
    high: Math.min(1, center + half),
  };
}
