import type { Aggregate } from "@/lib/metrics/aggregates";

export type ThresholdVerdict = { metric: string; aggregateName: string; threshold: number; value: number | null; passed: boolean };

/** A threshold holds when the metric's aggregate reaches it; an aggregate with nothing judged cannot hold. */
export function checkThresholds(aggregates: Aggregate[], thresholds: Record<string, number>): ThresholdVerdict[] {
  return Object.entries(thresholds).map(([metric, threshold]) => {
    const aggregate = aggregates.find((a) => a.metric === metric);
    const value = aggregate?.value ?? null;
    return { metric, aggregateName: aggregate?.name ?? metric, threshold, value, passed: value !== null && value >= threshold };
  });
}
