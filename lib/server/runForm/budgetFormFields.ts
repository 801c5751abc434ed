import { z } from "zod";
import { BUDGET_LIMITS, limitNumber } from "@/lib/engine/budgetFields";
import type { RunBudget } from "@/lib/db/runs/runBudget";

/** A form field: empty is no limit (null); anything else must be a positive number, bounded as a request's. */
function limitField({ what, ...options }: (typeof BUDGET_LIMITS)[keyof typeof BUDGET_LIMITS]) {
  const number = limitNumber(z.coerce.number({ error: `${what} must be a number` }), what, options);
  return z.preprocess((value) => (value == null || String(value).trim() === "" ? null : value), number.nullable());
}

/**
 * A run's budget as the run form and the Raise budget form send it (`budgetCalls`, `budgetTokens`, `budgetUsd`);
 * the run pauses when it reaches any of them (lib/db/runs/runBudget.ts).
 */
export const budgetFieldsSchema = z
  .object({
    budgetCalls: limitField(BUDGET_LIMITS.calls),
    budgetTokens: limitField(BUDGET_LIMITS.tokens),
    budgetUsd: limitField(BUDGET_LIMITS.usd),
  })
  .transform((fields): RunBudget => ({
    calls: fields.budgetCalls,
    tokens: fields.budgetTokens,
    usd: fields.budgetUsd,
  }));

/** The budget fields of the run form and of a paused run's Raise budget form (empty: no limit). */
export function readBudgetFields(formData: FormData) {
  return budgetFieldsSchema.safeParse({
    budgetCalls: formData.get("budgetCalls"),
    budgetTokens: formData.get("budgetTokens"),
    budgetUsd: formData.get("budgetUsd"),
  });
}
