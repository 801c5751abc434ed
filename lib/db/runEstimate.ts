import { costUsd, type LlmPrices } from "@/lib/llm/pricing";
import { isGEvalMetric } from "@/lib/metrics/gEvalMetric";
import { findMetric } from "@/lib/metrics/metricCatalog";
import { databaseUrlOf, type Db } from "./client";
import { connectionFor, preparedStatement } from "./directSqlite";

/** What a planned run will spend before it starts, from the size of what it sends. */
export type RunEstimate = { llmCalls: number; inputTokens: number; outputTokens: number; costUsd: number | null };

/** The instructions, fences and schema a judge prompt wraps around the row (measured on the templates: 400–700 tokens). */
const PROMPT_OVERHEAD_TOKENS = 600;
/** A verdict: a rationale (capped) and a rating; a batched per-chunk answer has one per chunk. */
const OUTPUT_TOKENS_PER_VERDICT = 120;
const CHARS_PER_TOKEN = 4;

type MetricRow = { metric: string; items: number; chunks: number; chars: number };

/**
 * Estimates the LLM calls, tokens and cost of a run's pending work: the
 * catalogue's calls per row for each judged row (two for summarization; per
 * retrieved chunk for a per-chunk judge in per_chunk mode),
 * input tokens from the row's text and chunks plus the prompt's own size,
 * output tokens per verdict, priced with ASSAY_LLM_PRICES (null when the model
 * has no price). Deterministic metrics and the offline judge cost nothing.
 */
export function estimateRunSpending(
  db: Db,
  runId: string,
  options: {
    judgeModel: string;
    generationModel: string | null;
    chunkMode: string;
    heuristic: boolean;
    prices: LlmPrices;
  },
): RunEstimate {
  const connection = connectionFor(databaseUrlOf(db));
  const rowText = `LENGTH(r."requestText") + COALESCE(LENGTH(r."response"), 0) + COALESCE(LENGTH(r."expectedResponse"), 0) + COALESCE(LENGTH(r."expectedFacts"), 0)`;
  const byMetric = preparedStatement(
    connection,
    `SELECT j."metric" AS "metric", COUNT(*) AS "items", COALESCE(SUM(r."retrievedChunkCount"), 0) AS "chunks",
       COALESCE(SUM(${rowText} + COALESCE(c."chars", 0)), 0) AS "chars"
     FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
     LEFT JOIN (SELECT "rowId", SUM(LENGTH(COALESCE("content", ''))) AS "chars" FROM "ContextChunk" WHERE "kind" = 'retrieved' GROUP BY "rowId") c ON c."rowId" = r."id"
     WHERE j."runId" = ? AND j."status" = 'pending' AND j."metric" LIKE '%/llm_judged/%'
     GROUP BY j."metric"`,
  ).all(runId) as MetricRow[];
  let calls = 0;
  let input = 0;
  let output = 0;
  if (!options.heuristic) {
    for (const row of byMetric) {
      const definition = findMetric(row.metric);
      // Catalogued metrics say whether they judge chunk by chunk; custom RETRIEVAL judges (not catalogued) do.
      const perChunk = definition ? definition.perChunk === true : row.metric.startsWith("retrieval/llm_judged/");
      const rowCalls =
        perChunk && options.chunkMode === "per_chunk" ? row.chunks : row.items * (definition?.callsPerRow ?? 1);
      // A G-Eval judge first generates its evaluation steps: one call for its criteria and model.
      calls += rowCalls + (isGEvalMetric(row.metric) ? 1 : 0);
      input += rowCalls * PROMPT_OVERHEAD_TOKENS + Math.ceil(row.chars / CHARS_PER_TOKEN);
      output += (perChunk ? Math.max(row.chunks, row.items) : row.items) * OUTPUT_TOKENS_PER_VERDICT;
    }
  }
  let cost = costUsd(options.judgeModel, { inputTokens: input, outputTokens: output }, options.prices);
  if (options.generationModel !== null) {
    const generation = preparedStatement(
      connection,
      `SELECT COUNT(*) AS "items", COALESCE(SUM(LENGTH(r."requestText")), 0) AS "chars"
       FROM "Generation" g JOIN "DatasetRow" r ON r."id" = g."rowId" WHERE g."runId" = ? AND g."status" = 'pending'`,
    ).get(runId) as { items: number; chars: number };
    const usage = {
      inputTokens: generation.items * 100 + Math.ceil(generation.chars / CHARS_PER_TOKEN),
      outputTokens: generation.items * 300,
    };
    calls += generation.items;
    input += usage.inputTokens;
    output += usage.outputTokens;
    const generationCost = costUsd(options.generationModel, usage, options.prices);
    cost = cost === null || generationCost === null ? null : cost + generationCost;
  }
  return { llmCalls: calls, inputTokens: input, outputTokens: output, costUsd: calls === 0 ? 0 : cost };
}
