import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { Db } from "@/lib/db/client";
import { readRejudgeWork } from "@/lib/db/runs/rejudgeWork";
import type { RejudgeSelection } from "@/lib/db/runs/rejudgeWork";
import type { ModelPrice as Price } from "@/lib/llm/pricing";
import { judgeCallShape } from "@/lib/metrics/spendingEstimate";

export type RejudgeEstimate = {
  which: RejudgeSelection;
  secondOpinion: boolean;
  /** Judgments the re-judge puts back to pending. */
  judgments: number;
  errored: number;
  failed: number;
  /** Failed judgments whose answer is expected from the cache (no call), when no second opinion is asked. */
  fromCache: number;
  /** Judgments that make no LLM call at all (deterministic metrics, or the offline heuristic judge). */
  withoutCalls: number;
  /** Failed generations retried before judging (each one call to the generating model). */
  generations: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when the judge model has no configured price, or its usage is unknown. */
  costUsd: number | null;
  /** Calls whose tokens cannot be estimated: their metric has no finished, uncached judgment to average. */
  callsWithoutUsage: number;
  heuristic: boolean;
};

/**
 * What a re-judge would spend, before it is started: the judgments it redoes,
 * the LLM calls (per row, or per retrieved chunk when the run judges chunks one
 * call each), and tokens and cost from this run's own average usage per
 * judgment of each metric (its finished, uncached judgments), priced with the
 * configured price of its judge model. Counts and averages come from SQL (lib/db/runs/rejudgeWork.ts).
 */
export async function estimateRejudge(
  db: Db,
  runId: string,
  which: RejudgeSelection,
  options: { secondOpinion: boolean; price: Price | null },
): Promise<RejudgeEstimate | null> {
  const work = await readRejudgeWork(db, runId, which);
  if (!work) return null;
  const { config, selected, usage, generations } = work;
  const perChunkCalls = config.chunkMode === "per_chunk";
  const deepEval = deepEvalSettings(config.deepEval);
  const usageByMetric = new Map(usage.map((u) => [u.metric, u]));
  const heuristic = work.judgeProvider === "heuristic";
  const estimate: RejudgeEstimate = {
    which,
    secondOpinion: options.secondOpinion,
    judgments: 0,
    errored: 0,
    failed: 0,
    fromCache: 0,
    withoutCalls: 0,
    generations,
    llmCalls: generations,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    callsWithoutUsage: 0,
    heuristic,
  };
  let unpricedTokens = false;
  for (const s of selected) {
    const errored = Number(s.errored);
    const failed = Number(s.failed);
    estimate.errored += errored;
    estimate.failed += failed;
    estimate.judgments += errored + failed;
    const shape = judgeCallShape(s.metric, deepEval);
    if (heuristic || shape === null) {
      estimate.withoutCalls += errored + failed;
      continue;
    }
    // Errors are never cached; a failed judgment's answer is, unless a second opinion bypasses it.
    const calledFailed = options.secondOpinion ? failed : 0;
    estimate.fromCache += failed - calledFailed;
    const judged = errored + calledFailed;
    const chunks = Number(s.erroredChunks ?? 0) + (options.secondOpinion ? Number(s.failedChunks ?? 0) : 0);
    // A two-call metric (summarization) makes two calls per judgment; its stored usage already sums both.
    // DeepEval's contextual relevancy in its own call structure: one call per chunk besides the row's (at most).
    const calls = shape.perChunk && perChunkCalls ? chunks : judged * shape.callsPerRow + chunks * shape.callsPerChunk;
    estimate.llmCalls += calls;
    const average = usageByMetric.get(s.metric);
    if (!average || average.input === null || average.output === null) {
      estimate.callsWithoutUsage += calls;
      if (judged > 0) unpricedTokens = true;
      continue;
    }
    estimate.inputTokens += Math.round(Number(average.input) * judged);
    estimate.outputTokens += Math.round(Number(average.output) * judged);
  }
  if (options.price && !unpricedTokens && !heuristic)
    estimate.costUsd =
      (estimate.inputTokens * options.price.input + estimate.outputTokens * options.price.output) / 1_000_000;
  return estimate;
}
