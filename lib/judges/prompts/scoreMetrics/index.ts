import type { AnyTemplate } from "../promptTemplate";
import { answerRelevancy } from "./answerRelevancy";
import { contextualPrecision, contextualRecall, contextualRelevancy } from "./contextual";
import { faithfulness } from "./faithfulness";
import { hallucination } from "./hallucination";
import { summarization } from "./summarization";
import { bias, toxicity } from "./toxicityBias";
import { contextRelevance } from "./contextRelevance";

/**
 * The LLM-judged score metrics of DeepEval's family and
 * Mastra's context relevance, by full metric name, e.g.
 * "response/llm_judged/faithfulness". Each template's toVerdict returns a
 * score in [0, 1] (rating null), the reason as the rationale, and the
 * intermediate verdicts as `details`.
 */
export const SCORE_METRIC_TEMPLATES: Partial<Record<string, AnyTemplate>> = {
  "response/llm_judged/faithfulness": faithfulness,
  "response/llm_judged/answer_relevancy": answerRelevancy,
  "retrieval/llm_judged/contextual_precision": contextualPrecision,
  "retrieval/llm_judged/contextual_recall": contextualRecall,
  "retrieval/llm_judged/contextual_relevancy": contextualRelevancy,
  "response/llm_judged/hallucination": hallucination,
  "response/llm_judged/toxicity": toxicity,
  "response/llm_judged/bias": bias,
  "response/llm_judged/summarization": summarization,
  "retrieval/llm_judged/context_relevance": contextRelevance,
};
