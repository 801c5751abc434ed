import { sqlOf, type Db } from "../client";
import { BUDGET_REACHED, reopenRunWithinLimit } from "./runLifecycle";
import type { RunsInProgressLimit } from "./runsInProgress";

/** A run's spending limits; null means no limit of that kind. */
export type RunBudget = { calls: number | null; tokens: number | null; usd: number | null };
/** What a run has spent so far: LLM calls (HTTP attempts, retries and repairs included), tokens, and cost when priced. */
export type RunSpending = { calls: number; tokens: number; usd: number };

export const NO_BUDGET: RunBudget = { calls: null, tokens: null, usd: null };
const NOTHING_SPENT: RunSpending = { calls: 0, tokens: 0, usd: 0 };

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

/** A run's spending from its stored judgments and generations (two aggregate queries): calls, tokens and cost of both. */
export async function getRunSpending(db: Db, runId: string): Promise<RunSpending> {
  const sql = sqlOf(db);
  const judged = await sql.get<RunSpending>(
    `SELECT COALESCE(SUM("attempts"), 0) AS "calls", COALESCE(SUM(COALESCE("inputTokens", 0) + COALESCE("outputTokens", 0)), 0) AS "tokens",
      COALESCE(SUM("costUsd"), 0) AS "usd" FROM "JudgmentItem" WHERE "runId" = ? AND "status" IN ('done', 'error')`,
    [runId],
  );
  // A generation stored before its attempts were recorded counts as the one call it made at least.
  const generated = await sql.get<RunSpending>(
    `SELECT COALESCE(SUM(COALESCE("attempts", 1)), 0) AS "calls", COALESCE(SUM(COALESCE("inputTokenCount", 0) + COALESCE("outputTokenCount", 0)), 0) AS "tokens",
      COALESCE(SUM("costUsd"), 0) AS "usd" FROM "Generation" WHERE "runId" = ? AND "status" IN ('done', 'error')`,
    [runId],
  );
  const a = judged ?? NOTHING_SPENT;
  const b = generated ?? NOTHING_SPENT;
  return { calls: a.calls + b.calls, tokens: a.tokens + b.tokens, usd: a.usd + b.usd };
}

/**
 * Which limit stops the next judgment, or null: `inFlight` calls already started and the `next` calls it
 * would make must fit in the call budget (so a two-call summarization never starts with one call left).
 */
export function reachedLimit(budget: RunBudget, spent: RunSpending, inFlight = 0, next = 1): keyof RunBudget | null {
  if (budget.calls !== null && spent.calls + inFlight + next > budget.calls) return "calls";
  if (budget.tokens !== null && spent.tokens >= budget.tokens) return "tokens";
  if (budget.usd !== null && spent.usd >= budget.usd) return "usd";
  return null;
}

/** The limit in words, and what was spent against it: ["500 LLM calls", "500 made"]. */
function describeLimit(limit: keyof RunBudget, budget: RunBudget, spent: RunSpending): [string, string] {
  return limit === "calls"
    ? [`${budget.calls} LLM calls`, `${spent.calls} made`]
    : limit === "tokens"
      ? [`${budget.tokens} tokens`, `${spent.tokens} used`]
      : [`$${budget.usd}`, `$${spent.usd.toFixed(4)} spent`];
}

/** "Paused: budget of 500 LLM calls reached (500 made). …": the run page and the CLI show it as the run's status. */
export function describeBudgetPause(limit: keyof RunBudget, budget: RunBudget, spent: RunSpending): string {
  const [what, spentText] = describeLimit(limit, budget, spent);
  return `Paused: budget of ${what} reached (${spentText}). Raise or remove the budget to resume; finished judgments are kept.`;
}

/** What the run page's resume form needs: why a paused run waits, its limits and what it has spent. */
export async function getRunBudgetState(
  db: Db,
  runId: string,
): Promise<{ pausedByBudget: boolean; budget: RunBudget; spent: RunSpending } | null> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { status: true, pauseReason: true, budgetCalls: true, budgetTokens: true, budgetUsd: true },
  });
  if (!run) return null;
  return {
    pausedByBudget: run.status === "paused" && run.pauseReason === BUDGET_REACHED,
    budget: { calls: run.budgetCalls, tokens: run.budgetTokens, usd: run.budgetUsd },
    spent: await getRunSpending(db, runId),
  };
}

const LIMIT_FIELD: Record<keyof RunBudget, string> = { calls: "call", tokens: "token", usd: "cost" };

function describeSpent(limit: keyof RunBudget, spent: RunSpending): string {
  return limit === "calls"
    ? `${spent.calls} LLM calls`
    : limit === "tokens"
      ? `${spent.tokens} tokens`
      : `$${spent.usd.toFixed(4)}`;
}

/**
 * Sets a paused or failed run's budget (null removes a limit) and makes it runnable again, as long
 * as the new budget leaves room: a limit at or under what the run has already spent would pause it
 * again at once, so it is refused with what was spent. Reopened within the user's `inProgressLimit`
 * (`inProgress` when they are at it). The caller starts executing it.
 */
export async function raiseBudgetAndReopen(
  db: Db,
  runId: string,
  budget: RunBudget,
  inProgressLimit: RunsInProgressLimit = null,
): Promise<{ ok: true } | { ok: false; message: string } | { ok: false; inProgress: number }> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
  if (!run) return { ok: false, message: "This run no longer exists." };
  if (run.status !== "paused" && run.status !== "failed")
    return { ok: false, message: `The run is ${run.status}; only a paused or failed run can be resumed.` };
  const spent = await getRunSpending(db, runId);
  const limit = reachedLimit(budget, spent);
  if (limit !== null)
    return {
      ok: false,
      message: `The run has already spent ${describeSpent(limit, spent)}: set the ${LIMIT_FIELD[limit]} budget above that, or leave it empty for no limit.`,
    };
  // The budget is kept even when the user is at their runs-in-progress limit: it is what they asked for, and
  // the run is resumed once they have room.
  await setRunBudget(db, runId, budget);
  const reopened = await reopenRunWithinLimit(db, runId, inProgressLimit);
  if (!reopened.ok) return { ok: false, inProgress: reopened.inProgress };
  if (!reopened.value) return { ok: false, message: "The run could not be reopened; reload the page." };
  return { ok: true };
}
