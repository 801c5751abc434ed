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

export type MeanDiffInterval = { meanDiff: number; low: number; high: number };

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
    return { meanDiff: total / n, low: quantileSorted(means, tail), high: quantileSorted(means, 1 - tail) };
  };
  return { step, result };
}

/** Linear-interpolation quantile (R type 7, NumPy's default) of ascending data. */
function quantileSorted(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}
