import type { AnyTemplate } from "../templateForMetric";
import { contextRelevance } from "./contextRelevance";

/**
 * The LLM-judged score metrics of seeds 002 (DeepEval's family) and 003
 * (Mastra's context relevance), by full metric name, e.g.
 * "response/llm_judged/faithfulness". Each template's toVerdict returns a
 * score in [0, 1] (rating null), the reason as the rationale, and the
 * intermediate verdicts as `details`.
 */
export const SCORE_METRIC_TEMPLATES: Partial<Record<string, AnyTemplate>> = {
  "retrieval/llm_judged/context_relevance": contextRelevance,
};
