import { randomUUID } from "node:crypto";
import type { JudgeResult } from "@/lib/judges/types";
import { databaseUrlOf, type Db } from "./client";
import { bulkInsert, connectionFor, preparedStatement, sqliteTimestamp } from "./directSqlite";

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
};

/** The run, its custom judges, its work items and generation items, all in one transaction. */
export async function insertRunWithItems(
  db: Db,
  plan: {
    run: NewRun;
    customJudges: { assessmentName: string; assessmentType: string; instructions: string }[];
    items: RunItemPlan[];
    generationRowIds: string[];
  },
): Promise<void> {
  const now = sqliteTimestamp(new Date());
  const { run } = plan;
  bulkInsert(databaseUrlOf(db), [
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
      ],
      rows: [
        [
          run.id,
          run.datasetId,
          run.name,
          run.tags,
          "pending",
          run.judgeProvider,
          run.judgeModel,
          run.concurrency,
          run.config,
          run.generationModel,
          run.generationSystemPrompt,
          now,
        ],
      ],
    },
    {
      table: "CustomJudge",
      columns: ["id", "runId", "assessmentName", "assessmentType", "instructions"],
      rows: plan.customJudges.map((judge) => [
        randomUUID(),
        run.id,
        judge.assessmentName,
        judge.assessmentType,
        judge.instructions,
      ]),
    },
    {
      table: "JudgmentItem",
      columns: ["id", "runId", "rowId", "metric", "status", "skipReason", "createdAt"],
      rows: plan.items.map((item) => [item.id, run.id, item.rowId, item.metric, item.status, item.skipReason, now]),
    },
    {
      table: "Generation",
      columns: ["id", "runId", "rowId", "status", "model"],
      rows: plan.generationRowIds.map((rowId) => [randomUUID(), run.id, rowId, "pending", run.generationModel ?? ""]),
    },
  ]);
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
    templateVersion: string;
    templateHash: string;
    promptHash: string;
  },
): boolean {
  const connection = connectionFor(databaseUrlOf(db));
  const changes = preparedStatement(
    connection,
    `UPDATE "Generation" SET "status" = ?, "response" = ?, "errorMessage" = ?, "inputTokenCount" = ?, "outputTokenCount" = ?, "latencySeconds" = ?,
    "templateVersion" = ?, "templateHash" = ?, "promptHash" = ?, "finishedAt" = ?
    WHERE "id" = ? AND "status" = 'pending'`,
  ).run(
    result.errorMessage ? "error" : "done",
    result.response,
    result.errorMessage,
    result.inputTokenCount,
    result.outputTokenCount,
    result.latencySeconds,
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
