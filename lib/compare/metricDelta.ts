import type { PairwiseSummary } from "@/lib/stats/pairwiseSummary";

/** A metric's delta against the baseline, as compareRuns computes it and describeScoreDelta words a score's. */
export type MetricDelta = {
  /**
   * Candidate minus baseline. For a tested metric: the paired difference over the `pairs` rows both runs
   * judged (in yes-rates, or the mean score difference), the same basis as its interval and test. Otherwise
   * (pending, n/a) the difference of the two aggregates shown in the cells.
   */
  delta: number | null;
  /**
   * Set for a tested metric when the aggregates in the cells differ by another amount than the paired `delta`
   * (rows judged in one run only, or rated in one and errored in the other): their difference.
   */
  overallDelta?: number;
  /** "pending": the paired bootstrap is still being computed in the background (see bootstrapIntervals.ts). */
  verdict: "better" | "worse" | "noise" | "n/a" | "pending";
  words: string;
  /**
   * The delta's (1 − alpha) interval, by the same method as its p-value, so it excludes 0 exactly when the raw
   * p is below alpha: for scores the paired bootstrap's percentile interval, or the normal approximation's
   * (`method`); for yes/no metrics the interval that inverts the exact McNemar test (lib/stats/mcNemarInterval.ts).
   * It is the metric's own interval, not widened for the comparison's other metrics.
   */
  interval?: { low: number; high: number } | null;
  /**
   * How a tested score delta's interval was computed: the paired bootstrap up to `bootstrapMaxPairs` paired
   * rows, the normal approximation from the differences' sums in SQL above that (pairedNormal.ts).
   */
  method?: ScoreIntervalMethod;
  /** The paired test's two-sided p-value: exact McNemar for yes/no, the bootstrap's or the normal's for scores. */
  pValue?: number;
  /**
   * The p-value adjusted for the comparison's other tested metrics (`correction`); the verdict is its when set.
   * Absent with no correction.
   */
  adjustedPValue?: number;
  pairs: number;
  flips?: { regressions: number; improvements: number };
  unpaired: number;
  /** Set when the two runs' judge, prompt version or pass mark for this metric differ (judgeDifferences.ts). */
  judgedDifferently?: string;
  /** A pairwise criterion's (`pairwise/<criterion>`) result and judge diagnostics (pairwiseDelta.ts). */
  pairwise?: PairwiseSummary;
};

export type ScoreIntervalMethod = "paired_bootstrap" | "paired_normal";
