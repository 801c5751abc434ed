import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeInput } from "../types";
import { customAnswer, customRetrieval, customRetrievalSingle, customSystemPrompt } from "./customTemplates";
import type { AnyTemplate } from "./promptTemplate";
import {
  correctnessWithFacts,
  correctnessWithResponse,
  groundedness,
  relevanceToQuery,
  safety,
} from "./responseTemplates";
import { chunkRelevanceBatched, contextSufficiency } from "./retrievalTemplates";
import { SCORE_METRIC_TEMPLATES } from "./scoreMetrics";
import { toolCallCorrectnessFor, toolCallEfficiency } from "./agent/mlflowToolCallTemplates";

export type { AnyTemplate } from "./promptTemplate";

/**
 * The prompt a built-in or custom LLM judge uses for a row (batched chunk
 * judging); a per-chunk judge's template carries its one-chunk prompt too.
 */
export function templateForMetric(
  metric: string,
  input: JudgeInput,
  custom?: CustomJudgeDefinition,
): { template: AnyTemplate; context: unknown } | null {
  // An aligned built-in judge is judged by the built-in's prompt; the alignment is added by the caller.
  if (custom?.basedOn) return templateForMetric(custom.basedOn, input);
  if (custom) {
    if (custom.assessmentType === "ANSWER")
      return { template: { ...customAnswer, system: customSystemPrompt(custom) }, context: custom };
    const singleChunk = { ...customRetrievalSingle, system: customSystemPrompt(custom, { singleChunk: true }) };
    return { template: { ...customRetrieval, system: customSystemPrompt(custom), singleChunk }, context: custom };
  }
  switch (metric) {
    case "response/llm_judged/correctness":
      return { template: input.expectedFacts ? correctnessWithFacts : correctnessWithResponse, context: undefined };
    case "response/llm_judged/relevance_to_query":
      return { template: relevanceToQuery, context: undefined };
    case "response/llm_judged/groundedness":
      return { template: groundedness, context: undefined };
    case "response/llm_judged/safety":
      return { template: safety, context: undefined };
    case "retrieval/llm_judged/chunk_relevance":
      return { template: chunkRelevanceBatched, context: undefined };
    case "retrieval/llm_judged/context_sufficiency":
      return { template: contextSufficiency, context: undefined };
    // MLflow's tool-call judges read the run's tool-call settings (should_consider_ordering): the request's settings are their context.
    case "agent/llm_judged/tool_call_correctness":
      return { template: toolCallCorrectnessFor(input), context: undefined };
    case "agent/llm_judged/tool_call_efficiency":
      return { template: toolCallEfficiency, context: undefined };
    default: {
      const scoreTemplate = SCORE_METRIC_TEMPLATES[metric];
      return scoreTemplate ? { template: scoreTemplate, context: undefined } : null;
    }
  }
}
