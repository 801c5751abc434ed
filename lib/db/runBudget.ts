import type { Db } from "./client";
import { databaseUrlOf } from "./client";
import { connectionFor, preparedStatement } from "./directSqlite";

/** A run's spending limits; null means no limit of that kind. */
export type RunBudget = { calls: number | null; tokens: number | null; usd: number | null };
/** What a run has spent so far: LLM calls (HTTP attempts, retries and repairs included), tokens, and cost when priced. */
export type RunSpending = { calls: number; tokens: number; usd: number };

export const NO_BUDGET: RunBudget = { calls: null, tokens: null, usd: null };

export async function getRunBudget(db: Db, runId: string): Promise<RunBudget> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { budgetCalls: true, budgetTokens: true, budgetUsd: true },
  });
  return run ? { calls: run.budgetCalls, tokens: run.budgetTokens, usd: run.budgetUsd } : NO_BUDGET;
}

/** Sets the limits given (undefined leaves one as it is, null removes it). */
export async function setRunBudget(db: Db, runId: string, budget: Partial<RunBudget>): Promise<void> {
  await db.run.updateMany({
    where: { id: runId },
    data: {
      ...(budget.calls !== undefined ? { budgetCalls: budget.calls } : {}),
      ...(budget.tokens !== undefined ? { budgetTokens: budget.tokens } : {}),
      ...(budget.usd !== undefined ? { budgetUsd: budget.usd } : {}),
    },
  });
}

/** A run's spending from its stored judgments and generations (two aggregate queries). */
export function getRunSpending(db: Db, runId: string): RunSpending {
  const connection = connectionFor(databaseUrlOf(db));
  const judged = preparedStatement(
    connection,
    `SELECT COALESCE(SUM("attempts"), 0) AS "calls", COALESCE(SUM(COALESCE("inputTokens", 0) + COALESCE("outputTokens", 0)), 0) AS "tokens",
      COALESCE(SUM("costUsd"), 0) AS "usd" FROM "JudgmentItem" WHERE "runId" = ? AND "status" IN ('done', 'error')`,
  ).get(runId) as RunSpending;
  const generated = preparedStatement(
    connection,
    `SELECT COUNT(*) AS "calls", COALESCE(SUM(COALESCE("inputTokenCount", 0) + COALESCE("outputTokenCount", 0)), 0) AS "tokens"
     FROM "Generation" WHERE "runId" = ? AND "status" IN ('done', 'error')`,
  ).get(runId) as { calls: number; tokens: number };
  return { calls: judged.calls + generated.calls, tokens: judged.tokens + generated.tokens, usd: judged.usd };
}

/** Which limit a spending has reached (counting `inFlight` calls already started), or null. */
export function reachedLimit(budget: RunBudget, spent: RunSpending, inFlight = 0): keyof RunBudget | null {
  if (budget.calls !== null && spent.calls + inFlight >= budget.calls) return "calls";
  if (budget.tokens !== null && spent.tokens >= budget.tokens) return "tokens";
  if (budget.usd !== null && spent.usd >= budget.usd) return "usd";
  return null;
}

export function describeBudgetPause(limit: keyof RunBudget, budget: RunBudget, spent: RunSpending): string {
  const what =
    limit === "calls"
      ? `${budget.calls} LLM calls (${spent.calls} made)`
      : limit === "tokens"
        ? `${budget.tokens} tokens (${spent.tokens} used)`
        : `$${budget.usd} (${spent.usd.toFixed(4)} spent)`;
  return `Paused at its budget of ${what}. Raise the budget to resume; finished judgments are kept.`;
}
