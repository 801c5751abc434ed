import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";

/**
 * The LLM calls one row of a DeepEval metric makes with DeepEval's own call structure
 * (lib/judges/deepEvalCalls), at most: a step with nothing to judge (no claims, no opinions) is
 * skipped. The reason is one call more when the run asks for it (include_reason). Per chunk for
 * contextual relevancy, which judges each retrieved chunk in its own call.
 *
 *   faithfulness          truths, claims, verdicts (+ reason)                      3 (4)
 *   answer_relevancy      statements, verdicts (+ reason)                          2 (3)
 *   contextual_precision  verdicts (+ reason)                                      1 (2)
 *   contextual_recall     verdicts (+ reason)                                      1 (2)
 *   contextual_relevancy  one per chunk (+ reason)                                 n (n + 1)
 *   hallucination         verdicts (+ reason)                                      1 (2)
 *   toxicity, bias        opinions, verdicts (+ reason)                            2 (3)
 *   summarization         truths, claims, questions (unless given), alignment,
 *                         answers from the source, from the summary (+ reason)    6 (7); 5 (6) with questions given
 */
const PER_ROW: Record<string, number> = {
  "response/llm_judged/faithfulness": 3,
  "response/llm_judged/answer_relevancy": 2,
  "retrieval/llm_judged/contextual_precision": 1,
  "retrieval/llm_judged/contextual_recall": 1,
  "retrieval/llm_judged/contextual_relevancy": 0,
  "response/llm_judged/hallucination": 1,
  "response/llm_judged/toxicity": 2,
  "response/llm_judged/bias": 2,
  "response/llm_judged/summarization": 6,
};

export type DeepEvalCallShape = { callsPerRow: number; callsPerChunk: number; callsPerExchange?: number };

/**
 * DeepEval's agent metrics, always judged with DeepEval's calls (lib/judges/agentCalls): argument correctness
 * makes its verdicts call plus the reason (none at all on a row without tool calls: counted here as the most),
 * task completion and step efficiency two calls each, their reason inside the last.
 */
const AGENT_PER_ROW: Record<string, { calls: number; reason: boolean; perExchange?: number }> = {
  "agent/llm_judged/argument_correctness": { calls: 1, reason: true },
  "agent/llm_judged/task_completion": { calls: 2, reason: false },
  "agent/llm_judged/step_efficiency": { calls: 2, reason: false },
  // Conversations (lib/judges/conversationCalls): the intentions, then a verdict per intention (counted as one
  // per exchange: how many the model finds is known only after), then the reason.
  "conversation/deepeval/conversation_completeness": { calls: 1, reason: true, perExchange: 1 },
  // A verdict per unit interaction (an exchange), then the reason.
  "conversation/deepeval/turn_relevancy": { calls: 0, reason: true, perExchange: 1 },
  // The knowledge of each user turn, a verdict per assistant turn after knowledge was given (at most one per
  // exchange), then the reason.
  "conversation/deepeval/knowledge_retention": { calls: 0, reason: true, perExchange: 2 },
};

/** Null when the run uses the folded structure, or the metric is not one of DeepEval's. */
export function deepEvalCallShape(metric: string, settings: DeepEvalSettings | undefined): DeepEvalCallShape | null {
  const agent = AGENT_PER_ROW[metric];
  if (agent) {
    const reason = agent.reason && (settings?.includeReason ?? true) ? 1 : 0;
    return { callsPerRow: agent.calls + reason, callsPerChunk: 0, callsPerExchange: agent.perExchange ?? 0 };
  }
  if (settings?.callStructure !== "deepeval" || !(metric in PER_ROW)) return null;
  const reason = settings.includeReason ? 1 : 0;
  const givenQuestions = metric === "response/llm_judged/summarization" && settings.assessmentQuestions ? 1 : 0;
  return {
    callsPerRow: PER_ROW[metric] + reason - givenQuestions,
    callsPerChunk: metric === "retrieval/llm_judged/contextual_relevancy" ? 1 : 0,
  };
}
