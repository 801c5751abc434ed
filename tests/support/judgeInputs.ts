import type { JudgeInput } from "@/lib/judges/types";

/** Metric names the judge unit tests address. */
export const CORRECTNESS = "response/llm_judged/correctness";
export const RELEVANCE = "response/llm_judged/relevance_to_query";
export const GROUNDEDNESS = "response/llm_judged/groundedness";
export const SAFETY = "response/llm_judged/safety";
export const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";
export const SUFFICIENCY = "retrieval/llm_judged/context_sufficiency";

/** A judge input for a single-turn request, with the retrieved chunks given as their contents (doc-1, doc-2, …). */
export function row(
  request: string,
  fields: Partial<Omit<JudgeInput, "retrievedContext">> & { chunks?: (string | null)[] } = {},
): JudgeInput {
  const { chunks = [], ...rest } = fields;
  return {
    messages: [{ role: "user", content: request }],
    request,
    response: null,
    expectedResponse: null,
    expectedFacts: null,
    ...rest,
    retrievedContext: chunks.map((content, i) => ({ content, docUri: `doc-${i + 1}` })),
  };
}
