import { costUsd, type LlmPrices } from "@/lib/llm/pricing";
import { deepEvalCallShape } from "./deepEvalCallCounts";
import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { isGEvalMetric } from "@/lib/contract/gEvalMetric";
import { findMetric } from "@/lib/contract/metricCatalog";

/**
 * What a run will spend before it starts, from the size of what it sends: the one formula behind the
 * CLI's estimate of a planned run (lib/engine/runEstimate.ts, from its pending work items) and the run
 * form's (from the dataset's text sizes, lib/db/datasets/datasetTextSizes.ts), so both say the same.
 */
export type SpendingEstimate = {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** The judging calls by metric (metrics with calls only); G-Eval steps and generation are in llmCalls only. */
  perMetric: { metric: string; calls: number }[];
  /** Of llmCalls, those that generate responses. */
  generationCalls: number;
};

/** The instructions, fences and schema a judge prompt wraps around the row (measured on the templates: 400–700 tokens). */
export const PROMPT_OVERHEAD_TOKENS = 600;
/** A verdict: a rationale (capped) and a rating; a batched per-chunk answer has one per chunk. */
export const OUTPUT_TOKENS_PER_VERDICT = 120;
export const CHARS_PER_TOKEN = 4;
/** A generation call: the answer template around the conversation, and an answer. */
export const GENERATION_PROMPT_TOKENS = 100;
export const GENERATION_OUTPUT_TOKENS = 300;

/** One metric's work: the rows it judges, their retrieved chunks, and the characters of their text and chunks. */
/**
 * `promptChars`: text every call of the metric carries besides the row's (an aligned judge's labelled examples
 * and guidance).
 */
export type JudgedWork = {
  metric: string;
  items: number;
  chunks: number;
  chars: number;
  promptChars?: number;
  /** The exchanges (a user turn and its answer) of the conversations judged: what per-turn judges count. */
  exchanges?: number;
};
/** The rows a generating run sends the model, and the characters of their requests. */
export type GenerationWork = { items: number; chars: number };

export type SpendingOptions = {
  judgeModel: string;
  generationModel: string | null;
  chunkMode: string;
  /** The offline judge: no LLM calls for judging. */
  heuristic: boolean;
  prices: LlmPrices;
  /** The run's DeepEval options: with DeepEval's call structure its metrics make more calls per row. */
  deepEval?: DeepEvalSettings;
};

/**
 * How a metric calls the model: per row (its catalogue `callsPerRow`, 1 for custom and G-Eval judges),
 * or per chunk (chunk relevance and custom RETRIEVAL judges, one call per chunk in per_chunk mode). A
 * DeepEval metric run with DeepEval's call structure makes its own calls per row, and per chunk for
 * contextual relevancy (`callsPerChunk`, on top of `callsPerRow`).
 * Null for metrics that call no model (deterministic, statistical, agent).
 */
export type JudgeCallShape = {
  perChunk: boolean;
  callsPerRow: number;
  callsPerChunk: number;
  callsPerExchange?: number;
};

export function judgeCallShape(metric: string, deepEval?: DeepEvalSettings): JudgeCallShape | null {
  const deepEvalShape = deepEvalCallShape(metric, deepEval);
  if (deepEvalShape) return { perChunk: false, ...deepEvalShape };
  const known = findMetric(metric);
  if (known) {
    if (known.kind !== "llm_judged") return null;
    const callsPerRow = known.callsPerRow ?? 1;
    const callsPerExchange = known.callsPerExchange ?? 0;
    return callsPerRow > 0 || callsPerExchange > 0
      ? { perChunk: known.perChunk === true, callsPerRow, callsPerChunk: 0, callsPerExchange }
      : null;
  }
  if (isGEvalMetric(metric)) return { perChunk: false, callsPerRow: 1, callsPerChunk: 0 };
  // Not in the catalogue: a custom judge, RETRIEVAL (per chunk) or ANSWER.
  if (metric.startsWith("retrieval/llm_judged/")) return { perChunk: true, callsPerRow: 1, callsPerChunk: 0 };
  if (metric.startsWith("response/llm_judged/")) return { perChunk: false, callsPerRow: 1, callsPerChunk: 0 };
  return null;
}

/**
 * Calls: one per judged row times the metric's calls per row (one per retrieved chunk for a per-chunk
 * judge in per_chunk mode), plus G-Eval's evaluation-steps calls: one per judge (at most: steps already in
 * the judge cache cost none), or one per row under DeepEval-exact, as DeepEval's evaluate() writes them.
 * Input tokens: the prompt's own size per call plus the row's text and
 * chunks, counted for each of a metric's calls per row (an upper bound: summarization's second call sees
 * only the summary and the questions, not the source). Output tokens: one verdict per call, or per
 * chunk for a per-chunk judge. Priced with ASSAY_LLM_PRICES; cost null when a model that is called has
 * no price. The offline judge and metrics without a model cost nothing.
 */
/**
 * G-Eval's evaluation-steps calls for the judged work of its judges that write their steps: once per judge and
 * trial (a cached one costs nothing), or once per row under DeepEval-exact (items count every trial already).
 */
export function gEvalStepCalls(work: readonly JudgedWork[], trials: number, exact: boolean): number {
  const judged = work.filter((entry) => entry.items > 0);
  return exact ? judged.reduce((sum, entry) => sum + entry.items, 0) : judged.length * trials;
}

export function estimateSpending(
  work: { judged: JudgedWork[]; gEvalStepCalls: number; generation: GenerationWork | null },
  options: SpendingOptions,
): SpendingEstimate {
  let calls = 0;
  let input = 0;
  let output = 0;
  const perMetric: SpendingEstimate["perMetric"] = [];
  let generationCalls = 0;
  if (!options.heuristic) {
    for (const entry of work.judged) {
      const shape = judgeCallShape(entry.metric, options.deepEval);
      if (!shape || entry.items === 0) continue;
      const textTokens = Math.ceil(entry.chars / CHARS_PER_TOKEN);
      const perChunkCalls = shape.perChunk && options.chunkMode === "per_chunk";
      const metricCalls = perChunkCalls
        ? entry.chunks
        : entry.items * shape.callsPerRow +
          entry.chunks * shape.callsPerChunk +
          (entry.exchanges ?? 0) * (shape.callsPerExchange ?? 0);
      calls += metricCalls;
      if (metricCalls > 0) perMetric.push({ metric: entry.metric, calls: metricCalls });
      // Each per-row call may read the row's text (an upper bound); a per-chunk call reads its chunk.
      input +=
        metricCalls * (PROMPT_OVERHEAD_TOKENS + Math.ceil((entry.promptChars ?? 0) / CHARS_PER_TOKEN)) +
        textTokens * (shape.perChunk ? 1 : shape.callsPerRow + (shape.callsPerChunk > 0 ? 1 : 0));
      output += (shape.perChunk ? Math.max(entry.chunks, entry.items) : metricCalls) * OUTPUT_TOKENS_PER_VERDICT;
    }
    calls += work.gEvalStepCalls;
    input += work.gEvalStepCalls * PROMPT_OVERHEAD_TOKENS;
    output += work.gEvalStepCalls * OUTPUT_TOKENS_PER_VERDICT;
  }
  let cost =
    calls === 0 ? 0 : costUsd(options.judgeModel, { inputTokens: input, outputTokens: output }, options.prices);
  if (options.generationModel !== null && work.generation !== null && work.generation.items > 0) {
    const usage = {
      inputTokens:
        work.generation.items * GENERATION_PROMPT_TOKENS + Math.ceil(work.generation.chars / CHARS_PER_TOKEN),
      outputTokens: work.generation.items * GENERATION_OUTPUT_TOKENS,
    };
    calls += work.generation.items;
    generationCalls = work.generation.items;
    input += usage.inputTokens;
    output += usage.outputTokens;
    const generationCost = costUsd(options.generationModel, usage, options.prices);
    cost = cost === null || generationCost === null ? null : cost + generationCost;
  }
  return {
    llmCalls: calls,
    inputTokens: input,
    outputTokens: output,
    costUsd: calls === 0 ? 0 : cost,
    perMetric,
    generationCalls,
  };
}
