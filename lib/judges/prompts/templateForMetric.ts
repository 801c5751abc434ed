import type { CustomJudgeDefinition, JudgeInput } from "../types";
import { customAnswer, customRetrieval, customRetrievalSingle, customSystemPrompt } from "./customTemplates";
import type { PromptTemplate } from "./promptTemplate";
import { correctnessWithFacts, correctnessWithResponse, groundedness, relevanceToQuery, safety } from "./responseTemplates";
import { chunkRelevanceBatched, chunkRelevanceSingle, contextSufficiency } from "./retrievalTemplates";

// Templates differ in output type; the engine treats them uniformly through toVerdict.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTemplate = PromptTemplate<any, any>;

/** The prompt a built-in or custom LLM judge uses for a row (batched chunk judging). */
export function templateForMetric(metric: string, input: JudgeInput, custom?: CustomJudgeDefinition): { template: AnyTemplate; context: unknown } | null {
  if (custom) {
    const base = custom.assessmentType === "ANSWER" ? customAnswer : customRetrieval;
    return { template: { ...base, system: customSystemPrompt(custom) }, context: custom };
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
    default:
      return null;
  }
}

/**
 * The one-chunk-per-call prompt of a per-chunk judge (built-in chunk_relevance,
 * custom RETRIEVAL), rendered with context { position }; null for other judges.
 */
export function singleChunkTemplateFor(metric: string, custom?: CustomJudgeDefinition): AnyTemplate | null {
  if (custom) return custom.assessmentType === "RETRIEVAL" ? { ...customRetrievalSingle, system: customSystemPrompt(custom, { singleChunk: true }) } : null;
  return metric === "retrieval/llm_judged/chunk_relevance" ? chunkRelevanceSingle : null;
}
