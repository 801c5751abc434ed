import type { MeanDiffInterval } from "./bootstrap";
import { twoSidedZ } from "./normal";

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
 * Null for no pairs. One pair has no spread to estimate: its interval is the point.
 */
export function pairedNormalMeanDiff(sums: PairedDifferenceSums, confidence = 0.95): MeanDiffInterval | null {
  const { pairs: n, sum, sumSquares } = sums;
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pairs must be a non-negative integer, got ${n}`);
  if (!Number.isFinite(sum) || !Number.isFinite(sumSquares))
    throw new RangeError(`sums must be finite, got ${sum} and ${sumSquares}`);
  if (n === 0) return null;
  const meanDiff = sum / n;
  if (n === 1) return { meanDiff, low: meanDiff, high: meanDiff };
  const variance = Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
  const half = twoSidedZ(confidence) * Math.sqrt(variance / n);
  return { meanDiff, low: meanDiff - half, high: meanDiff + half };
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
