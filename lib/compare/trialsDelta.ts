import {
  describeDelta,
  pairedBootstrapMeanDiff,
  pairedDifferenceSums,
  pairedNormalMeanDiff,
  type Adjustment,
  type MeanDiffInterval,
} from "@/lib/stats";
import { BOOTSTRAP_ITERATIONS, BOOTSTRAP_SEED } from "./bootstrapIntervals";
import { describeScoreDelta } from "./describeScoreDelta";
import type { MetricDelta, ScoreIntervalMethod } from "./metricDelta";

/**
 * Above this many paired rows the rows' means are tested with the paired normal interval instead of the
 * bootstrap: compare computes these while the page waits (2,000 resamples of 30,000 rows for each of a dozen
 * metrics would take seconds), and at that size the mean of the rows' differences is normal to within the
 * bootstrap's own resampling error.
 */
export const TRIALS_BOOTSTRAP_MAX_PAIRS = 5_000;

/** The paired rows' mean difference with its (1 − alpha) interval and p, by the method their number allows. */
function rowMeansInterval(
  baseline: number[],
  candidate: number[],
  alpha: number,
): { interval: MeanDiffInterval | null; method: ScoreIntervalMethod } {
  if (baseline.length > TRIALS_BOOTSTRAP_MAX_PAIRS)
    return {
      interval: pairedNormalMeanDiff(pairedDifferenceSums(baseline, candidate), 1 - alpha),
      method: "paired_normal",
    };
  const interval = pairedBootstrapMeanDiff(baseline, candidate, {
    iterations: BOOTSTRAP_ITERATIONS,
    seed: BOOTSTRAP_SEED,
    confidence: 1 - alpha,
  });
  return { interval, method: "paired_bootstrap" };
}

/**
 * A metric compared between two runs of which one or both judged each row over several trials: each paired
 * row's mean over its trials (the row is the unit, never the trial), the candidate's minus the baseline's,
 * tested over rows (`means`, from lib/db/judgments/trialPairing.ts). `delta` is the difference of the two
 * aggregates, shown beside the paired one when rows judged in one run only make them differ.
 */
export function trialsMetricDelta(
  means: { baseline: number[]; candidate: number[] },
  metric: string,
  shape: "rating" | "score",
  delta: number,
  alpha: number,
): MetricDelta {
  if (shape === "rating") return yesNoTrialsDelta(means.baseline, means.candidate, alpha);
  const { interval, method } = rowMeansInterval(means.baseline, means.candidate, alpha);
  return describeScoreDelta(metric, delta, interval, means.baseline.length, method, alpha);
}

/**
 * A yes/no metric whose rows were each judged over several trials. The row is the unit: its observation is its
 * pass rate over its trials (2 of 3 trials yes: 0.667), and the delta is the mean over the rows both runs
 * judged of candidate minus baseline, tested by the paired bootstrap over rows (the same resamples, seed and
 * percentile rule as a score's; the paired normal interval past TRIALS_BOOTSTRAP_MAX_PAIRS rows). Counting each trial as a row of its own would treat three judgments of one
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
  const { interval, method } = rowMeansInterval(baselineRates, candidateRates, alpha);
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
    method,
    pValue: interval.pValue,
    ...(adjustment ? { adjustedPValue: adjustment.pValue } : {}),
    pairs: baselineRates.length,
    unpaired: 0,
  };
}
