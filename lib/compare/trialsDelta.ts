import { describeDelta, pairedBootstrapMeanDiff, type Adjustment } from "@/lib/stats";
import { BOOTSTRAP_ITERATIONS, BOOTSTRAP_SEED } from "./bootstrapIntervals";
import type { MetricDelta } from "./metricDelta";

/**
 * A yes/no metric whose rows were each judged over several trials. The row is the unit: its observation is its
 * pass rate over its trials (2 of 3 trials yes: 0.667), and the delta is the mean over the rows both runs
 * judged of candidate minus baseline, tested by the paired bootstrap over rows (the same resamples, seed and
 * percentile rule as a score's). Counting each trial as a row of its own would treat three judgments of one
 * answer as three independent answers, and shrink the interval by up to √3 for nothing. With one trial per
 * row compare keeps exact McNemar (binaryDelta.ts), which this reduces to in spirit but not in p-value.
 *
 * `baselineRates[i]` and `candidateRates[i]` are the same row's pass rates in [0, 1].
 */
export function yesNoTrialsDelta(
  baselineRates: number[],
  candidateRates: number[],
  alpha: number,
  adjustment?: Adjustment,
): MetricDelta {
  const interval = pairedBootstrapMeanDiff(baselineRates, candidateRates, {
    iterations: BOOTSTRAP_ITERATIONS,
    seed: BOOTSTRAP_SEED,
    confidence: 1 - alpha,
  });
  if (!interval) return { delta: null, verdict: "n/a", words: "no row judged in both runs", pairs: 0, unpaired: 0 };
  const described = describeDelta(
    {
      kind: "rate",
      delta: interval.meanDiff * 100,
      low: interval.low * 100,
      high: interval.high * 100,
      pValue: interval.pValue,
    },
    alpha,
    adjustment,
  );
  return {
    delta: interval.meanDiff,
    verdict: described.verdict,
    words: described.words,
    interval: { low: interval.low, high: interval.high },
    method: "paired_bootstrap",
    pValue: interval.pValue,
    ...(adjustment ? { adjustedPValue: adjustment.pValue } : {}),
    pairs: baselineRates.length,
    unpaired: 0,
  };
}
