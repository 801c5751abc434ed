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
   * The delta's 95% interval: for scores the paired bootstrap's, or the normal approximation's (`method`); for yes/no metrics the Agresti–Min adjusted
   * Wald interval of the paired difference in yes-rates (lib/stats/pairedProportions.ts; the verdict itself
   * is McNemar's).
   */
  interval?: { low: number; high: number } | null;
  /**
   * How a tested score delta's interval was computed: the paired bootstrap up to `bootstrapMaxPairs` paired
   * rows, the normal approximation from the differences' sums in SQL above that (pairedNormal.ts).
   */
  method?: ScoreIntervalMethod;
  pValue?: number;
  pairs: number;
  flips?: { regressions: number; improvements: number };
  unpaired: number;
  /** Set when the two runs' judge, prompt version or pass mark for this metric differ (judgeDifferences.ts). */
  judgedDifferently?: string;
};

export type ScoreIntervalMethod = "paired_bootstrap" | "paired_normal";
