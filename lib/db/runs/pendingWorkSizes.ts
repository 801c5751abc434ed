import { sqlOf, type Db } from "../client";
import { EXCHANGES_SQL, ROW_TEXT_CHARS_SQL, RETRIEVED_CHUNK_CHARS_SQL } from "../datasets/datasetTextSizes";

/** One LLM-judged metric's pending work in a run: its judgments, their rows' retrieved chunks and text. */
export type PendingJudgedWork = { metric: string; items: number; chunks: number; chars: number; exchanges: number };

/**
 * The size of what a planned run still has to send (the judges that call a model: `…/llm_judged/…`, and
 * DeepEval's conversational metrics, named `conversation/deepeval/…`), counted in SQL: per LLM-judged metric, its pending
 * judgments with their rows' text and chunk sizes; a generating run's pending generations and their
 * requests' characters (null when the run does not generate). lib/engine/runEstimate.ts prices it.
 */
export async function readPendingWorkSizes(
  db: Db,
  runId: string,
  options: { generates: boolean },
): Promise<{ judged: PendingJudgedWork[]; generation: { items: number; chars: number } | null }> {
  const sql = sqlOf(db);
  const judged = await sql.all<PendingJudgedWork>(
    `SELECT j."metric" AS "metric", COUNT(*) AS "items", COALESCE(SUM(r."retrievedChunkCount"), 0) AS "chunks",
       COALESCE(SUM(${EXCHANGES_SQL("r")}), 0) AS "exchanges",
       COALESCE(SUM(${ROW_TEXT_CHARS_SQL} + COALESCE(c."chars", 0)), 0) AS "chars"
     FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
     LEFT JOIN (${RETRIEVED_CHUNK_CHARS_SQL}) c ON c."rowId" = r."id"
     WHERE j."runId" = ? AND j."status" = 'pending' AND (j."metric" LIKE '%/llm_judged/%' OR j."metric" LIKE 'conversation/deepeval/%')
     GROUP BY j."metric"`,
    [runId],
  );
  const generation = !options.generates
    ? null
    : ((await sql.get<{ items: number; chars: number }>(
        `SELECT COUNT(*) AS "items", COALESCE(SUM(LENGTH(r."requestText")), 0) AS "chars"
         FROM "Generation" g JOIN "DatasetRow" r ON r."id" = g."rowId" WHERE g."runId" = ? AND g."status" = 'pending'`,
        [runId],
      )) ?? { items: 0, chars: 0 });
  return { judged, generation };
}
