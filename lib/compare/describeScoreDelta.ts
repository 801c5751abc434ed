import { scoreDirection } from "@/lib/contract/metricCatalog";
import { agentValueUnit, isAgentValueMetric } from "@/lib/contract/aggregates";
import {
  adjustedClause,
  describeDelta,
  formatLevel,
  formatP,
  intervalVerdict,
  NO_CHANGE,
  verdictLabel,
  type Adjustment,
  type MeanDiffInterval,
  type Verdict,
} from "@/lib/stats";
import type { MetricDelta, ScoreIntervalMethod } from "./metricDelta";

/**
 * A score delta from its paired interval and p-value, in the words of the metric's direction and unit. With an
 * adjustment (the delta read with the comparison's other metrics) the verdict is the adjusted p's.
 */
export function describeScoreDelta(
  metric: string,
  delta: number,
  interval: MeanDiffInterval | null,
  pairs: number,
  method: ScoreIntervalMethod,
  alpha = 0.05,
  adjustment?: Adjustment,
): MetricDelta {
  if (!interval) return { delta, verdict: "n/a", words: "no row scored in both runs", pairs: 0, unpaired: 0 };
  const bounds = { low: interval.low, high: interval.high };
  const tested = { pValue: interval.pValue, ...(adjustment ? { adjustedPValue: adjustment.pValue } : {}) };
  // Like a yes/no delta: the mean paired difference the interval bounds, with the averages' difference
  // kept apart when rows scored in one run only make the two differ.
  const paired = interval.meanDiff;
  const overall = Math.abs(delta - paired) < 1e-12 ? {} : { overallDelta: delta };
  if (isAgentValueMetric(metric))
    return {
      ...agentDelta(metric, paired, interval, pairs, alpha, adjustment),
      interval: bounds,
      method,
      ...tested,
      ...overall,
    };
  if (scoreDirection(metric) === "lower")
    return {
      ...lowerIsBetterDelta(paired, interval, pairs, alpha, adjustment),
      interval: bounds,
      method,
      ...tested,
      ...overall,
    };
  const described = describeDelta(
    { kind: "score", low: interval.low, high: interval.high, delta: paired, pValue: interval.pValue },
    alpha,
    adjustment,
  );
  return {
    delta: paired,
    verdict: described.verdict,
    words: described.words,
    interval: bounds,
    method,
    ...tested,
    pairs,
    unpaired: 0,
    ...overall,
  };
}

/** Where lower is better: the verdict of the delta read with the sign turned, so "better" is a drop. */
function lowerIsBetterVerdict(
  delta: number,
  interval: { low: number; high: number },
  alpha: number,
  adjustment?: Adjustment,
): Verdict {
  return intervalVerdict({ low: -interval.high, high: -interval.low, delta: -delta }, adjustment, alpha);
}

/** "; p = 0.003, Holm-adjusted p = 0.04" after the interval, when the verdict is an adjusted p's. */
function pClause(interval: MeanDiffInterval, adjustment?: Adjustment): string {
  return adjustment ? `; p ${formatP(interval.pValue)}${adjustedClause(adjustment)}` : "";
}

/** Hallucination, toxicity, bias: a lower score is the improvement. */
function lowerIsBetterDelta(
  delta: number,
  interval: MeanDiffInterval,
  pairs: number,
  alpha: number,
  adjustment?: Adjustment,
): MetricDelta {
  const fmt = (value: number) => `${value > 0 ? "+" : value < 0 ? "\u2212" : ""}${Math.abs(value).toFixed(2)}`;
  const verdict = lowerIsBetterVerdict(delta, interval, alpha, adjustment);
  if (unchanged(delta, interval)) return { delta, verdict, words: NO_CHANGE, pairs, unpaired: 0 };
  return {
    delta,
    verdict,
    words: `${verdictLabel(verdict, adjustment)}: ${fmt(delta)} (${formatLevel(1 - alpha)}% CI ${fmt(interval.low)} to ${fmt(interval.high)}${pClause(interval, adjustment)}; lower is better)`,
    pairs,
    unpaired: 0,
  };
}

/** Tokens, seconds and tool calls: lower is better, and the words carry the unit ("Real improvement: −0.42 s (95% CI −0.61 to −0.22 s)"). */
function agentDelta(
  metric: string,
  delta: number,
  interval: MeanDiffInterval,
  pairs: number,
  alpha: number,
  adjustment?: Adjustment,
): MetricDelta {
  const latency = metric === "agent/latency_seconds";
  // Sub-second latency differences read in milliseconds: "+3 ms", not "+0.00 s".
  const inMs = latency && Math.max(Math.abs(delta), Math.abs(interval.low), Math.abs(interval.high)) < 1;
  const calls = agentValueUnit(metric) === "calls";
  const unit = inMs ? " ms" : latency ? " s" : calls ? " calls" : " tokens";
  const scale = inMs ? 1000 : 1;
  const verdict = lowerIsBetterVerdict(delta, interval, alpha, adjustment);
  // Whole tokens and milliseconds, seconds to two decimals; more decimals (up to 3) only where a real change
  // would otherwise print as "0 tokens (95% CI 0 to 0 tokens)" and contradict its own verdict.
  // Tool calls average over rows: "+0.40 calls", not "+0 calls".
  let digits = (latency && !inMs) || calls ? 2 : 0;
  const roundsToZero = (value: number) => value !== 0 && Number((Math.abs(value) * scale).toFixed(digits)) === 0;
  while (verdict !== "noise" && digits < 3 && [delta, interval.low, interval.high].some(roundsToZero)) digits++;
  const fmt = (value: number) => {
    const shown = Number((Math.abs(value) * scale).toFixed(digits));
    return `${value > 0 && shown > 0 ? "+" : value < 0 && shown > 0 ? "\u2212" : ""}${shown.toFixed(digits)}`;
  };
  // With its unit, as every agent delta is worded ("No change: 0 ms on every paired row").
  if (unchanged(delta, interval))
    return { delta, verdict, words: `No change: ${fmt(0)}${unit} on every paired row`, pairs, unpaired: 0 };
  return {
    delta,
    verdict,
    // Fewer tool calls is cheaper, but a version that skips a needed call makes fewer too: the words say so.
    words: `${verdictLabel(verdict, adjustment)}: ${fmt(delta)}${unit} (${formatLevel(1 - alpha)}% CI ${fmt(interval.low)} to ${fmt(interval.high)}${unit}${pClause(interval, adjustment)}; ${calls ? "fewer is cheaper, not always better: read the tool-call metrics beside it" : "lower is better"})`,
    pairs,
    unpaired: 0,
  };
}

function unchanged(delta: number, interval: { low: number; high: number }): boolean {
  return delta === 0 && interval.low === 0 && interval.high === 0;
}
