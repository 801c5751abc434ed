"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { PAIRWISE_ORDERS, pairwiseCriterionSchema, OVERALL_CRITERION } from "@/lib/contract/pairwise";
import { getDb } from "@/lib/db/client";
import { runBudgetSchema } from "@/lib/engine/budgetFields";
import { startPairwiseFromRequest } from "@/lib/server/startPairwiseRequest";

export type StartPairwiseState = { message: string | null; started: boolean };

const inputSchema = z.object({
  baselineRunId: z.string().min(1).max(200),
  candidateRunId: z.string().min(1).max(200),
  orders: z.enum(PAIRWISE_ORDERS),
  customName: z.string().trim().max(40),
  customInstructions: z.string().trim().max(4000),
  /** Empty for no budget. */
  budgetCalls: z.string().trim().max(20),
});

/**
 * Judge pairwise, from the compare page: the built-in criterion, and one custom criterion when its name and
 * instructions are both given; both orders unless the user picked the cheaper one-order mode. Judged in the
 * background; the page follows its progress.
 */
export async function startPairwise(_state: StartPairwiseState, formData: FormData): Promise<StartPairwiseState> {
  const access = await checkRole("run.start");
  if (!access.ok) return { message: access.message, started: false };
  const input = inputSchema.safeParse({
    baselineRunId: formData.get("baselineRunId"),
    candidateRunId: formData.get("candidateRunId"),
    orders: formData.get("orders"),
    customName: formData.get("customName") ?? "",
    customInstructions: formData.get("customInstructions") ?? "",
    budgetCalls: formData.get("budgetCalls") ?? "",
  });
  if (!input.success) return { message: "The pairwise form was incomplete: reload the page.", started: false };
  const { customName, customInstructions } = input.data;
  if (Boolean(customName) !== Boolean(customInstructions))
    return { message: "A custom criterion needs both a name and instructions.", started: false };
  const custom = customName
    ? pairwiseCriterionSchema.safeParse({ name: customName, instructions: customInstructions })
    : null;
  if (custom && !custom.success)
    return { message: `The custom criterion: ${custom.error.issues[0]?.message ?? "invalid"}.`, started: false };
  const budget = runBudgetSchema.safeParse({
    calls: input.data.budgetCalls === "" ? null : Number(input.data.budgetCalls),
  });
  if (!budget.success)
    return { message: budget.error.issues[0]?.message ?? "The budget is not valid.", started: false };
  const started = await startPairwiseFromRequest(getDb(), access.user, {
    budget: budget.data,
    baselineRunId: input.data.baselineRunId,
    candidateRunId: input.data.candidateRunId,
    orders: input.data.orders,
    criteria: [{ name: OVERALL_CRITERION }, ...(custom?.success ? [custom.data] : [])],
  });
  if (!started.ok) return { message: started.message, started: false };
  revalidatePath("/compare");
  return { message: null, started: true };
}
