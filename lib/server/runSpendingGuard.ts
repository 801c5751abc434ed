import type { AuthUser } from "@/lib/auth/guard";
import {
  checkRunSpending,
  NO_SPENDING_LIMITS,
  readSpendingLimits,
  runsInProgressProblem,
  type RunModels,
} from "@/lib/config/spendingLimits";
import type { Db } from "@/lib/db/client";
import { getRunBudget, NO_BUDGET, setRunBudget, type RunBudget } from "@/lib/db/runs/runBudget";
import { reopenRunWithinLimit } from "@/lib/db/runs/runLifecycle";
import { countRunsInProgressBy, getRun } from "@/lib/db/runs/runQueries";
import type { RunsInProgressLimit } from "@/lib/db/runs/runsInProgress";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import type { LlmPrices } from "@/lib/llm/pricing";

export type SpendingCheck = { ok: true; budget: RunBudget } | { ok: false; problems: string[] };

/**
 * The server-wide spending limits (lib/config/spendingLimits.ts) applied to one request from the app: the
 * models and budget of a run about to spend, and, when the request puts a run in progress (`startsRun`), the
 * user's count of runs in progress (alignments being measured included). That count applies to signed-in
 * users: with sign-in off the only user is whoever runs the server, who sets the limits. Returns the budget the
 * run spends under. The count here answers early, beside the other limits; what holds under parallel requests
 * is the same count made again where a run or a measurement is stored (runsInProgressLimitOf).
 */
export async function checkSpendingAllowed(
  db: Db,
  user: AuthUser,
  request: { budget: RunBudget; models: RunModels; typed: boolean; startsRun: boolean },
): Promise<SpendingCheck> {
  let limits: ReturnType<typeof readSpendingLimits>;
  try {
    limits = readSpendingLimits();
  } catch (error) {
    // Refuse rather than spend without the limits the operator meant to set.
    return {
      ok: false,
      problems: [
        `The server's spending limits are misconfigured: ${error instanceof Error ? error.message : String(error)}`,
      ],
    };
  }
  const problems: string[] = [];
  if (request.startsRun && !user.local) {
    const busy = runsInProgressProblem(await countRunsInProgressBy(db, user.id), limits);
    if (busy) problems.push(busy);
  }
  const checked = checkRunSpending(request, limits, configuredPrices());
  if (!checked.ok) problems.push(...checked.problems);
  return problems.length > 0 || !checked.ok ? { ok: false, problems } : checked;
}

/**
 * The same check for a stored run about to spend again (resumed, re-judged), with the budget it already has:
 * a run stored before ASSAY_MAX_RUN_USD was set gets the limit as its cost budget. Null when the run is gone.
 */
export async function checkStoredRunMaySpend(db: Db, user: AuthUser, runId: string): Promise<SpendingCheck | null> {
  const run = await getRun(db, runId);
  if (!run) return null;
  return checkSpendingAllowed(db, user, {
    budget: await getRunBudget(db, runId),
    models: { judge: { provider: run.judgeProvider, model: run.judgeModel }, generationModel: run.generationModel },
    typed: false,
    startsRun: true,
  });
}

/** Thrown by a form action the spending limits refuse; the page offering it shows the same refusal beforehand. */
export class SpendingLimitRefusal extends Error {}

/**
 * For the form actions that make a stored run spend again: throws a SpendingLimitRefusal naming the limits
 * in the way, else stores the budget the limits give it (unchanged unless ASSAY_MAX_RUN_USD lowered it).
 */
export async function applySpendingLimits(db: Db, user: AuthUser, runId: string): Promise<void> {
  const checked = await checkStoredRunMaySpend(db, user, runId);
  if (checked === null) return;
  if (!checked.ok) throw new SpendingLimitRefusal(checked.problems.join(" "));
  await setRunBudget(db, runId, checked.budget);
}

export function configuredPrices(): LlmPrices {
  try {
    return readLlmConfig()?.prices ?? {};
  } catch {
    return {}; // a misconfigured endpoint has no prices: a limit in dollars then refuses its models
  }
}

/**
 * The user's ceiling on runs in progress, for the write that starts a run or a measurement to be made within
 * (lib/db/runs/runsInProgress.ts): null when no limit applies, or for the local user while sign-in is off.
 * Called after checkSpendingAllowed, which refuses when the limits are misconfigured.
 */
export function runsInProgressLimitOf(user: AuthUser): RunsInProgressLimit {
  if (user.local) return null;
  const max = readSpendingLimits().maxRunsInProgressPerUser;
  return max === null ? null : { userId: user.id, max };
}

/**
 * Reopens a failed or paused run for `user` (Resume, the API's resume) within their runs-in-progress limit,
 * counted where the run is reopened. `reopened` false: the run was not failed or paused.
 */
export async function reopenRunFor(
  db: Db,
  user: AuthUser,
  runId: string,
): Promise<{ ok: true; reopened: boolean } | { ok: false; message: string }> {
  const limit = runsInProgressLimitOf(user);
  const result = await reopenRunWithinLimit(db, runId, limit);
  if (!result.ok) return { ok: false, message: runsInProgressRefusalMessage(limit, result.inProgress) };
  return { ok: true, reopened: result.value };
}

/** The refusal when that write found the user at their limit: the count, the limit and its variable named. */
export function runsInProgressRefusalMessage(limit: RunsInProgressLimit, inProgress: number): string {
  const limits = { ...NO_SPENDING_LIMITS, maxRunsInProgressPerUser: limit?.max ?? null };
  return runsInProgressProblem(inProgress, limits) ?? "";
}

/**
 * An alignment's measurement spends as a run does: on an allowed model, within ASSAY_MAX_RUN_USD by its
 * estimate (lib/alignment/alignmentEstimate.ts), and as one of the user's runs in progress. The problems in
 * the way, none when it may start; the first measurement and a measurement again both ask this.
 */
export async function alignmentSpendingProblems(
  db: Db,
  user: AuthUser,
  request: { judge: { provider: string; model: string }; estimatedUsd: number | null },
): Promise<string[]> {
  const checked = await checkSpendingAllowed(db, user, {
    budget: NO_BUDGET,
    models: { judge: request.judge, generationModel: null },
    typed: false,
    startsRun: true,
  });
  if (!checked.ok) return checked.problems;
  const max = checked.budget.usd;
  return max !== null && request.estimatedUsd !== null && request.estimatedUsd > max
    ? [
        `Measuring this alignment is estimated at $${request.estimatedUsd.toFixed(2)}, above this server's limit of $${max} per run (ASSAY_MAX_RUN_USD). Label fewer rows for it, or ask whoever runs the server.`,
      ]
    : [];
}
