import { mulberry32 } from "./prng";

export type BootstrapOptions = {
  /** Resamples to draw; 2000 keeps the 2.5% / 97.5% percentiles stable to ~2 decimals. */
  iterations?: number;
  /** Two-sided coverage of the percentile interval. */
  confidence?: number;
  /** PRNG seed; fixed by default so a rerun on the same data shows the same interval. */
  seed?: number;
};

const DEFAULT_SEED = 0x5eed;

/**
 * A paired mean difference with its interval and the two-sided p-value of "no difference" by the same method:
 * the interval at level 1 − α excludes 0 exactly when pValue < α.
 */
export type MeanDiffInterval = { meanDiff: number; low: number; high: number; pValue: number };

/**
 * Paired bootstrap CI for mean(candidate − baseline). Paired because both runs
 * score the same rows: resampling rows (not each run separately) keeps the
 * per-row difficulty that the two runs share out of the interval's width.
 *
 * Returns null for empty input: there is no mean to bound.
 * Throws when the arrays differ in length (they would not be paired).
 */
export function pairedBootstrapMeanDiff(
  baseline: number[],
  candidate: number[],
  options: BootstrapOptions = {},
): MeanDiffInterval | null {
  const bootstrap = startPairedBootstrap(baseline, candidate, options);
  if (!bootstrap) return null;
  while (!bootstrap.step(Infinity));
  return bootstrap.result();
}

/**
 * The same bootstrap in steps, for a caller that must not hold the thread for
 * all n × iterations draws at once (a server answering other requests): each
 * step draws whole resamples until it has made at least `maxDraws` draws, and
 * says whether every resample is done. The draws are the same as in one go,
 * so the interval is identical however the work is sliced.
 */
export type SteppedBootstrap = { step: (maxDraws: number) => boolean; result: () => MeanDiffInterval };

export function startPairedBootstrap(
  baseline: number[],
  candidate: number[],
  options: BootstrapOptions = {},
): SteppedBootstrap | null {
  if (baseline.length !== candidate.length) {
    throw new RangeError(`paired bootstrap needs equal lengths, got ${baseline.length} and ${candidate.length}`);
  }
  const { iterations = 2000, confidence = 0.95, seed = DEFAULT_SEED } = options;
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new RangeError(`iterations must be a positive integer, got ${iterations}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const n = baseline.length;
  if (n === 0) return null;

  const diffs = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const d = candidate[i] - baseline[i];
    // One NaN would silently turn every resampled mean into NaN.
    if (!Number.isFinite(d)) throw new RangeError(`non-finite value at index ${i}`);
    diffs[i] = d;
    total += d;
  }

  // Hot loop: n × iterations index draws (20M for 10k rows), so no allocation
  // inside it, only a preallocated typed array of resampled means.
  const random = mulberry32(seed);
  const means = new Float64Array(iterations);
  let done = 0;
  const step = (maxDraws: number): boolean => {
    let drawn = 0;
    while (done < iterations && drawn < maxDraws) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += diffs[(random() * n) | 0];
      means[done++] = sum / n;
      drawn += n;
    }
    return done === iterations;
  };
  const result = (): MeanDiffInterval => {
    if (done < iterations) throw new Error(`bootstrap unfinished: ${done} of ${iterations} resamples drawn`);
    means.sort(); // typed-array sort is numeric, unlike Array#sort
    const tail = (1 - confidence) / 2;
    return {
      meanDiff: total / n,
      low: quantileSorted(means, tail),
      high: quantileSorted(means, 1 - tail),
      pValue: percentileBootstrapP(means),
    };
  };
  return { step, result };
}

/**
 * The two-sided p-value that matches the percentile interval read off the same sorted resampled means: the
 * smallest α at which the (1 − α) interval (quantiles at α/2 and 1 − α/2, interpolated as quantileSorted
 * does) excludes 0. The lower bound is above 0 exactly when α/2 is past q0, the last quantile level at which
 * the interpolated quantile is still ≤ 0; the upper bound is below 0 exactly when α/2 is past 1 − q1, with q1
 * the first level at which it is ≥ 0. So p = min(1, 2 · min(q0, 1 − q1)), and "interval excludes 0" and
 * "p < α" are the same statement, not two rules that can disagree at the edge.
 */
export function percentileBootstrapP(sorted: Float64Array): number {
  const last = sorted.length - 1;
  if (last <= 0) return sorted[0] === 0 ? 1 : 0;
  // q0: past the last mean ≤ 0, up to where the line to the next mean crosses 0.
  let i = -1;
  while (i < last && sorted[i + 1] <= 0) i++;
  const q0 = i < 0 ? 0 : i === last ? 1 : (i + -sorted[i] / (sorted[i + 1] - sorted[i])) / last;
  // q1: the first mean ≥ 0, back to where the line from the one before it crosses 0.
  let j = last + 1;
  while (j > 0 && sorted[j - 1] >= 0) j--;
  const q1 = j > last ? 1 : j === 0 ? 0 : (j - 1 + -sorted[j - 1] / (sorted[j] - sorted[j - 1])) / last;
  return Math.min(1, 2 * Math.min(q0, 1 - q1));
}

/** Linear-interpolation quantile (R type 7, NumPy's default) of ascending data. */
function quantileSorted(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}
