import { pairwiseMetricName, type PairwiseCriterion } from "@/lib/contract/pairwise";
import type { Db } from "@/lib/db/client";
import { listPairwiseComparisons, type StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import { readPairwiseCounts } from "@/lib/db/pairwise/pairwiseCounts";
import { summarizePairwise } from "@/lib/stats/pairwiseSummary";
import type { MetricDelta } from "./metricDelta";
import { pairwiseDelta } from "./pairwiseDelta";

export type PairwiseCriterionResult = {
  criterion: PairwiseCriterion;
  /** `pairwise/<criterion>`: the name the result reports under beside the pointwise metrics. */
  metric: string;
  /** Verdicts by status: pending, done, error (the call failed), skipped (a side had no response). */
  statuses: Record<"pending" | "done" | "error" | "skipped", number>;
  /** The result as compare reads it (verdict, words, the sign test), with the summary and diagnostics in `pairwise`. */
  delta: MetricDelta;
};

/** A candidate's pairwise comparison against the baseline, as compare, the API and the gate show it. */
export type PairwiseView = {
  comparison: StoredPairwiseComparison;
  criteria: PairwiseCriterionResult[];
  /** Set when the judge is the model that generated one side's responses: it may prefer its own answers. */
  selfPreference: string | null;
};

type RunSide = { id: string; name: string; generationModel: string | null };

/** The newest pairwise comparison of the candidate against the baseline, read and summarised; null when none. */
export async function readPairwiseView(
  db: Db,
  baseline: RunSide,
  candidate: RunSide,
  alpha: number,
): Promise<PairwiseView | null> {
  const [comparison] = await listPairwiseComparisons(db, baseline.id, candidate.id);
  if (!comparison) return null;
  return summarizeComparison(db, comparison, baseline, candidate, alpha);
}

export async function summarizeComparison(
  db: Db,
  comparison: StoredPairwiseComparison,
  baseline: RunSide,
  candidate: RunSide,
  alpha: number,
): Promise<PairwiseView> {
  const counts = await readPairwiseCounts(db, comparison);
  const judging = comparison.status === "judging" || comparison.status === "planning";
  const criteria = comparison.criteria.map((criterion) => {
    const own = <T extends { criterion: string }>(groups: readonly T[]) =>
      groups.filter((group) => group.criterion === criterion.name);
    const summary = summarizePairwise(
      { judgments: own(counts.judgments), pairs: own(counts.pairs), orders: comparison.orders },
      1 - alpha,
    );
    const statuses = { pending: 0, done: 0, error: 0, skipped: 0 };
    for (const group of own(counts.statuses))
      if (group.status in statuses) statuses[group.status as keyof typeof statuses] += group.count;
    return {
      criterion,
      metric: pairwiseMetricName(criterion.name),
      statuses,
      delta: pairwiseDelta(summary, alpha, { judging }),
    };
  });
  const selfJudged = [baseline, candidate].find(
    (run) => comparison.judgeProvider !== "heuristic" && run.generationModel === comparison.judgeModel,
  );
  return {
    comparison,
    criteria,
    selfPreference: selfJudged
      ? `The judge (${comparison.judgeModel}) also generated the responses of "${selfJudged.name}": LLM judges tend to prefer their own answers, so read its wins with care, or judge with another model.`
      : null,
  };
}
