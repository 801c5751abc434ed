import { isGEvalMetric } from "./gEvalMetric";
import { findMetric } from "./metricCatalog";

/**
 * Run-level aggregates, named exactly as Agent Evaluation names them. Errors are a
 * third state: an errored judgment is neither yes nor no, is left out of the
 * denominator, and is counted beside the value.
 */
export type MetricCounts = {
  metric: string;
  yes: number;
  no: number;
  error: number;
  skipped: number;
  pending: number;
  /** Finished rows that carry a score (precision, recall, agent values). */
  scored: number;
  scoreSum: number;
  passed: number;
  failed: number;
};

export type Aggregate = {
  metric: string;
  /** Agent Evaluation's aggregate name, e.g. response/llm_judged/correctness/rating/percentage. */
  name: string;
  kind: "percentage" | "average";
  value: number | null;
  /** For percentages: yes count and judged count (yes + no). For averages: rows averaged. */
  numerator: number;
  denominator: number;
  errors: number;
  skipped: number;
  pending: number;
  /** Rows at or above the pass mark, for score metrics. */
  passed: number;
  failed: number;
  /**
   * Score metrics of DeepEval and Mastra: `<metric>/success/percentage`, the share of scored rows that
   * succeeded (score ≥ threshold, ≤ where lower is better), with its counts; absent for the others.
   */
  success?: {
    name: string;
    value: number | null;
    numerator: number;
    denominator: number;
    /** A run with trials: the 95 % interval of the success rate with the row as the unit (see `interval`). */
    interval?: { low: number; high: number } | null;
  };
  /**
   * A run that judged each row `trials` times: the counts above are of trials (judgments), not rows, and
   * `interval` is the 95 % interval of the yes-rate with the row as the unit (its mean over its trials), which
   * readers show instead of Wilson's over the counts (lib/stats/trialAgreement.ts rowRateInterval).
   */
  trials?: number;
  interval?: { low: number; high: number } | null;
};

const AGENT_AGGREGATE_NAMES: Record<string, string> = {
  "agent/total_token_count": "agent/total_token_count/average",
  "agent/total_input_token_count": "agent/input_token_count/average",
  "agent/total_output_token_count": "agent/output_token_count/average",
  "agent/latency_seconds": "agent/latency_seconds/average",
};

/**
 * How a metric aggregates: yes/no judges (all response judges, built-in or
 * custom ANSWER, and context_sufficiency) as a percentage of yes; per-chunk
 * judges (chunk_relevance, custom RETRIEVAL) as the average precision;
 * document_recall and agent/* as a plain average; the DeepEval and Mastra
 * score metrics (catalogue entries with `score`) as the average score and the success percentage.
 */
export function metricShape(metric: string): "rating" | "precision" | "value" | "score" {
  if (isScoreMetric(metric)) return "score";
  if (findMetric(metric)?.yesNo) return "rating";
  if (metric.startsWith("response/llm_judged/") || metric === "retrieval/llm_judged/context_sufficiency")
    return "rating";
  if (metric.startsWith("retrieval/llm_judged/")) return "precision";
  return "value";
}

export function aggregateName(metric: string): string {
  if (AGENT_AGGREGATE_NAMES[metric]) return AGENT_AGGREGATE_NAMES[metric];
  const shape = metricShape(metric);
  if (shape === "score") return `${metric}/score/average`;
  if (shape === "value") return `${metric}/average`;
  if (shape === "precision") return `${metric}/precision/average`;
  // Agent Evaluation's judge reference names the safety aggregate .../rating/average; the others .../rating/percentage.
  if (metric === "response/llm_judged/safety") return `${metric}/rating/average`;
  return `${metric}/rating/percentage`;
}

export function toAggregate(counts: MetricCounts): Aggregate {
  const isRating = metricShape(counts.metric) === "rating";
  const base = {
    metric: counts.metric,
    errors: counts.error,
    skipped: counts.skipped,
    pending: counts.pending,
    passed: counts.passed,
    failed: counts.failed,
  };
  if (isRating) {
    const judged = counts.yes + counts.no;
    return {
      ...base,
      name: aggregateName(counts.metric),
      kind: "percentage",
      value: judged === 0 ? null : counts.yes / judged,
      numerator: counts.yes,
      denominator: judged,
    };
  }
  const judged = counts.passed + counts.failed;
  return {
    ...base,
    name: aggregateName(counts.metric),
    kind: "average",
    value: counts.scored === 0 ? null : counts.scoreSum / counts.scored,
    numerator: counts.scoreSum,
    denominator: counts.scored,
    ...(metricShape(counts.metric) === "score"
      ? {
          success: {
            name: `${counts.metric}/success/percentage`,
            value: judged === 0 ? null : counts.passed / judged,
            numerator: counts.passed,
            denominator: judged,
          },
        }
      : {}),
  };
}

/**
 * An agent's measured value rather than a verdict (tokens, latency, tool calls): no pass mark, and
 * where it differs between runs, lower is better.
 */
export function isAgentValueMetric(metric: string): boolean {
  return findMetric(metric)?.kind === "agent";
}

/** What an agent value is counted in. */
export function agentValueUnit(metric: string): "seconds" | "tokens" | "calls" {
  if (metric === "agent/latency_seconds") return "seconds";
  return metric === "agent/tool_call_count" ? "calls" : "tokens";
}

/** A DeepEval or Mastra score metric (score, threshold, success, reason, error_message per row). */
export function isScoreMetric(metric: string): boolean {
  return findMetric(metric)?.score !== undefined || isGEvalMetric(metric);
}
