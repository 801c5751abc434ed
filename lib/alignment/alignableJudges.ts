/**
 * The built-in judges an alignment can teach: Databricks Agent Evaluation's yes/no judges, each judged by a
 * prompt of its own that labelled examples can be added to. Their aligned versions are custom judges based on
 * them (`basedOn`): a per-chunk judge's is a RETRIEVAL judge, a per-row judge's an ANSWER judge. The score
 * judges (DeepEval's, Mastra's) are not here: their scores come from verdict lists, which examples of a
 * yes/no label do not calibrate.
 */
export const ALIGNABLE_BUILT_IN_JUDGES: Readonly<Record<string, "ANSWER" | "RETRIEVAL">> = {
  "response/llm_judged/correctness": "ANSWER",
  "response/llm_judged/relevance_to_query": "ANSWER",
  "response/llm_judged/groundedness": "ANSWER",
  "response/llm_judged/safety": "ANSWER",
  "retrieval/llm_judged/chunk_relevance": "RETRIEVAL",
  "retrieval/llm_judged/context_sufficiency": "ANSWER",
};

export function isAlignableBuiltIn(metric: string): boolean {
  return Object.hasOwn(ALIGNABLE_BUILT_IN_JUDGES, metric);
}
