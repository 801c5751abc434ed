import type { SavedJudgment } from "@/lib/db/work/judgmentResults";
import type { ChunkJudgingMode, JudgeBackend, JudgeRequest } from "@/lib/judges/judgeBackend";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeResult } from "@/lib/contract/judgeResult";
import type { ContextRelevanceSettings } from "@/lib/contract/contextRelevanceSettings";
import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { hasStrictMode, strictScore } from "@/lib/metrics/strictMode";
import { isGEvalMetric } from "@/lib/contract/gEvalMetric";
import { agentMetricValue, computeDocumentRecall } from "@/lib/metrics/deterministicMetrics";
import { isToolCallMetric, scoreToolCallMetric } from "@/lib/metrics/toolCalls/toolCallMetrics";
import { isAgentValueMetric } from "@/lib/contract/aggregates";
import { toolCallSettings, type ToolCallSettings } from "@/lib/contract/toolCallSettings";
import type { ConversationSettings } from "@/lib/contract/conversationSettings";
import type { StatisticalSettings } from "@/lib/contract/statisticalSettings";
import { isStatisticalMetric, scoreStatistically } from "@/lib/metrics/statistical";
import { chunkHasContent } from "@/lib/contract/rowInputs";
import { emptyChunkReason, requirementsOf } from "@/lib/metrics/rowEligibility";
import type { JudgeRowData } from "@/lib/db/runs/runQueries";
import type { JudgeInput } from "@/lib/judges/types";
import { judgesEmptyResponse } from "@/lib/contract/deepEvalExactInputs";
import { agentFactsOf, chunksOf, judgeInputFromRow, toolCallsOf } from "./judgeInputFromRow";
import { defaultThreshold, scorePasses, thresholdFor } from "@/lib/contract/thresholds";

export type ItemContext = {
  judge: JudgeBackend;
  customJudges: Map<string, CustomJudgeDefinition>;
  chunkMode: ChunkJudgingMode;
  thresholds: Record<string, number>;
  /** The run's context_relevance penalties and scale (defaults filled in). */
  contextRelevance?: ContextRelevanceSettings;
  /** The run's statistical scorer settings (the ROUGE type). */
  statistical?: StatisticalSettings;
  /** DeepEval's options for the run (defaults filled in): strict_mode, include_reason, the list cap, … */
  deepEval?: DeepEvalSettings;
  /** The tool-call metrics' ordering, evaluation_params and exact match (defaults filled in). */
  toolCalls?: ToolCallSettings;
  /** The conversation judges' settings (MLflow's conversational guidelines). */
  conversation?: ConversationSettings;
  generates: boolean;
  costOf: (model: string, usage: JudgeResult["usage"]) => number | null;
};

const DETERMINISTIC = {
  provider: "deterministic",
  model: "deterministic",
  promptVersion: "deterministic/v1",
  promptHash: null,
  usage: null,
  cacheHit: false,
  attempts: 0,
  latencyMs: 0,
};

/**
 * Computes one (row, metric) result: deterministic metrics here, judged ones through the judge backend.
 * `allowMoreCalls` is the run budget's answer to calls the judgment was not planned with (JudgeRequest).
 */
export async function judgeItem(
  metric: string,
  row: JudgeRowData,
  ctx: ItemContext,
  allowMoreCalls?: JudgeRequest["allowMoreCalls"],
  trial = 1,
): Promise<SavedJudgment> {
  if (ctx.generates && row.generation?.status === "error" && !metric.startsWith("retrieval/")) {
    return withPass(
      metric,
      {
        ...DETERMINISTIC,
        rating: null,
        score: null,
        rationale: null,
        errorMessage: `generation failed: ${row.generation.errorMessage ?? "unknown error"}`,
      },
      ctx,
    );
  }
  if (metric === "retrieval/ground_truth/document_recall") {
    const recall = computeDocumentRecall(chunksOf(row, "retrieved"), chunksOf(row, "expected"));
    return withPass(
      metric,
      {
        ...DETERMINISTIC,
        rating: null,
        score: recall?.score ?? null,
        rationale: recall?.rationale ?? null,
        errorMessage: recall ? null : "no expected_retrieved_context",
      },
      ctx,
    );
  }
  if (isToolCallMetric(metric)) {
    const verdict = scoreToolCallMetric(metric, toolCallsOf(row), ctx.toolCalls ?? toolCallSettings());
    return withPass(metric, { ...DETERMINISTIC, promptVersion: "tool-calls/v1", ...verdict }, ctx);
  }
  if (isAgentValueMetric(metric)) {
    const value = agentMetricValue(metric, agentFactsOf(row, ctx.generates));
    return withPass(
      metric,
      {
        ...DETERMINISTIC,
        rating: null,
        score: value,
        rationale: null,
        errorMessage: value === null ? "the trace has no value for this metric" : null,
      },
      ctx,
    );
  }
  const custom = ctx.customJudges.get(metric);
  const input = judgeInputFor(metric, row, ctx);
  if (isStatisticalMetric(metric)) {
    const started = performance.now();
    const verdict =
      input.response === null || input.expectedResponse === null
        ? { rating: null, score: null, rationale: null, errorMessage: "needs response and expected_response" }
        : scoreStatistically(metric, input.response, input.expectedResponse, ctx.statistical);
    return withPass(
      metric,
      {
        ...DETERMINISTIC,
        promptVersion: "statistical/v2",
        ...verdict,
        latencyMs: Math.round(performance.now() - started),
      },
      ctx,
    );
  }
  if (requirementsOf(metric, custom).includes("retrieved_context_content")) {
    // Planning skips these rows (rowEligibility); this only guards items planned before that rule,
    // so that no backend is ever shown an empty chunk to rate.
    const empty = input.retrievedContext.findIndex((chunk) => !chunkHasContent(chunk.content));
    if (empty !== -1)
      return withPass(
        metric,
        {
          ...DETERMINISTIC,
          provider: ctx.judge.provider,
          model: ctx.judge.model,
          promptVersion: "none",
          rating: null,
          score: null,
          rationale: null,
          errorMessage: emptyChunkReason(empty),
        },
        ctx,
      );
  }
  const result = await ctx.judge.judge({
    metric,
    input,
    custom,
    // An adopted alignment's examples and guidance go into the custom judge's prompt.
    ...(custom?.alignment ? { alignment: custom.alignment } : {}),
    chunkMode: ctx.chunkMode,
    ...(allowMoreCalls ? { allowMoreCalls } : {}),
    ...(trial > 1 ? { trial } : {}),
    settings: {
      ...(ctx.contextRelevance ? { contextRelevance: ctx.contextRelevance } : {}),
      ...(ctx.deepEval ? { deepEval: ctx.deepEval } : {}),
      ...(ctx.toolCalls ? { toolCalls: ctx.toolCalls } : {}),
      ...(ctx.conversation ? { conversation: ctx.conversation } : {}),
    },
  });
  return withPass(metric, ctx.deepEval?.strictMode ? inStrictMode(metric, result) : result, ctx);
}

/**
 * DeepEval's strict_mode on a judged score: 1 or 0, the score it replaced kept in the details' figures.
 * G-Eval already asks for a 1-or-0 score in strict mode; this leaves its score as it is.
 */
function inStrictMode(metric: string, result: JudgeResult): JudgeResult {
  if (result.score === null || !hasStrictMode(metric)) return result;
  const details = result.details ?? { groups: [] };
  // G-Eval was asked for the 1 or 0 itself: there is no other score to keep.
  const before: Record<string, number> = isGEvalMetric(metric) ? {} : { score_before_strict_mode: result.score };
  return {
    ...result,
    score: strictScore(metric, result.score),
    details: {
      ...details,
      figures: { ...details.figures, ...before },
      notes: [
        ...(details.notes ?? []),
        "strict_mode: the score is 1 or 0, and the threshold is 1 (0 where lower is better).",
      ],
    },
  };
}

/** The row as the judge sees it: under DeepEval-exact, DeepEval's metrics read an empty response as DeepEval's "". */
function judgeInputFor(metric: string, row: JudgeRowData, ctx: ItemContext): JudgeInput {
  const input = judgeInputFromRow(row, ctx.generates);
  const emptyIsResponse =
    input.response === null &&
    !ctx.generates &&
    row.hasEmptyResponse === true &&
    ctx.deepEval?.exact === true &&
    judgesEmptyResponse(metric);
  return emptyIsResponse ? { ...input, response: "" } : input;
}

function withPass(metric: string, result: JudgeResult, ctx: ItemContext): SavedJudgment {
  const threshold =
    result.score !== null && !isAgentValueMetric(metric)
      ? thresholdFor(metric, ctx.thresholds, defaultThreshold(metric, ctx.contextRelevance?.scale))
      : null;
  const passed =
    result.errorMessage !== null
      ? null
      : result.rating !== null
        ? result.rating === "yes"
        : threshold !== null && result.score !== null
          ? scorePasses(metric, result.score, threshold)
          : null;
  return { ...result, threshold, passed, costUsd: result.usage ? ctx.costOf(result.model, result.usage) : null };
}
