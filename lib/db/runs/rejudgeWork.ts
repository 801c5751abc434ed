import { sqlOf, type Db } from "../client";
import { readStoreClock } from "../store/storeClock";
import { sqlFragments } from "../store/sqlFragments";
import { recomputeRunSpending } from "../work/runSpending";
import { recordRunEvent } from "./runEvents";
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

export type RejudgeSelection = "errored" | "errored_or_failed";

/** The judgments a re-judge puts back to pending (the estimate counts the same ones). */
export function rejudgeWhere(runId: string, which: RejudgeSelection) {
  return which === "errored"
    ? { runId, status: "error" }
    : { runId, OR: [{ status: "error" }, { status: "done", OR: [{ rating: "no" }, { passed: false }] }] };
}

/**
 * Puts chosen finished judgments back to pending (errored ones, or those that
 * failed), deleting their per-chunk verdicts, so a new pass re-judges only them.
 * Errors are never cached, so they always reach the judge again; failed ones
 * get the cached answer back unless a second opinion is asked for, which
 * bypasses the cache (and replaces what it held) for this pass.
 */
export async function resetJudgmentsForRejudge(
  db: Db,
  runId: string,
  which: RejudgeSelection,
  options: { secondOpinion?: boolean } = {},
): Promise<number> {
  const where = rejudgeWhere(runId, which);
  const { bulkTallies } = sqlFragments(sqlOf(db));
  const now = await readStoreClock(sqlOf(db));
  const reset = await db.$transaction(async (tx) => {
    // A cancelled run keeps its unfinished work unfinished: re-judging it would silently resume everything.
    const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, config: true } });
    if (run.status === "cancelled" || run.status === "pending" || run.status === "running") return 0;
    // Failed generations are retried too, or their rows would only reproduce "generation failed".
    await tx.generation.updateMany({
      where: { runId, status: "error" },
      data: { status: "pending", errorMessage: null, finishedAt: null },
    });
    // Keyed by the same filter, never by a list of the chosen ids: the verdicts first, while the items still match it.
    await tx.chunkJudgment.deleteMany({ where: { judgment: where } });
    // Thousands of judgments in one statement: their tallies kept in a few grouped writes (sqlFragments).
    if (bulkTallies) await tx.$queryRawUnsafe(bulkTallies.begin);
    const { count } = await tx.judgmentItem.updateMany({
      where,
      data: {
        status: "pending",
        rating: null,
        score: null,
        passed: null,
        rationale: null,
        errorMessage: null,
        details: null,
        cacheHit: false,
        attempts: 0,
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
        latencyMs: null,
        finishedAt: null,
      },
    });
    if (bulkTallies) await tx.$queryRawUnsafe(bulkTallies.end);
    if (count > 0) {
      // Set on every re-judge, so an earlier second opinion does not keep bypassing the cache.
      const config = JSON.stringify({ ...decodeRunConfig(run.config), refreshCache: options.secondOpinion === true });
      await tx.run.update({
        where: { id: runId },
        data: {
          status: "pending",
          finishedAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          config,
          rejudgeTotal: count,
        },
      });
      await recordRunEvent(tx, runId, { kind: "rejudge_started", pendingJudgments: count, at: now });
    }
    return count;
  });
  // The run's spending is what its current results cost (as it always read): the results put back are not.
  if (reset > 0) await sqlOf(db).transaction((tx) => recomputeRunSpending(tx, runId));
  return reset;
}
