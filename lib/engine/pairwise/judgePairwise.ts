import type { PairWinner, PairwiseCriterion, ShownOrder } from "@/lib/contract/pairwise";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import type { Db } from "@/lib/db/client";
import {
  claimPairwiseComparison,
  completePairwiseComparison,
  failPairwiseComparison,
  getPairwiseComparison,
  releasePairwiseComparison,
  renewPairwiseOwnership,
  type StoredPairwiseComparison,
} from "@/lib/db/pairwise/pairwiseComparisons";
import {
  listPendingVerdicts,
  savePairwiseVerdict,
  type PendingVerdict,
  type VerdictOutcome,
} from "@/lib/db/pairwise/pairwiseVerdicts";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { getRun } from "@/lib/db/runs/runQueries";
import { loadRowsForWork, type WorkRow } from "@/lib/db/work/workRows";
import type { PairwiseJudge } from "@/lib/judges/pairwise/pairwiseJudge";
import type { ShownResponse } from "@/lib/judges/prompts/pairwiseTemplates";
import { judgeInputFromRow } from "../judgeInputFromRow";

export type JudgePairwiseDeps = {
  judge: PairwiseJudge;
  /** Who judges (a process id): the comparison's owner while it works. */
  ownerId: string;
  costOf?: (model: string, usage: TokenUsage | null) => number | null;
  /** The most any comparison may cost (ASSAY_MAX_RUN_USD, as a run), beside its own budget: once spent, it stops saying so. */
  maxUsd?: number | null;
  /** How often the owner's heartbeat is written (1 s). */
  heartbeatMs?: number;
  onProgress?: (progress: { done: number; total: number }) => void;
  /** True once the process is stopping: the comparison is left to be resumed, its finished verdicts kept. */
  stopRequested?: () => boolean;
};

export type JudgePairwiseOutcome = "completed" | "failed" | "left" | "busy";

/** Pending verdicts read per page; the pool of calls in flight never waits on a page read while it has work. */
const PAGE = 500;

/**
 * Judges a comparison's pending verdicts, up to its concurrency at a time (the judge's client also holds the
 * endpoint's shared in-flight limit), each written as it returns. Resumable at any point: finished verdicts are
 * stored, so a comparison taken over after its process stopped judges only what is left, and calls that had
 * returned before the stop come from the judge cache. "busy" when another live process owns it; "left" when
 * this process was stopped or lost ownership part-way.
 */
export async function judgePairwise(
  db: Db,
  comparisonId: string,
  deps: JudgePairwiseDeps,
): Promise<JudgePairwiseOutcome> {
  if (!(await claimPairwiseComparison(db, comparisonId, deps.ownerId))) return "busy";
  const comparison = await getPairwiseComparison(db, comparisonId);
  if (!comparison) return "failed";
  let owned = true;
  const heartbeat = setInterval(() => {
    void renewPairwiseOwnership(db, comparisonId, deps.ownerId).then(
      (still) => (owned = owned && still),
      () => undefined,
    );
  }, deps.heartbeatMs ?? 1000);
  try {
    const [baseline, candidate] = await Promise.all([
      getRun(db, comparison.baselineRunId),
      getRun(db, comparison.candidateRunId),
    ]);
    if (!baseline || !candidate) {
      await failPairwiseComparison(db, comparisonId, "one of the two runs has been deleted");
      return "failed";
    }
    const sides = {
      baseline: { runId: baseline.id, generates: baseline.generationModel !== null },
      candidate: { runId: candidate.id, generates: candidate.generationModel !== null },
    };
    let done = comparison.progress.done;
    // Spent so far and by every written verdict since; a call in flight counts as one call until it is written.
    const spent = {
      calls: comparison.spent.llmCalls,
      tokens: comparison.spent.inputTokens + comparison.spent.outputTokens,
      usd: comparison.spent.costUsd ?? 0,
    };
    let stoppedBy: string | null = null;
    const inFlight = new Set<Promise<void>>();
    const stop = () => !owned || stoppedBy !== null || (deps.stopRequested?.() ?? false);
    let after: PendingVerdict | null = null;
    while (!stop()) {
      const page = await listPendingVerdicts(db, comparisonId, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1];
      const [baselineRows, candidateRows] = await Promise.all([
        loadPageRows(
          db,
          sides.baseline.runId,
          page.map((v) => v.baselineRowId),
        ),
        loadPageRows(
          db,
          sides.candidate.runId,
          page.map((v) => v.candidateRowId),
        ),
      ]);
      for (const item of page) {
        while (inFlight.size >= comparison.concurrency) await Promise.race(inFlight);
        if (stop()) break;
        stoppedBy = budgetReached(comparison.budget, spent, inFlight.size, deps.maxUsd ?? null);
        if (stoppedBy) break;
        const judged = judgeOne(
          comparison,
          item,
          baselineRows.get(item.baselineRowId),
          candidateRows.get(item.candidateRowId),
          {
            ...deps,
            sides,
          },
        ).then(async (outcome) => {
          if (await savePairwiseVerdict(db, comparisonId, deps.ownerId, item, outcome)) {
            done += 1;
            spent.calls += outcome.llmCalls;
            spent.tokens += outcome.inputTokens + outcome.outputTokens;
            spent.usd += outcome.costUsd ?? 0;
            deps.onProgress?.({ done, total: comparison.progress.total });
          } else owned = false;
        });
        const tracked: Promise<void> = judged.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
      }
    }
    await Promise.all(inFlight);
    if (stoppedBy) {
      const left = comparison.progress.total - done;
      await failPairwiseComparison(
        db,
        comparisonId,
        `judging stopped at ${stoppedBy} with ${left} of ${comparison.progress.total} judgments left; what was judged is kept`,
      );
      return "failed";
    }
    if (stop()) return "left";
    return (await completePairwiseComparison(db, comparisonId, deps.ownerId)) ? "completed" : "left";
  } catch (error) {
    console.error("pairwise judging failed", error);
    await failPairwiseComparison(db, comparisonId, "judging stopped on an unexpected error; see the server log").catch(
      () => undefined,
    );
    return "failed";
  } finally {
    clearInterval(heartbeat);
    await releasePairwiseComparison(db, comparisonId, deps.ownerId).catch(() => undefined);
  }
}

/** A page's rows of one run (each row once), with that run's generated responses. */
async function loadPageRows(db: Db, runId: string, rowIds: string[]): Promise<Map<string, WorkRow>> {
  return loadRowsForWork(db, runId, [...new Set(rowIds)]);
}

type Side = { runId: string; generates: boolean };

/** One judgment: both responses shown in the verdict's order, the winner mapped back to the runs. */
async function judgeOne(
  comparison: StoredPairwiseComparison,
  item: PendingVerdict,
  baselineRow: WorkRow | undefined,
  candidateRow: WorkRow | undefined,
  deps: JudgePairwiseDeps & { sides: { baseline: Side; candidate: Side } },
): Promise<VerdictOutcome> {
  const criterion: PairwiseCriterion = comparison.criteria.find((c) => c.name === item.criterion) ?? {
    name: item.criterion,
  };
  if (!baselineRow || !candidateRow) return skipped("the row has been deleted", null, null);
  const a = judgeInputFromRow(baselineRow, deps.sides.baseline.generates);
  const b = judgeInputFromRow(candidateRow, deps.sides.candidate.generates);
  const lengths = [a.response?.length ?? null, b.response?.length ?? null] as const;
  if (!a.response?.trim()) return skipped("the baseline run has no response for this row", ...lengths);
  if (!b.response?.trim()) return skipped("the candidate run has no response for this row", ...lengths);
  const sideA: ShownResponse = { response: a.response, retrievedContext: a.retrievedContext };
  const sideB: ShownResponse = { response: b.response, retrievedContext: b.retrievedContext };
  const abShown = item.shownOrder === "ab";
  const judged = await deps.judge.judgePair({
    input: a,
    criterion,
    first: abShown ? sideA : sideB,
    second: abShown ? sideB : sideA,
  });
  const usage = judged.usage ?? { inputTokens: 0, outputTokens: 0 };
  return {
    status: judged.shownWinner === null ? "error" : "done",
    winner: judged.shownWinner === null ? null : winnerOf(judged.shownWinner, item.shownOrder),
    rationale: judged.rationale,
    errorMessage: judged.errorMessage,
    baselineLength: lengths[0],
    candidateLength: lengths[1],
    promptVersion: judged.promptVersion,
    promptHash: judged.promptHash,
    cacheHit: judged.cacheHit,
    attempts: judged.attempts,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: judged.cacheHit ? 0 : (deps.costOf?.(deps.judge.model, judged.usage) ?? null),
    llmCalls: judged.cacheHit ? 0 : judged.attempts,
  };
}

/**
 * What stops judging before the next call, in words, or null: the comparison's own budget (calls counting the
 * ones in flight, tokens, cost) or the server's ASSAY_MAX_RUN_USD. Calls already out may pass a limit by their
 * own retries, as a run's do.
 */
function budgetReached(
  budget: RunBudget,
  spent: { calls: number; tokens: number; usd: number },
  inFlight: number,
  maxUsd: number | null,
): string | null {
  if (budget.calls !== null && spent.calls + inFlight >= budget.calls)
    return `its budget of ${budget.calls} LLM calls (raise it to judge the rest)`;
  if (budget.tokens !== null && spent.tokens >= budget.tokens)
    return `its budget of ${budget.tokens} tokens (raise it to judge the rest)`;
  if (budget.usd !== null && spent.usd >= budget.usd)
    return `its budget of $${budget.usd} (raise it to judge the rest)`;
  if (maxUsd !== null && spent.usd >= maxUsd) return `this server's limit of $${maxUsd} per run (ASSAY_MAX_RUN_USD)`;
  return null;
}

/** The shown position's winner as a run: first shown is A in order ab, B in order ba. */
export function winnerOf(shown: "first" | "second" | "tie", order: ShownOrder): PairWinner {
  if (shown === "tie") return "tie";
  return (shown === "first") === (order === "ab") ? "a" : "b";
}

function skipped(message: string, baselineLength: number | null, candidateLength: number | null): VerdictOutcome {
  return {
    status: "skipped",
    winner: null,
    rationale: null,
    errorMessage: message,
    baselineLength,
    candidateLength,
    promptVersion: null,
    promptHash: null,
    cacheHit: false,
    attempts: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    llmCalls: 0,
  };
}
