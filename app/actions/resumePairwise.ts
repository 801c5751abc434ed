"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { runBudgetSchema } from "@/lib/engine/budgetFields";
import { resumePairwiseFromRequest } from "@/lib/server/startPairwiseRequest";

export type ResumePairwiseState = { message: string | null };

/** Judge what a pairwise comparison has left (its server stopped, it failed, or errors to try again). */
export async function resumePairwise(_state: ResumePairwiseState, formData: FormData): Promise<ResumePairwiseState> {
  const access = await checkRole("run.resume");
  if (!access.ok) return { message: access.message };
  const id = z.string().min(1).max(200).safeParse(formData.get("comparisonId"));
  if (!id.success) return { message: "The form was incomplete: reload the page." };
  const db = getDb();
  // A raised call budget, when the form offers one (a comparison that stopped at its own).
  const raised = formData.get("budgetCalls");
  let budget: RunBudget | undefined;
  if (typeof raised === "string" && raised.trim() !== "") {
    const calls = runBudgetSchema.safeParse({ calls: Number(raised) });
    if (!calls.success) return { message: calls.error.issues[0]?.message ?? "The budget is not valid." };
    const stored = await getPairwiseComparison(db, id.data);
    if (!stored) return { message: "That pairwise comparison no longer exists." };
    budget = { ...stored.budget, calls: calls.data.calls };
  }
  const resumed = await resumePairwiseFromRequest(db, id.data, budget);
  if (!resumed) return { message: "That pairwise comparison no longer exists." };
  revalidatePath("/compare");
  return { message: null };
}
