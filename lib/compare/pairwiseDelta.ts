import { adjustedClause, formatLevel, formatP, verdictLabel, type Adjustment } from "@/lib/stats";
import type { PairwiseSummary } from "@/lib/stats/pairwiseSummary";
import type { MetricDelta } from "./metricDelta";

/** Whether a delta is a pairwise criterion's (its metric `pairwise/<criterion>`), read by its own words below. */
export function isPairwiseMetric(metric: string): boolean {
  return metric.startsWith("pairwise/");
}

/**
 * A pairwise criterion's result in compare's terms: `delta` is B's win rate over A minus ½ (ties as half), its
 * interval the win rate's minus ½, and the verdict the exact sign test's on wins against losses (or its adjusted
 * p, read with the comparison's other metrics): real improvement when B wins significantly more pairs than it
 * loses, real regression when fewer, likely noise otherwise. Pending while the comparison is being judged.
 */
export function pairwiseDelta(
  summary: PairwiseSummary,
  alpha: number,
  options: { judging: boolean; adjustment?: Adjustment },
): MetricDelta {
  const { winRate, signTest } = summary;
  if (options.judging)
    return {
      delta: winRate ? winRate.value - 0.5 : null,
      verdict: "pending",
      words: `Being judged: ${summary.pairs} pairs so far`,
      pairs: summary.pairs,
      unpaired: 0,
      pairwise: summary,
    };
  if (!winRate)
    return {
      delta: null,
      verdict: "n/a",
      words: "no pair has a verdict",
      pairs: 0,
      unpaired: 0,
      pairwise: summary,
    };
  const pValue = signTest.pValue;
  const decided = options.adjustment?.pValue ?? pValue;
  const verdict =
    decided < alpha && signTest.wins !== signTest.losses
      ? signTest.wins > signTest.losses
        ? "better"
        : "worse"
      : "noise";
  const percent = (value: number) => (value * 100).toFixed(1);
  const interval = `${formatLevel(1 - alpha)}% CI ${percent(winRate.low)} to ${percent(winRate.high)}`;
  const words =
    `${verdictLabel(verdict, options.adjustment)}: B wins ${percent(winRate.value)}% of ${summary.pairs} pairs, ties as half ` +
    `(${interval}; ${signTest.wins} wins, ${signTest.losses} losses, ${summary.ties} ties; sign test p ${formatP(pValue)}${adjustedClause(options.adjustment)})`;
  return {
    delta: winRate.value - 0.5,
    verdict,
    words,
    interval: { low: winRate.low - 0.5, high: winRate.high - 0.5 },
    pValue,
    ...(options.adjustment ? { adjustedPValue: options.adjustment.pValue } : {}),
    pairs: summary.pairs,
    unpaired: 0,
    pairwise: summary,
  };
}
