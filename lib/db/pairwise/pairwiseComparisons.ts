import { z } from "zod";
import {
  PAIRWISE_ORDERS,
  storedCriteriaSchema,
  type PairwiseCriterion,
  type PairwiseOrders,
  type PairwiseStatus,
} from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";
import type { RunBudget } from "../runs/runBudget";
import { orderedUuid } from "../orderedUuid";
import { sqlFragments } from "../store/sqlFragments";

/**
 * Pairwise comparisons (PairwiseComparison): created as `planning`, `judging` once every pair's verdicts are
 * planned, `completed` or `failed`. A comparison is judged by one process at a time, its owner, which writes a
 * heartbeat by the store's clock; one whose owner has been silent for PAIRWISE_STALE_MS is taken over by the
 * next process that resumes it (claimPairwiseComparison). A planning comparison that went silent that long is
 * discarded: a plan is whole or gone.
 */
export const PAIRWISE_STALE_MS = 30_000;

export type PairwiseSpending = { llmCalls: number; inputTokens: number; outputTokens: number; costUsd: number | null };

export type StoredPairwiseComparison = {
  id: string;
  baselineRunId: string;
  candidateRunId: string;
  criteria: PairwiseCriterion[];
  orders: PairwiseOrders;
  seed: string;
  judgeProvider: string;
  judgeModel: string;
  concurrency: number;
  status: PairwiseStatus;
  errorMessage: string | null;
  progress: { done: number; total: number };
  /** `judging` with no sign of life from its owner for PAIRWISE_STALE_MS: its server stopped; resume it. */
  stopped: boolean;
  spent: PairwiseSpending;
  /** Its own budget (each limit optional, null for none), as a run's. */
  budget: RunBudget;
  createdById: string | null;
  createdAt: Date;
  finishedAt: Date | null;
};

const statusSchema = z.enum(["planning", "judging", "completed", "failed"]);

type Row = {
  id: string;
  baselineRunId: string;
  candidateRunId: string;
  criteria: string;
  orders: string;
  seed: string;
  judgeProvider: string;
  judgeModel: string;
  concurrency: number;
  status: string;
  errorMessage: string | null;
  progressDone: number;
  progressTotal: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  budgetCalls: number | null;
  budgetTokens: number | null;
  budgetUsd: number | null;
  createdById: string | null;
  createdAt: string | Date;
  finishedAt: string | Date | null;
  stopped: number | boolean;
};

function decode(row: Row): StoredPairwiseComparison {
  return {
    id: row.id,
    baselineRunId: row.baselineRunId,
    candidateRunId: row.candidateRunId,
    criteria: storedCriteriaSchema.parse(JSON.parse(row.criteria)),
    orders: z.enum(PAIRWISE_ORDERS).parse(row.orders),
    seed: row.seed,
    judgeProvider: row.judgeProvider,
    judgeModel: row.judgeModel,
    concurrency: Number(row.concurrency),
    status: statusSchema.parse(row.status),
    errorMessage: row.errorMessage,
    progress: { done: Number(row.progressDone), total: Number(row.progressTotal) },
    stopped: row.status === "judging" && Boolean(Number(row.stopped)),
    spent: {
      llmCalls: Number(row.llmCalls),
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      costUsd: row.costUsd === null ? null : Number(row.costUsd),
    },
    budget: {
      calls: row.budgetCalls === null ? null : Number(row.budgetCalls),
      tokens: row.budgetTokens === null ? null : Number(row.budgetTokens),
      usd: row.budgetUsd === null ? null : Number(row.budgetUsd),
    },
    createdById: row.createdById,
    createdAt: new Date(row.createdAt),
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt),
  };
}

const silentSql = (db: Db) =>
  `("heartbeatAt" IS NULL OR "heartbeatAt" < ${sqlFragments(sqlOf(db)).storeTime(-PAIRWISE_STALE_MS)})`;

const selectSql = (db: Db) =>
  `SELECT "id", "baselineRunId", "candidateRunId", "criteria", "orders", "seed", "judgeProvider", "judgeModel",
     "concurrency", "status", "errorMessage", "progressDone", "progressTotal", "llmCalls", "inputTokens",
     "outputTokens", "costUsd", "budgetCalls", "budgetTokens", "budgetUsd", "createdById", "createdAt", "finishedAt",
     CASE WHEN ${silentSql(db)} THEN 1 ELSE 0 END AS "stopped"
   FROM "PairwiseComparison"`;

export type NewPairwiseComparison = Pick<
  StoredPairwiseComparison,
  | "baselineRunId"
  | "candidateRunId"
  | "criteria"
  | "orders"
  | "seed"
  | "judgeProvider"
  | "judgeModel"
  | "concurrency"
  | "createdById"
  | "budget"
>;

/** Stores a new comparison as `planning`, its heartbeat the store's now; its pairs are planned next (pairwisePlan.ts). */
export async function createPairwiseComparison(db: Db, input: NewPairwiseComparison): Promise<string> {
  const id = orderedUuid();
  await sqlOf(db).run(
    `INSERT INTO "PairwiseComparison" ("id", "baselineRunId", "candidateRunId", "criteria", "orders", "seed",
       "judgeProvider", "judgeModel", "concurrency", "budgetCalls", "budgetTokens", "budgetUsd", "status", "createdById",
       "heartbeatAt", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'planning', ?, ${sqlFragments(sqlOf(db)).storeTime()}, ${sqlFragments(sqlOf(db)).storeTime()})`,
    [
      id,
      input.baselineRunId,
      input.candidateRunId,
      JSON.stringify(storedCriteriaSchema.parse(input.criteria)),
      input.orders,
      input.seed,
      input.judgeProvider,
      input.judgeModel,
      input.concurrency,
      input.budget.calls,
      input.budget.tokens,
      input.budget.usd,
      input.createdById,
    ],
  );
  return id;
}

export async function getPairwiseComparison(db: Db, id: string): Promise<StoredPairwiseComparison | null> {
  const row = await sqlOf(db).get<Row>(`${selectSql(db)} WHERE "id" = ?`, [id]);
  return row ? decode(row) : null;
}

/** A pair of runs' comparisons, newest first (planning ones are not shown: they are not whole yet). */
export async function listPairwiseComparisons(
  db: Db,
  baselineRunId: string,
  candidateRunId: string,
): Promise<StoredPairwiseComparison[]> {
  const rows = await sqlOf(db).all<Row>(
    `${selectSql(db)} WHERE "candidateRunId" = ? AND "baselineRunId" = ? AND "status" <> 'planning' ORDER BY "createdAt" DESC, "id" DESC`,
    [candidateRunId, baselineRunId],
  );
  return rows.map(decode);
}

/** Comparisons being judged whose owner went silent: what a server resumes when it starts and as it sweeps. */
export async function listStoppedPairwiseComparisons(db: Db): Promise<string[]> {
  const rows = await sqlOf(db).all<{ id: string }>(
    `SELECT "id" FROM "PairwiseComparison" WHERE "status" = 'judging' AND ${silentSql(db)} ORDER BY "createdAt"`,
  );
  return rows.map((row) => row.id);
}

/** The plan is whole: the comparison may be judged, with `total` verdicts to write. */
export async function finishPairwisePlan(db: Db, id: string, total: number): Promise<void> {
  await sqlOf(db).run(
    `UPDATE "PairwiseComparison" SET "status" = 'judging', "progressTotal" = ?, "heartbeatAt" = NULL WHERE "id" = ? AND "status" = 'planning'`,
    [total, id],
  );
}

/** Keeps a plan being written alive (pages of a large plan take seconds). */
export async function renewPairwisePlanning(db: Db, id: string): Promise<void> {
  await sqlOf(db).run(
    `UPDATE "PairwiseComparison" SET "heartbeatAt" = ${sqlFragments(sqlOf(db)).storeTime()} WHERE "id" = ? AND "status" = 'planning'`,
    [id],
  );
}

/** Deletes plans whose planner went silent (it died part-way): nothing ever judges half a plan. */
export async function discardAbandonedPairwisePlans(db: Db): Promise<number> {
  return sqlOf(db).run(`DELETE FROM "PairwiseComparison" WHERE "status" = 'planning' AND ${silentSql(db)}`);
}

/**
 * Makes `ownerId` the comparison's judge: when it is being judged by nobody alive (no owner, or one silent for
 * PAIRWISE_STALE_MS), or already by `ownerId`. False when another live process judges it, or it is not `judging`.
 */
export async function claimPairwiseComparison(db: Db, id: string, ownerId: string): Promise<boolean> {
  const sql = sqlOf(db);
  const changed = await sql.run(
    `UPDATE "PairwiseComparison" SET "ownerId" = ?, "heartbeatAt" = ${sqlFragments(sql).storeTime()}
     WHERE "id" = ? AND "status" = 'judging' AND ("ownerId" IS NULL OR "ownerId" = ? OR ${silentSql(db)})`,
    [ownerId, id, ownerId],
  );
  return changed === 1;
}

/** The owner's sign of life; false when it is no longer the owner (another process took the comparison over). */
export async function renewPairwiseOwnership(db: Db, id: string, ownerId: string): Promise<boolean> {
  const sql = sqlOf(db);
  const changed = await sql.run(
    `UPDATE "PairwiseComparison" SET "heartbeatAt" = ${sqlFragments(sql).storeTime()}
     WHERE "id" = ? AND "ownerId" = ? AND "status" = 'judging'`,
    [id, ownerId],
  );
  return changed === 1;
}

/** Completed once no verdict is pending (written by the owner only). */
export async function completePairwiseComparison(db: Db, id: string, ownerId: string): Promise<boolean> {
  const sql = sqlOf(db);
  const changed = await sql.run(
    `UPDATE "PairwiseComparison" SET "status" = 'completed', "finishedAt" = ${sqlFragments(sql).storeTime()}, "ownerId" = NULL
     WHERE "id" = ? AND "ownerId" = ? AND "status" = 'judging'
       AND NOT EXISTS (SELECT 1 FROM "PairwiseVerdict" v WHERE v."comparisonId" = ? AND v."status" = 'pending')`,
    [id, ownerId, id],
  );
  return changed === 1;
}

/** Failed with a reason the user reads (never a stack trace); what it spent is kept. */
export async function failPairwiseComparison(db: Db, id: string, message: string): Promise<void> {
  const sql = sqlOf(db);
  await sql.run(
    `UPDATE "PairwiseComparison" SET "status" = 'failed', "errorMessage" = ?, "finishedAt" = ${sqlFragments(sql).storeTime()}, "ownerId" = NULL
     WHERE "id" = ? AND "status" IN ('planning', 'judging')`,
    [message, id],
  );
}

/** Lets the owner go without finishing (its process is stopping): the next process resumes at once. */
export async function releasePairwiseComparison(db: Db, id: string, ownerId: string): Promise<void> {
  await sqlOf(db).run(
    `UPDATE "PairwiseComparison" SET "ownerId" = NULL, "heartbeatAt" = NULL WHERE "id" = ? AND "ownerId" = ?`,
    [id, ownerId],
  );
}

/** A failed comparison, or a finished one whose errors were put back to pending, judged again: what it judged stays. */
export async function reopenPairwiseComparison(db: Db, id: string): Promise<boolean> {
  const changed = await sqlOf(db).run(
    `UPDATE "PairwiseComparison" SET "status" = 'judging', "errorMessage" = NULL, "finishedAt" = NULL, "heartbeatAt" = NULL
     WHERE "id" = ? AND "status" IN ('failed', 'completed')`,
    [id],
  );
  return changed === 1;
}

/** Sets a comparison's budget (a raise before it judges what is left). */
export async function setPairwiseBudget(db: Db, id: string, budget: RunBudget): Promise<void> {
  await sqlOf(db).run(
    `UPDATE "PairwiseComparison" SET "budgetCalls" = ?, "budgetTokens" = ?, "budgetUsd" = ? WHERE "id" = ?`,
    [budget.calls, budget.tokens, budget.usd, id],
  );
}

export async function deletePairwiseComparison(db: Db, id: string): Promise<void> {
  await sqlOf(db).run(`DELETE FROM "PairwiseComparison" WHERE "id" = ?`, [id]);
}
