import { randomUUID } from "node:crypto";
import type { JudgeResult } from "@/lib/judges/types";
import { responseHashOf } from "@/lib/labels/contentHash";
import { databaseUrlOf, type Db } from "../client";
import { bulkInsertWhenWritable, connectionFor, preparedStatement, sqliteTimestamp } from "../store/directSqlite";
import type { RunBudget } from "../runs/runBudget";
import { retryWhileBusy } from "../store/storeRetry";

export type RunItemPlan = {
  id: string;
  rowId: string;
  metric: string;
  status: "pending" | "skipped";
  skipReason: string | null;
};

type NewRun = {
  id: string;
  datasetId: string;
  name: string;
  tags: string;
  judgeProvider: string;
  judgeModel: string;
  concurrency: number;
  config: string;
  generationModel: string | null;
  generationSystemPrompt: string | null;
  budget?: RunBudget;
  /** The signed-in user who started it; null while sign-in is off. */
  createdById?: string | null;
};

/**
 * Planning writes a run in pages, never in one long transaction: a 20,000-row
 * dataset with every judge made 220,000 items, built in memory (428 MB peak)
 * and written in one transaction that held the write lock, and the event loop,
 * for seconds (a lease heartbeat of another run in the same server could not
 * beat). The run is stored first as `planning`, which nothing executes, lists
 * as resumable or claims; its items follow page by page, each page one short
 * transaction; only then does it become `pending`. A planner that dies part-way
 * leaves a `planning` run whose planning lease lapses, and deleteAbandonedPlans
 * removes it: no half-planned run is ever taken for a real one.
 */
export async function insertPlanningRun(
  db: Db,
  run: NewRun,
  customJudges: { assessmentName: string; assessmentType: string; instructions: string }[],
  planner: { owner: string; ttlMs: number },
): Promise<void> {
  const now = new Date();
  await bulkInsertWhenWritable(databaseUrlOf(db), [
    {
      table: "Run",
      columns: [
        "id",
        "datasetId",
        "name",
        "tags",
        "status",
        "judgeProvider",
        "judgeModel",
        "concurrency",
        "config",
        "generationModel",
        "generationSystemPrompt",
        "createdAt",
        "leaseOwner",
        "leaseExpiresAt",
        "budgetCalls",
        "budgetTokens",
        "budgetUsd",
        "createdById",
      ],
      rows: [
        [
          run.id,
          run.datasetId,
          run.name,
          run.tags,
          "planning",
          run.judgeProvider,
          run.judgeModel,
          run.concurrency,
          run.config,
          run.generationModel,
          run.generationSystemPrompt,
          sqliteTimestamp(now),
          planner.owner,
          sqliteTimestamp(new Date(now.getTime() + planner.ttlMs)),
          run.budget?.calls ?? null,
          run.budget?.tokens ?? null,
          run.budget?.usd ?? null,
          run.createdById ?? null,
        ],
      ],
    },
    {
      table: "CustomJudge",
      columns: ["id", "runId", "assessmentName", "assessmentType", "instructions"],
      rows: customJudges.map((judge) => [
        randomUUID(),
        run.id,
        judge.assessmentName,
        judge.assessmentType,
        judge.instructions,
      ]),
    },
  ]);
}

/** One page of a run's plan (its work items and generation items) in one short transaction; renews the planning lease. */
export async function insertPlanPage(
  db: Db,
  runId: string,
  page: { items: RunItemPlan[]; generationRowIds: string[]; generationModel: string | null },
  planner: { owner: string; ttlMs: number },
): Promise<void> {
  const now = sqliteTimestamp(new Date());
  const url = databaseUrlOf(db);
  await bulkInsertWhenWritable(url, [
    {
      table: "JudgmentItem",
      columns: ["id", "runId", "rowId", "metric", "status", "skipReason", "createdAt"],
      rows: page.items.map((item) => [item.id, runId, item.rowId, item.metric, item.status, item.skipReason, now]),
    },
    {
      table: "Generation",
      columns: ["id", "runId", "rowId", "status", "model"],
      rows: page.generationRowIds.map((rowId) => [randomUUID(), runId, rowId, "pending", page.generationModel ?? ""]),
    },
  ]);
  const renew = preparedStatement(
    connectionFor(url),
    `UPDATE "Run" SET "leaseExpiresAt" = ? WHERE "id" = ? AND "status" = 'planning' AND "leaseOwner" = ?`,
  );
  await retryWhileBusy(() => renew.run(sqliteTimestamp(new Date(Date.now() + planner.ttlMs)), runId, planner.owner));
}

/** The plan is complete: the run becomes pending (runnable). */
export async function finishPlanning(db: Db, runId: string, owner: string): Promise<void> {
  const changes = await retryWhileBusy(
    () =>
      preparedStatement(
        connectionFor(databaseUrlOf(db)),
        `UPDATE "Run" SET "status" = 'pending', "leaseOwner" = NULL, "leaseExpiresAt" = NULL WHERE "id" = ? AND "status" = 'planning' AND "leaseOwner" = ?`,
      ).run(runId, owner).changes,
  );
  if (changes !== 1) throw new Error(`run ${runId} is no longer being planned by this process`);
}

/** Deletes runs whose planner died part-way (planning lease lapsed); their items go with them (cascade). */
export async function deleteAbandonedPlans(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.run.deleteMany({ where: { status: "planning", leaseExpiresAt: { lt: now } } });
  return count;
}

export type SavedJudgment = Omit<JudgeResult, "chunks" | "usage"> & {
  chunks?: JudgeResult["chunks"];
  usage: JudgeResult["usage"];
  threshold: number | null;
  passed: boolean | null;
  costUsd: number | null;
};

/**
 * Writes one finished judgment and its per-chunk verdicts atomically, and
 * only if the item is still pending: a judgment is written once, never twice,
 * even if two runners raced for it. Returns false when it was not pending.
 */
export function saveJudgment(
  db: Db,
  item: { id: string; runId: string; rowId: string; metric: string },
  result: SavedJudgment,
): boolean {
  const connection = connectionFor(databaseUrlOf(db));
  const update = preparedStatement(
    connection,
    `UPDATE "JudgmentItem" SET
    "status" = ?, "rating" = ?, "score" = ?, "threshold" = ?, "passed" = ?, "rationale" = ?, "errorMessage" = ?, "details" = ?,
    "judgeProvider" = ?, "judgeModel" = ?, "promptVersion" = ?, "promptHash" = ?, "cacheHit" = ?, "attempts" = ?,
    "inputTokens" = ?, "outputTokens" = ?, "costUsd" = ?, "latencyMs" = ?, "finishedAt" = ?
    WHERE "id" = ? AND "status" = 'pending'`,
  );
  const insertChunk = preparedStatement(
    connection,
    `INSERT INTO "ChunkJudgment" ("id", "judgmentId", "runId", "rowId", "metric", "position", "rating", "rationale", "errorMessage") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return connection.transaction(() => {
    const changed = update.run(
      result.errorMessage ? "error" : "done",
      result.rating,
      result.score,
      result.threshold,
      bool(result.passed),
      result.rationale,
      result.errorMessage,
      result.details ? JSON.stringify(result.details) : null,
      result.provider,
      result.model,
      result.promptVersion,
      result.promptHash,
      result.cacheHit ? 1 : 0,
      result.attempts,
      result.usage?.inputTokens ?? null,
      result.usage?.outputTokens ?? null,
      result.costUsd,
      result.latencyMs,
      sqliteTimestamp(new Date()),
      item.id,
    ).changes;
    if (changed === 0) return false;
    for (const chunk of result.chunks ?? []) {
      insertChunk.run(
        randomUUID(),
        item.id,
        item.runId,
        item.rowId,
        item.metric,
        chunk.position,
        chunk.rating,
        chunk.rationale,
        chunk.errorMessage,
      );
    }
    return true;
  })();
}

export function saveGeneration(
  db: Db,
  generationId: string,
  result: {
    response: string | null;
    errorMessage: string | null;
    inputTokenCount: number | null;
    outputTokenCount: number | null;
    latencySeconds: number | null;
    /** HTTP attempts the call made (retries included) and its cost, for the run's budget. */
    attempts: number;
    costUsd: number | null;
    templateVersion: string;
    templateHash: string;
    promptHash: string;
  },
): boolean {
  const connection = connectionFor(databaseUrlOf(db));
  const changes = preparedStatement(
    connection,
    `UPDATE "Generation" SET "status" = ?, "response" = ?, "responseHash" = ?, "errorMessage" = ?, "inputTokenCount" = ?, "outputTokenCount" = ?, "latencySeconds" = ?,
    "attempts" = ?, "costUsd" = ?, "templateVersion" = ?, "templateHash" = ?, "promptHash" = ?, "finishedAt" = ?
    WHERE "id" = ? AND "status" = 'pending'`,
  ).run(
    result.errorMessage ? "error" : "done",
    result.response,
    responseHashOf(result.response),
    result.errorMessage,
    result.inputTokenCount,
    result.outputTokenCount,
    result.latencySeconds,
    result.attempts,
    result.costUsd,
    result.templateVersion,
    result.templateHash,
    result.promptHash,
    sqliteTimestamp(new Date()),
    generationId,
  ).changes;
  return changes > 0;
}

function bool(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}
