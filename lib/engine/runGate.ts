import type { Db } from "@/lib/db/client";
import { getRunBudget } from "@/lib/db/runs/runBudget";
import { readRunSpending, releaseBudgetCalls, reserveBudgetCalls } from "@/lib/db/work/runSpending";
import { createBudgetGate, type BudgetGate } from "./budgetGate";

/**
 * A worker's budget gate for a run: the run's limits, what every worker has
 * spent on it so far, and its call budget shared through the store. Runs
 * without limits never touch the store for it.
 */
export async function createRunGate(
  db: Db,
  runId: string,
  workerId: string,
): Promise<BudgetGate & { refreshFromStore(): Promise<void> }> {
  const budget = await getRunBudget(db, runId);
  const gate = createBudgetGate(budget, await readRunSpending(db, runId), {
    reserve: (calls) => reserveBudgetCalls(db, runId, workerId, calls),
    release: (calls) => releaseBudgetCalls(db, runId, workerId, calls),
  });
  const limited = budget.calls !== null || budget.tokens !== null || budget.usd !== null;
  return Object.assign(gate, {
    async refreshFromStore() {
      if (limited) gate.refresh(await readRunSpending(db, runId));
    },
  });
}
