import type { Aggregate } from "@/lib/metrics/aggregates";

/** An aggregate with every count zero except those given. */
export function aggregate(metric: string, fields: Partial<Aggregate>): Aggregate {
  return {
    metric,
    name: `${metric}/x`,
    kind: "percentage",
    value: null,
    numerator: 0,
    denominator: 0,
    errors: 0,
    skipped: 0,
    pending: 0,
    passed: 0,
    failed: 0,
    ...fields,
  };
}
