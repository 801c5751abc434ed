import { z } from "zod";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { priceFor, type LlmPrices } from "@/lib/llm/pricing";

/** The Run columns hold 32-bit integers; a budget past this is no budget anyway. */
const MAX_COUNT = 2_000_000_000;
const MAX_USD = 1_000_000;

/** The refinements of a limit, the same for a form's text and a request's number: positive, whole where it counts, bounded. */
export function limitNumber(number: z.ZodNumber, what: string, options: { whole: boolean; max: number }) {
  return number
    .refine((value) => Number.isFinite(value) && value > 0, { message: `${what} must be more than 0` })
    .refine((value) => !options.whole || Number.isInteger(value), { message: `${what} must be a whole number` })
    .refine((value) => value <= options.max, {
      message: `${what} must be at most ${options.max.toLocaleString("en-US")}`,
    });
}

/** Each budget limit: what it is called in messages, and its bounds. */
export const BUDGET_LIMITS = {
  calls: { what: "The call budget", whole: true, max: MAX_COUNT },
  tokens: { what: "The token budget", whole: true, max: MAX_COUNT },
  usd: { what: "The cost budget (USD)", whole: false, max: MAX_USD },
} as const;
type BudgetLimit = (typeof BUDGET_LIMITS)[keyof typeof BUDGET_LIMITS];

/** A request's number: absent or null is no limit. */
function limitValue({ what, ...options }: BudgetLimit) {
  return limitNumber(z.number({ error: `${what} must be a number` }), what, options)
    .nullable()
    .optional();
}

/** A run's budget in a run request (lib/engine/runRequest.ts): the same limits, as numbers. */
export const runBudgetSchema = z
  .object({
    calls: limitValue(BUDGET_LIMITS.calls),
    tokens: limitValue(BUDGET_LIMITS.tokens),
    usd: limitValue(BUDGET_LIMITS.usd),
  })
  .transform((budget): RunBudget => ({
    calls: budget.calls ?? null,
    tokens: budget.tokens ?? null,
    usd: budget.usd ?? null,
  }));

/**
 * Why a cost budget cannot be kept, or null: the judge model (or the generation model, whose calls count in the
 * budget too) has no price in ASSAY_LLM_PRICES, so the run's cost stays unknown (never $0) and the budget would
 * never stop it. The offline judge costs nothing.
 */
export function costBudgetProblem(
  budget: RunBudget,
  judge: { provider: string; model: string },
  prices: LlmPrices,
  generationModel: string | null = null,
): string | null {
  if (budget.usd === null) return null;
  const unpriced = [judge.provider === "heuristic" ? null : judge.model, generationModel].find(
    (model) => model !== null && priceFor(model, prices) === null,
  );
  if (!unpriced) return null;
  return `A cost budget needs a price for ${unpriced} in ASSAY_LLM_PRICES: without one the run's cost is unknown and the budget could not stop it. Set the price, or use a call or token budget.`;
}
