import { sqlOf, type Db } from "../client";
import type { RejudgeSelection } from "./runLifecycle";
import { decodeRunConfig, type StoredRunConfig } from "./storedRun";

/** One metric's judgments a re-judge would redo: errored and failed ones, and their rows' retrieved chunks. */
export type RejudgeSelected = {
  metric: string;
  errored: number;
  failed: number;
  erroredChunks: number | null;
  failedChunks: number | null;
};

/** A metric's average tokens per finished, uncached judgment in the run (null when it has none). */
export type RejudgeUsage = { metric: string; input: number | null; output: number | null };

export type RejudgeWork = {
  judgeProvider: string;
  config: StoredRunConfig;
  /** Failed generations retried before judging (0 when the run does not generate). */
  generations: number;
  selected: RejudgeSelected[];
  usage: RejudgeUsage[];
};

/**
 * What a re-judge of a run would redo, counted in SQL: per metric, the judgments it puts back to pending
 * (errored ones, and with `errored_or_failed` the failed ones) and their chunks; the run's average usage per
 * finished, uncached judgment of each metric; its failed generations. Null for no such run.
 * lib/engine/rejudgeEstimate.ts turns it into calls, tokens and cost.
 */
export async function readRejudgeWork(db: Db, runId: string, which: RejudgeSelection): Promise<RejudgeWork | null> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { judgeProvider: true, config: true, generationModel: true },
  });
  if (!run) return null;
  const includeFailed = which === "errored_or_failed";
  const [selected, usage, generations] = await Promise.all([
    sqlOf(db).all<RejudgeSelected>(
      `SELECT j."metric" AS "metric",
        SUM(CASE WHEN j."status" = 'error' THEN 1 ELSE 0 END) AS "errored",
        SUM(CASE WHEN j."status" = 'done' THEN 1 ELSE 0 END) AS "failed",
        SUM(CASE WHEN j."status" = 'error' THEN r."retrievedChunkCount" ELSE 0 END) AS "erroredChunks",
        SUM(CASE WHEN j."status" = 'done' THEN r."retrievedChunkCount" ELSE 0 END) AS "failedChunks"
      FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
      WHERE j."runId" = @runId
        AND (j."status" = 'error' OR (@includeFailed = TRUE AND j."status" = 'done' AND (j."rating" = 'no' OR j."passed" = FALSE)))
      GROUP BY j."metric"`,
      { runId, includeFailed },
    ),
    sqlOf(db).all<RejudgeUsage>(
      `SELECT "metric" AS "metric", AVG("inputTokens") AS "input", AVG("outputTokens") AS "output"
      FROM "JudgmentItem"
      WHERE "runId" = ? AND "status" = 'done' AND "cacheHit" = FALSE AND "inputTokens" IS NOT NULL
      GROUP BY "metric"`,
      [runId],
    ),
    run.generationModel ? db.generation.count({ where: { runId, status: "error" } }) : 0,
  ]);
  return { judgeProvider: run.judgeProvider, config: decodeRunConfig(run.config), generations, selected, usage };
}
