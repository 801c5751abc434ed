import type { DeepEvalSettings } from "@/lib/metrics/deepEvalSettings";
import type { LlmPrices } from "@/lib/llm/pricing";
import { isGEvalMetric } from "@/lib/metrics/gEvalMetric";
import { estimateSpending, type JudgedWork, type SpendingEstimate } from "@/lib/metrics/spendingEstimate";
import { sqlOf, type Db } from "../client";
import { ROW_TEXT_CHARS_SQL, RETRIEVED_CHUNK_CHARS_SQL } from "../datasets/datasetTextSizes";

/** What a planned run will spend before it starts, from the size of what it sends. */
export type RunEstimate = SpendingEstimate;

/**
 * Estimates the LLM calls, tokens and cost of a run's pending work (lib/metrics/spendingEstimate.ts,
 * the formula the run form uses too): per metric, its pending rows with their text and chunk sizes,
 * counted in SQL; a generating run's pending generations. Deterministic metrics and the offline judge
 * cost nothing.
 */
export async function estimateRunSpending(
  db: Db,
  runId: string,
  options: {
    judgeModel: string;
    generationModel: string | null;
    chunkMode: string;
    heuristic: boolean;
    prices: LlmPrices;
    deepEval?: DeepEvalSettings;
    /** Text every call of a metric carries besides the row's (an aligned judge's examples), by metric. */
    promptChars?: ReadonlyMap<string, number>;
  },
): Promise<RunEstimate> {
  const sql = sqlOf(db);
  const judged = await sql.all<JudgedWork>(
    `SELECT j."metric" AS "metric", COUNT(*) AS "items", COALESCE(SUM(r."retrievedChunkCount"), 0) AS "chunks",
       COALESCE(SUM(${ROW_TEXT_CHARS_SQL} + COALESCE(c."chars", 0)), 0) AS "chars"
     FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
     LEFT JOIN (${RETRIEVED_CHUNK_CHARS_SQL}) c ON c."rowId" = r."id"
     WHERE j."runId" = ? AND j."status" = 'pending' AND j."metric" LIKE '%/llm_judged/%'
     GROUP BY j."metric"`,
    [runId],
  );
  const generation =
    options.generationModel === null
      ? null
      : ((await sql.get<{ items: number; chars: number }>(
          `SELECT COUNT(*) AS "items", COALESCE(SUM(LENGTH(r."requestText")), 0) AS "chars"
           FROM "Generation" g JOIN "DatasetRow" r ON r."id" = g."rowId" WHERE g."runId" = ? AND g."status" = 'pending'`,
          [runId],
        )) ?? { items: 0, chars: 0 });
  return estimateSpending(
    {
      judged: judged.map((entry) => ({ ...entry, promptChars: options.promptChars?.get(entry.metric) ?? 0 })),
      // Steps are written once per G-Eval judge, before its first row (at most: a cached one costs nothing).
      gEvalJudges: judged.filter((entry) => isGEvalMetric(entry.metric) && entry.items > 0).length,
      generation,
    },
    options,
  );
}
