import type { MeanDiffInterval } from "./bootstrap";
import { twoSidedZ } from "./normal";
import { twoSidedNormalP } from "./specialFunctions";

/** The sums of a paired sample's differences (candidate − baseline), as SQL adds them up: no row is loaded. */
export type PairedDifferenceSums = { pairs: number; sum: number; sumSquares: number };

/**
 * The normal-approximation interval of mean(candidate − baseline) over paired
 * rows: the mean difference ± z · s / √n, with s the sample standard deviation
 * of the differences. It needs only their count, sum and sum of squares, so a
 * comparison of two million-row runs costs one pass in SQL instead of reading
 * every pair and drawing n × 1,000 bootstrap resamples.
 *
 * Used where n is large: the mean of tens of thousands of paired differences is
 * normal to well within the bootstrap's own Monte Carlo error, whatever the
 * scores' distribution (tests/stats/pairedNormal.test.ts holds it against the
 * percentile bootstrap on skewed and bounded samples). The variance comes from
 * sums (Σd² − (Σd)²/n), which loses digits only when the spread is below about
 * 1e-8 of the mean difference; a negative result of that rounding is read as 0.
 *
 * Its p-value is the z test's, 2 · P(Z ≥ |mean| / (s / √n)): below α exactly when the (1 − α) interval
 * excludes 0. Null for no pairs. One pair, or pairs that all differ by the same amount, have no spread to
 * estimate: the interval is the point, and p is 1 for a zero difference and 0 for any other.
 */
export function pairedNormalMeanDiff(sums: PairedDifferenceSums, confidence = 0.95): MeanDiffInterval | null {
  const { pairs: n, sum, sumSquares } = sums;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pairs must be a non-negative integer, got ${n}`);
  if (!Number.isFinite(sum) || !Number.isFinite(sumSquares))
    throw new RangeError(`sums must be finite, got ${sum} and ${sumSquares}`);
  if (n === 0) return null;
  const meanDiff = sum / n;
  const pointP = meanDiff === 0 ? 1 : 0;
  if (n === 1) return { meanDiff, low: meanDiff, high: meanDiff, pValue: pointP };
  const variance = Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
  const standardError = Math.sqrt(variance / n);
  const half = twoSidedZ(confidence) * standardError;
  const pValue = standardError === 0 ? pointP : twoSidedNormalP(meanDiff / standardError);
  return { meanDiff, low: meanDiff - half, high: meanDiff + half, pValue };
}

/** The sums of the differences of two paired arrays, as SQL would compute them (for tests and in-memory callers). */
export function pairedDifferenceSums(baseline: ArrayLike<number>, candidate: ArrayLike<number>): PairedDifferenceSums {
  if (baseline.length !== candidate.length)
    throw new RangeError(`paired sums need equal lengths, got ${baseline.length} and ${candidate.length}`);
  let sum = 0;
  let sumSquares = 0;
  for (let i = 0; i < baseline.length; i++) {
    const d = candidate[i] - baseline[i];
    sum += d;
    sumSquares += d * d;
  }
  return { pairs: baseline.length, sum, sumSquares };
}
