"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { mayChangeRunBudget, runBudgetRefusal } from "@/lib/auth/runOwnership";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { raiseBudgetAndReopen } from "@/lib/db/runs/runBudget";
import { getRun } from "@/lib/db/runs/runQueries";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { costBudgetProblem } from "@/lib/engine/budgetFields";
import { readBudgetFields } from "@/lib/server/runForm/budgetFormFields";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import type { LlmPrices } from "@/lib/llm/pricing";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import {
  checkSpendingAllowed,
  runsInProgressLimitOf,
  runsInProgressRefusalMessage,
} from "@/lib/server/runSpendingGuard";

export type RaiseRunBudgetState = { message: string | null };

const inputSchema = z.object({ runId: z.string().min(1).max(100) });

/**
 * Resumes a run that its budget paused, with the budget raised (or a limit removed: an empty field):
 * its finished judgments stay, its pending ones are judged until the new budget is reached. Only the run's
 * creator or an admin may, within the server-wide spending limits.
 */
export async function raiseRunBudget(_previous: RaiseRunBudgetState, formData: FormData): Promise<RaiseRunBudgetState> {
  const access = await checkRole("run.resume");
  if (!access.ok) return { message: access.message };
  const input = inputSchema.safeParse({ runId: formData.get("runId") });
  if (!input.success) return { message: "The form names no run; reload the page." };
  const budget = readBudgetFields(formData);
  if (!budget.success) return { message: budget.error.issues.map((issue) => issue.message).join("; ") };
  const { runId } = input.data;
  const run = await getRun(getDb(), runId);
  if (!run) return { message: "This run no longer exists." };
  if (!mayChangeRunBudget(access.user, run)) {
    const names = await userIdentitiesById(getDb(), [run.createdById]);
    return { message: runBudgetRefusal(run.createdById ? (names.get(run.createdById) ?? null) : null) };
  }
  let prices: LlmPrices = {};
  try {
    prices = readLlmConfig()?.prices ?? {};
  } catch {
    // A misconfigured endpoint has no prices either; the cost check below then says what is missing.
  }
  const costProblem = costBudgetProblem(
    budget.data,
    { provider: run.judgeProvider, model: run.judgeModel },
    prices,
    run.generationModel,
  );
  if (costProblem) return { message: costProblem };
  // Resuming puts the run back in progress, so the per-user count applies as at the start.
  const allowed = await checkSpendingAllowed(getDb(), access.user, {
    budget: budget.data,
    models: { judge: { provider: run.judgeProvider, model: run.judgeModel }, generationModel: run.generationModel },
    typed: true,
    startsRun: true,
  });
  if (!allowed.ok) return { message: allowed.problems.join(" ") };
  const limit = runsInProgressLimitOf(access.user);
  const raised = await raiseBudgetAndReopen(getDb(), runId, allowed.budget, limit);
  if (!raised.ok)
    return {
      message: "inProgress" in raised ? runsInProgressRefusalMessage(limit, raised.inProgress) : raised.message,
    };
  executeRunInBackground(runId);
  revalidatePath(`/runs/${runId}`);
  return { message: null };
}
