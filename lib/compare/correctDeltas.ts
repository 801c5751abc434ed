import { metricShape } from "@/lib/contract/aggregates";
import { adjustPValues, describeDelta, type Adjustment, type Correction } from "@/lib/stats";
import { describeScoreDelta } from "./describeScoreDelta";
import type { MetricDelta } from "./metricDelta";
import { pairwiseDelta } from "./pairwiseDelta";

/** A delta with a paired test behind it (a verdict or one still being computed), not "n/a". */
function isTested(delta: MetricDelta): boolean {
  return delta.verdict === "pending" || (delta.verdict !== "n/a" && delta.pValue !== undefined);
}

/**
 * One candidate's deltas against the baseline, read together: the metrics with a paired test form the family,
 * their p-values are adjusted by `correction` (Holm by default), and each tested delta's verdict and words
 * become the adjusted p's. The others (n/a) pass through. A delta still pending counts in the family with
 * p = 1 until it is computed: the family's size is known at once, and the others' adjusted p-values are final
 * unless the pending one comes out smaller than they are.
 *
 * With `none`, or a family of one, every verdict is its raw test's, exactly as without this step.
 */
export function correctDeltas(
  deltas: { metric: string; delta: MetricDelta }[],
  correction: Correction,
  alpha: number,
): { deltas: MetricDelta[]; family: number } {
  const tested = deltas.filter(({ delta }) => isTested(delta));
  const family = tested.length;
  if (correction === "none" || family <= 1) return { deltas: deltas.map(({ delta }) => delta), family };
  const adjusted = adjustPValues(
    tested.map(({ delta }) => (delta.verdict === "pending" ? 1 : (delta.pValue ?? 1))),
    correction,
  );
  const adjustedOf = new Map(tested.map(({ metric }, i) => [metric, adjusted[i]]));
  return {
    family,
    deltas: deltas.map(({ metric, delta }) => {
      const pValue = adjustedOf.get(metric);
      if (pValue === undefined || delta.verdict === "pending") return delta;
      return redescribe(metric, delta, alpha, { pValue, family, correction });
    }),
  };
}

/** The same test's delta, its verdict and words now the adjusted p's; every number measured stays as it was. */
function redescribe(metric: string, delta: MetricDelta, alpha: number, adjustment: Adjustment): MetricDelta {
  if (delta.pairwise) return pairwiseDelta(delta.pairwise, alpha, { judging: false, adjustment });
  const { pValue, interval, method } = delta;
  const paired = delta.delta;
  // A tested delta always has these; without them there is nothing to re-read.
  if (pValue === undefined || paired === null) return delta;
  const rating = metricShape(metric) === "rating";
  const described =
    rating && interval && method
      ? // Judged over trials: the rows' pass rates, bootstrapped (trialsDelta.ts).
        describeDelta(
          { kind: "rate", pValue, delta: paired * 100, low: interval.low * 100, high: interval.high * 100 },
          alpha,
          adjustment,
        )
      : rating
        ? describeDelta({ kind: "binary", pValue, delta: paired * 100 }, alpha, adjustment)
        : interval && method
          ? describeScoreDelta(
              metric,
              delta.overallDelta ?? paired,
              { meanDiff: paired, low: interval.low, high: interval.high, pValue },
              delta.pairs,
              method,
              alpha,
              adjustment,
            )
          : null;
  if (!described) return delta;
  return { ...delta, verdict: described.verdict, words: described.words, adjustedPValue: adjustment.pValue };
}

/**
 * Reads each candidate's tests together: its metrics with a paired test and its pairwise criteria are one family,
 * corrected by correctDeltas, the verdicts written back in place. Returns each candidate's family size.
 */
export function correctFamilies(
  candidateIds: readonly string[],
  metrics: readonly { metric: string; deltas: Record<string, MetricDelta> }[],
  pairwise: ReadonlyMap<string, { criteria: { metric: string; delta: MetricDelta }[] }>,
  { correction, alpha }: { correction: Correction; alpha: number },
): Record<string, number> {
  const family: Record<string, number> = {};
  for (const id of candidateIds) {
    const tested = metrics.filter((m) => m.deltas[id]);
    const criteria = pairwise.get(id)?.criteria ?? [];
    const corrected = correctDeltas(
      [
        ...tested.map((m) => ({ metric: m.metric, delta: m.deltas[id] })),
        ...criteria.map((c) => ({ metric: c.metric, delta: c.delta })),
      ],
      correction,
      alpha,
    );
    family[id] = corrected.family;
    tested.forEach((m, i) => {
      m.deltas[id] = corrected.deltas[i];
    });
    criteria.forEach((c, i) => {
      c.delta = corrected.deltas[tested.length + i];
    });
  }
  return family;
}
