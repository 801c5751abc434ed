import { describe, expect, it } from "vitest";
import { costBudgetProblem } from "@/lib/engine/budgetFields";

const PRICES = { "judge-priced": { input: 0.4, output: 1.6 } };
const USD = { calls: null, tokens: null, usd: 2 };
const judge = { provider: "openai", model: "judge-priced" };

describe("a cost budget needs a price for every model the run calls", () => {
  it("refuses a generating run whose generation model has no price, since its calls count in the budget", () => {
    expect(costBudgetProblem(USD, judge, PRICES, "gen-unpriced")).toBe(
      "A cost budget needs a price for gen-unpriced in ASSAY_LLM_PRICES: without one the run's cost is unknown and the budget could not stop it. Set the price, or use a call or token budget.",
    );
    expect(costBudgetProblem(USD, { provider: "heuristic", model: "heuristic" }, PRICES, "gen-unpriced")).toMatch(
      /price for gen-unpriced/,
    );
  });

  it("accepts priced models, no generation, and no cost budget at all", () => {
    expect(costBudgetProblem(USD, judge, PRICES, "judge-priced")).toBeNull();
    expect(costBudgetProblem(USD, judge, PRICES)).toBeNull();
    expect(costBudgetProblem({ ...USD, usd: null }, judge, {}, "gen-unpriced")).toBeNull();
  });
});
