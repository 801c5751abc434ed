import type { PairedCounts } from "@/lib/db/judgments/compareQueries";
import { describeDelta, exactMcNemar, mcNemarExactInterval } from "@/lib/stats";
import type { MetricDelta } from "./metricDelta";

/**
 * A yes/no metric's delta, interval and test all on the rows both runs judged: the paired difference in
 * yes-rates (c − b) / n, McNemar's exact p, and the interval that inverts that test (mcNemarExactInterval), so
 * the two never disagree. The overall yes-rates in the
 * cells also count rows judged in one run only; where there are such rows their difference is kept apart
 * (`overallDelta`), so the delta never sits outside its own interval.
 */
export function binaryDelta(
  pairedCounts: PairedCounts[],
  metric: string,
  overallDelta: number,
  alpha: number,
): MetricDelta {
  const counts = pairedCounts.find((c) => c.metric === metric);
  const paired = counts && mcNemarExactInterval(counts.yesNo, counts.noYes, counts.both, 1 - alpha);
  if (!counts || !paired)
    return { delta: overallDelta, verdict: "n/a", words: "no row judged in both runs", pairs: 0, unpaired: 0 };
  const { difference, low, high } = paired;
  const { pValue } = exactMcNemar(counts.yesNo, counts.noYes);
  const described = describeDelta({ kind: "binary", pValue, delta: difference * 100 }, alpha);
  const unpaired = counts.onlyBaseline + counts.onlyCandidate;
  // Rows judged in one run only, or rated in one and errored in the other, count in the overall rates alone.
  const sameBasis = Math.abs(overallDelta - difference) < 1e-12;
  return {
    delta: difference,
    ...(sameBasis ? {} : { overallDelta }),
    verdict: described.verdict,
    words: described.words,
    interval: { low, high },
    pValue,
    pairs: counts.both,
    flips: { regressions: counts.yesNo, improvements: counts.noYes },
    unpaired,
  };
}
