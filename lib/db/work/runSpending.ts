import { sqlOf, type Db } from "../client";
import type { SqlRunner } from "../store/sqlRunner";
import { sqlFragments } from "../store/sqlFragments";

export type SpendingTotals = { calls: number; tokens: number; usd: number };

/** What a run has spent (LLM calls with retries, tokens, cost), summed over its few per-worker rows. */
export async function readRunSpending(db: Db, runId: string): Promise<SpendingTotals> {
  const row = await sqlOf(db).get<SpendingTotals>(
    `SELECT COALESCE(SUM("calls"), 0) AS "calls", COALESCE(SUM("tokens"), 0) AS "tokens", COALESCE(SUM("usd"), 0) AS "usd"
     FROM "RunWorkerSpending" WHERE "runId" = ?`,
    [runId],
  );
  return { calls: Number(row?.calls ?? 0), tokens: Number(row?.tokens ?? 0), usd: Number(row?.usd ?? 0) };
}

/** Ends an INSERT into RunWorkerSpending: a row already there for the worker's shard is added to. */
export const ADD_TO_WORKER_SPENDING = `ON CONFLICT ("runId", "workerId", "shard") DO UPDATE SET
       "calls" = "RunWorkerSpending"."calls" + excluded."calls",
       "tokens" = "RunWorkerSpending"."tokens" + excluded."tokens",
       "usd" = "RunWorkerSpending"."usd" + excluded."usd",
       "heldCalls" = "RunWorkerSpending"."heldCalls" + excluded."heldCalls"`;

/**
 * Adds what written results spent to the worker's row of the run, and
 * frees the calls it had reserved; called inside the transaction that writes
 * the result, so the run's spending and its results never disagree.
 */
export async function addWorkerSpending(
  tx: SqlRunner,
  runId: string,
  workerId: string,
  spent: SpendingTotals & { reservedCalls: number },
): Promise<void> {
  await tx.run(
    `INSERT INTO "RunWorkerSpending" ("runId", "workerId", "shard", "calls", "tokens", "usd", "heldCalls") VALUES (?, ?, ?, ?, ?, ?, ?)
     ${ADD_TO_WORKER_SPENDING}`,
    [runId, workerId, nextSpendingShard(), spent.calls, spent.tokens, spent.usd, -spent.reservedCalls],
  );
}

/** Rows per worker and run that results are spread over (RunWorkerSpending.shard). */
const SHARDS = 16;
let shardCursor = 0;
/** The shard the next write of a worker's spending goes to: its concurrent transactions seldom share a row. */
export function nextSpendingShard(): number {
  shardCursor = (shardCursor + 1) % SHARDS;
  return shardCursor;
}

/**
 * Reserves `calls` LLM calls of the run's call budget for a worker: granted
 * only if what the run spent plus every worker's reserved calls plus these
 * stays within the budget. The run's row is locked for the check (SQLite's
 * write lock does the same), so two workers never both take the last calls.
 * Runs without a call budget never come here.
 */
export async function reserveBudgetCalls(db: Db, runId: string, workerId: string, calls: number): Promise<boolean> {
  const sql = sqlOf(db);
  const { forUpdate } = sqlFragments(sql);
  return sql.transaction(
    async (tx) => {
      const run = await tx.get<{ budgetCalls: number | null }>(
        `SELECT "budgetCalls" FROM "Run" WHERE "id" = ?${forUpdate()}`,
        [runId],
      );
      if (!run) return false;
      if (run.budgetCalls !== null) {
        const used = await tx.get<{ n: number }>(
          `SELECT COALESCE(SUM("calls" + "heldCalls"), 0) AS "n" FROM "RunWorkerSpending" WHERE "runId" = ?`,
          [runId],
        );
        if (Number(used?.n ?? 0) + calls > Number(run.budgetCalls)) return false;
      }
      await tx.run(
        `INSERT INTO "RunWorkerSpending" ("runId", "workerId", "shard", "heldCalls") VALUES (?, ?, 0, ?)
         ON CONFLICT ("runId", "workerId", "shard") DO UPDATE SET "heldCalls" = "RunWorkerSpending"."heldCalls" + excluded."heldCalls"`,
        [runId, workerId, calls],
      );
      return true;
    },
    { readCommitted: true },
  );
}

/** Frees reserved calls that were not spent (the work stopped, or made fewer calls than reserved). */
export async function releaseBudgetCalls(db: Db, runId: string, workerId: string, calls: number): Promise<void> {
  if (calls <= 0) return;
  await sqlOf(db).run(
    `UPDATE "RunWorkerSpending" SET "heldCalls" = "heldCalls" - ? WHERE "runId" = ? AND "workerId" = ? AND "shard" = 0`,
    [calls, runId, workerId],
  );
}

/**
 * Sets a run's spending to what its stored results say (a re-judge puts
 * results back to pending, and the run's spending is what its current
 * results cost, as it always read). Inside the re-judge's transaction.
 */
export async function recomputeRunSpending(tx: SqlRunner, runId: string): Promise<void> {
  await tx.run(`DELETE FROM "RunWorkerSpending" WHERE "runId" = ?`, [runId]);
  await tx.run(
    `INSERT INTO "RunWorkerSpending" ("runId", "workerId", "shard", "calls", "tokens", "usd", "heldCalls")
     SELECT ?, 'recomputed', 0,
       COALESCE((SELECT SUM("attempts") FROM "JudgmentItem" WHERE "runId" = ? AND "status" IN ('done', 'error')), 0)
         + COALESCE((SELECT SUM(COALESCE("attempts", 1)) FROM "Generation" WHERE "runId" = ? AND "status" IN ('done', 'error')), 0),
       COALESCE((SELECT SUM(COALESCE("inputTokens", 0) + COALESCE("outputTokens", 0)) FROM "JudgmentItem" WHERE "runId" = ? AND "status" IN ('done', 'error')), 0)
         + COALESCE((SELECT SUM(COALESCE("inputTokenCount", 0) + COALESCE("outputTokenCount", 0)) FROM "Generation" WHERE "runId" = ? AND "status" IN ('done', 'error')), 0),
       COALESCE((SELECT SUM("costUsd") FROM "JudgmentItem" WHERE "runId" = ? AND "status" IN ('done', 'error')), 0)
         + COALESCE((SELECT SUM("costUsd") FROM "Generation" WHERE "runId" = ? AND "status" IN ('done', 'error')), 0),
       0`,
    [runId, runId, runId, runId, runId, runId, runId],
  );
}
