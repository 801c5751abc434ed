import { isGEvalMetric } from "@/lib/contract/gEvalMetric";
import { findMetric, scoreDirection } from "@/lib/contract/metricCatalog";

/**
 * DeepEval's strict_mode, for the metrics that have it (DeepEval's family and G-Eval): a binary score
 * and a threshold of 1. Each DeepEval metric does it the same way: where higher is better, a score short
 * of 1 becomes 0 (threshold 1); where lower is better (hallucination, toxicity, bias), any score above 0
 * becomes 1 (threshold 0). Mastra's and the statistical scorers have no strict mode.
 */
export function hasStrictMode(metric: string): boolean {
  const definition = findMetric(metric);
  return definition?.family === "deepeval" || definition?.upstream === "deepeval" || isGEvalMetric(metric);
}

/** The thresholds strict mode sets, for those of `metrics` that have it. */
export function strictThresholds(metrics: readonly string[]): Record<string, number> {
  return Object.fromEntries(
    metrics.filter(hasStrictMode).map((metric) => [metric, scoreDirection(metric) === "lower" ? 0 : 1]),
  );
}

/** Float ratios such as 3/3 are exact, but a weighted G-Eval score may land a hair below 1. */
const EPSILON = 1e-9;

/** A score as strict mode reports it: 1 or 0. */
export function strictScore(metric: string, score: number): number {
  if (scoreDirection(metric) === "lower") return score > EPSILON ? 1 : 0;
  return score >= 1 - EPSILON ? 1 : 0;
}
