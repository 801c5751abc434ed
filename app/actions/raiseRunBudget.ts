"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { raiseBudgetAndReopen } from "@/lib/db/runBudget";
import { readBudgetFields } from "@/lib/engine/budgetFields";
import { executeRunInBackground } from "@/lib/server/runScheduler";

export type RaiseRunBudgetState = { message: string | null };

const inputSchema = z.object({ runId: z.string().min(1).max(100) });

/**
 * Resumes a run that its budget paused, with the budget raised (or a limit removed: an empty field):
 * its finished judgments stay, its pending ones are judged until the new budget is reached.
 */
export async function raiseRunBudget(_previous: RaiseRunBudgetState, formData: FormData): Promise<RaiseRunBudgetState> {
  const access = await checkRole("run.resume");
  if (!access.ok) return { message: access.message };
  const input = inputSchema.safeParse({ runId: formData.get("runId") });
  if (!input.success) return { message: "The form names no run; reload the page." };
  const budget = readBudgetFields(formData);
  if (!budget.success) return { message: budget.error.issues.map((issue) => issue.message).join("; ") };
  const { runId } = input.data;
  const raised = await raiseBudgetAndReopen(getDb(), runId, budget.data);
  if (!raised.ok) return { message: raised.message };
  executeRunInBackground(runId);
  revalidatePath(`/runs/${runId}`);
  return { message: null };
}
