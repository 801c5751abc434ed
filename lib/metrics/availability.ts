import { offlineUnavailableReason } from "@/lib/judges/heuristic";
import type { InputCoverage } from "@/lib/contract/inputSignatures";
import { INPUT_DESCRIPTIONS, METRICS, type MetricDefinition, type RowInput } from "@/lib/contract/metricCatalog";

export type MetricAvailability = {
  metric: MetricDefinition;
  rows: number;
  rowCount: number;
  status: "all" | "some" | "none";
  /** Why the other rows cannot compute it: the inputs they lack. */
  missing: { input: RowInput; description: string; rowsWithout: number }[];
  /** Set when the run is judged offline and this metric has no offline rule: why (then rows is 0). */
  unavailableOffline?: string;
};

/**
 * The Agent Evaluation input schema's table of which metrics each input allows, applied to a dataset.
 * A run that generates responses supplies the response and agent/* inputs itself.
 */
export function metricAvailability(
  coverage: InputCoverage,
  options: { generatesResponses?: boolean; offline?: boolean } = {},
): MetricAvailability[] {
  const supplied = new Set<RowInput>(
    options.generatesResponses ? ["response", "response_or_empty", "trace_tokens", "trace_latency"] : [],
  );
  return METRICS.map((metric) => {
    const needs = metric.requires.filter((input) => !supplied.has(input));
    const rows =
      needs.length === metric.requires.length
        ? (coverage.metrics[metric.name] ?? 0)
        : Math.min(...needs.map((input) => coverage.inputs[input]), coverage.rowCount);
    const missing = needs
      .map((input) => ({
        input,
        description: INPUT_DESCRIPTIONS[input],
        rowsWithout: coverage.rowCount - coverage.inputs[input],
      }))
      .filter((entry) => entry.rowsWithout > 0);
    const unavailableOffline = options.offline ? offlineUnavailableReason(metric.name) : null;
    if (unavailableOffline)
      return { metric, rows: 0, rowCount: coverage.rowCount, status: "none", missing, unavailableOffline };
    const status = rows === 0 ? "none" : rows === coverage.rowCount ? "all" : "some";
    return { metric, rows, rowCount: coverage.rowCount, status, missing };
  });
}
