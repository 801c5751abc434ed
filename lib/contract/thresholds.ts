import { findMetric, scoreDirection } from "./metricCatalog";

/**
 * Pass marks. For a yes/no metric a row passes on "yes"; the run's threshold
 * for it is the minimum share of yes (used by the CLI and the dashboard). For a
 * score metric (chunk precision, document recall, custom retrieval precision,
 * the DeepEval and Mastra scores) a row passes when its score reaches the threshold:
 * at or above it, or at or below it for a lower-is-better metric
 * (hallucination, toxicity, bias): DeepEval's is_successful.
 */
export const DEFAULT_SCORE_THRESHOLD = 0.5;

/** Thresholds may be keyed by the full Agent Evaluation name or its last segment (correctness, document_recall). */
export function thresholdFor(
  metric: string,
  thresholds: Record<string, number>,
  fallback: number = DEFAULT_SCORE_THRESHOLD,
): number {
  const short = metric.split("/").pop() ?? metric;
  return thresholds[metric] ?? thresholds[short] ?? fallback;
}

/**
 * A score metric's pass mark when the run sets none: the catalogue's default (0.5), on the
 * metric's own scale (context_relevance may be scaled by Mastra's `scale`: 0.5 × scale).
 */
export function defaultThreshold(metric: string, contextRelevanceScale = 1): number {
  const base = findMetric(metric)?.score?.defaultThreshold ?? DEFAULT_SCORE_THRESHOLD;
  return metric === "retrieval/llm_judged/context_relevance" ? base * contextRelevanceScale : base;
}

export function configuredThreshold(metric: string, thresholds: Record<string, number>): number | null {
  const short = metric.split("/").pop() ?? metric;
  return thresholds[metric] ?? thresholds[short] ?? null;
}

/** DeepEval's is_successful for one score: score ≥ threshold, or ≤ where lower is better. */
export function scorePasses(metric: string, score: number, threshold: number): boolean {
  return scoreDirection(metric) === "lower" ? score <= threshold : score >= threshold;
}

/** Whether a run aggregate meets a threshold: at or above it, or at or below it where lower is better. */
export function aggregateMeets(metric: string, value: number, threshold: number): boolean {
  return scorePasses(metric, value, threshold);
}
