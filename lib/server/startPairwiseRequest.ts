import type { AuthUser } from "@/lib/auth/guard";
import { describeJudgeProvider } from "@/lib/config/describeJudgeProvider";
import type { PairwiseCriterion, PairwiseOrders } from "@/lib/contract/pairwise";
import type { Db } from "@/lib/db/client";
import {
  getPairwiseComparison,
  reopenPairwiseComparison,
  setPairwiseBudget,
  type StoredPairwiseComparison,
} from "@/lib/db/pairwise/pairwiseComparisons";
import { retryErroredVerdicts } from "@/lib/db/pairwise/pairwiseVerdicts";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { PairwiseRefused, startPairwise } from "@/lib/engine/pairwise/startPairwise";
import { alignmentSpendingProblems } from "./runSpendingGuard";
import { judgePairwiseInBackground } from "./runScheduler";

export type PairwiseStartRequest = {
  baselineRunId: string;
  candidateRunId: string;
  criteria?: PairwiseCriterion[];
  orders?: PairwiseOrders;
  seed?: string;
  concurrency?: number;
  budget?: RunBudget;
};

export type StartPairwiseOutcome =
  { ok: true; comparison: StoredPairwiseComparison } | { ok: false; kind: "refused" | "forbidden"; message: string };

/** Default in-flight calls of a comparison, as a run's default. */
const DEFAULT_CONCURRENCY = 8;

/**
 * Starts a pairwise comparison as the compare page and the API ask for it: judged by the configured model (or the
 * offline approximation without one), allowed only on a model the server allows, planned at once and judged in
 * the background by this server or a worker. Never throws for what a user can fix: the outcome says why.
 */
export async function startPairwiseFromRequest(
  db: Db,
  user: AuthUser,
  request: PairwiseStartRequest,
): Promise<StartPairwiseOutcome> {
  const judge = describeJudgeProvider();
  const provider = judge.provider === "heuristic" ? "heuristic" : "openai";
  const problems = await alignmentSpendingProblems(db, user, {
    judge: { provider, model: judge.model },
    estimatedUsd: null,
  });
  if (problems.length > 0) return { ok: false, kind: "forbidden", message: problems.join(" ") };
  try {
    const comparison = await startPairwise(db, {
      ...request,
      judgeProvider: provider,
      judgeModel: judge.model,
      concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
      createdById: user.local ? null : user.id,
    });
    judgePairwiseInBackground(comparison.id);
    return { ok: true, comparison };
  } catch (error) {
    if (error instanceof PairwiseRefused)
      return { ok: false, kind: "refused", message: `Pairwise judging cannot start: ${error.message}.` };
    throw error;
  }
}

/**
 * Judges again what a comparison has left: a failed one (an error, or its budget reached: pass a raised one)
 * reopened with its errored verdicts back to pending, or one whose server stopped taken over here. Finished
 * verdicts are kept.
 */
export async function resumePairwiseFromRequest(
  db: Db,
  comparisonId: string,
  budget?: RunBudget,
): Promise<StoredPairwiseComparison | null> {
  const stored = await getPairwiseComparison(db, comparisonId);
  if (!stored) return null;
  // A new budget (a raise after it stopped at its own) replaces the old one before it judges what is left.
  if (budget) await setPairwiseBudget(db, comparisonId, budget);
  if (stored.status === "failed" || stored.status === "completed") {
    const retried = await retryErroredVerdicts(db, comparisonId);
    if (stored.status === "failed" || retried > 0) await reopenPairwiseComparison(db, comparisonId);
  }
  judgePairwiseInBackground(comparisonId);
  return getPairwiseComparison(db, comparisonId);
}
