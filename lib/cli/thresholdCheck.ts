import type { Aggregate } from "@/lib/contract/aggregates";
import { aggregateMeets } from "@/lib/contract/thresholds";
import { resolveMetricName } from "@/lib/metrics/metricNames";

export type ThresholdVerdict = {
  metric: string;
  aggregateName: string;
  threshold: number;
  value: number | null;
  passed: boolean;
};

/**
 * A threshold holds when the metric's aggregate reaches it (for a lower-is-better score, stays at or
 * below it); an aggregate with nothing judged cannot hold.
 * Keys may be any accepted spelling (older stored configs kept short names); custom judges' keys stay as they are.
 */
export function checkThresholds(
  aggregates: Pick<Aggregate, "metric" | "name" | "value">[],
  thresholds: Record<string, number>,
): ThresholdVerdict[] {
  const canonical = new Map<string, number>();
  for (const [name, threshold] of Object.entries(thresholds)) canonical.set(resolveMetricName(name) ?? name, threshold);
  return [...canonical].map(([metric, threshold]) => {
    const aggregate = aggregates.find((a) => a.metric === metric);
    const value = aggregate?.value ?? null;
    return {
      metric,
      aggregateName: aggregate?.name ?? metric,
      threshold,
      value,
      passed: value !== null && aggregateMeets(metric, value, threshold),
    };
  });
}
