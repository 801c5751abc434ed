import type { Aggregate } from "@/lib/contract/aggregates";

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

/** A DeepEval or Mastra score aggregate: average `value` over `denominator` rows, `passed` of them succeeding. */
export function scoreAggregate(metric: string, value: number, passed: number, denominator: number): Aggregate {
  return aggregate(metric, {
    name: `${metric}/score/average`,
    kind: "average",
    value,
    numerator: value * denominator,
    denominator,
    passed,
    failed: denominator - passed,
    success: { name: `${metric}/success/percentage`, value: passed / denominator, numerator: passed, denominator },
  });
}

/** A finished run as the comparison lists it. */
export function compareRun(id: string, name = id) {
  return {
    id,
    name,
    datasetId: "d",
    datasetName: "set",
    judgeProvider: "heuristic",
    judgeModel: "h",
    generationModel: null,
    status: "completed",
    finishedAt: null,
    metrics: [],
    trials: 1,
    judging: { chunkMode: "batched", thresholds: {}, metricJudges: [] },
  };
}

export const NO_DELTA = { delta: null, verdict: "n/a" as const, words: "", pairs: 0, unpaired: 0 };
