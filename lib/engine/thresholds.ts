/**
 * Pass marks. For a yes/no metric a row passes on "yes"; the run's threshold
 * for it is the minimum share of yes (used by the CLI and the dashboard). For a
 * score metric (chunk precision, document recall, custom retrieval precision,
 * later G-Eval-style scores) a row passes when its score reaches the threshold.
 */
export const DEFAULT_SCORE_THRESHOLD = 0.5;

/** Thresholds may be keyed by the full Agent Evaluation name or its last segment (correctness, document_recall). */
export function thresholdFor(metric: string, thresholds: Record<string, number>): number {
  const short = metric.split("/").pop() ?? metric;
  return thresholds[metric] ?? thresholds[short] ?? DEFAULT_SCORE_THRESHOLD;
}

export function configuredThreshold(metric: string, thresholds: Record<string, number>): number | null {
  const short = metric.split("/").pop() ?? metric;
  return thresholds[metric] ?? thresholds[short] ?? null;
}
