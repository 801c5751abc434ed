import type { PairwiseView } from "@/lib/compare/pairwiseResults";
import { compareHref } from "@/lib/urlState/compareQuery";
import type { PairwiseDetail } from "./pairwiseSchemas";

/** A pairwise comparison as the API and the CLI read it: its state, and each criterion's result and diagnostics. */
export function pairwiseDetail(view: PairwiseView): PairwiseDetail {
  const { comparison } = view;
  return {
    id: comparison.id,
    baselineRunId: comparison.baselineRunId,
    candidateRunId: comparison.candidateRunId,
    status: comparison.status,
    stopped: comparison.stopped,
    orders: comparison.orders,
    seed: comparison.seed,
    judgeProvider: comparison.judgeProvider,
    judgeModel: comparison.judgeModel,
    progress: comparison.progress,
    errorMessage: comparison.errorMessage,
    budget: comparison.budget,
    spent: comparison.spent,
    selfPreference: view.selfPreference,
    criteria: view.criteria.map(({ criterion, metric, statuses, delta }) => {
      const summary = delta.pairwise;
      return {
        criterion: criterion.name,
        metric,
        instructions: criterion.instructions ?? null,
        verdict: delta.verdict,
        words: delta.words,
        pairs: summary?.pairs ?? 0,
        wins: summary?.wins ?? 0,
        losses: summary?.losses ?? 0,
        ties: summary?.ties ?? 0,
        positionDependent: summary?.positionDependent ?? 0,
        winRate: summary?.winRate ?? null,
        winRateWithoutTies: summary?.winRateWithoutTies ?? null,
        signTestP: summary?.signTest.pValue ?? 1,
        adjustedP: delta.adjustedPValue ?? null,
        positionConsistency: summary?.positionConsistency ?? null,
        firstShownWinRate: summary?.firstShownWinRate ?? null,
        longerWinRate: summary?.longerWinRate ?? null,
        tieRate: summary?.tieRate ?? null,
        statuses,
      };
    }),
    url: compareHref([comparison.baselineRunId, comparison.candidateRunId], {
      baseline: comparison.baselineRunId,
      hash: "pairwise",
    }),
  };
}
