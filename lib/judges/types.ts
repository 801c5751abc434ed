import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { ChatMessage, ContextItem } from "@/lib/contract/normalizedRow";

/**
 * What a judge sees of a row. The one result type every judge returns is in lib/contract/judgeResult.ts,
 * below the store that writes it.
 */
export type JudgeInput = {
  messages: ChatMessage[];
  /** The last user turn. */
  request: string;
  response: string | null;
  expectedResponse: string | null;
  expectedFacts: string[] | null;
  retrievedContext: ContextItem[];
  /**
   * The ideal context (DeepEval's `context`): the contents of the row's
   * expected_retrieved_context, in order; absent or empty when it has none.
   */
  expectedContext?: string[];
};

export function errorVerdict(message: string, chunkCount = 0): JudgeVerdict {
  return {
    rating: null,
    score: null,
    rationale: null,
    errorMessage: message,
    ...(chunkCount > 0
      ? {
          chunks: Array.from({ length: chunkCount }, (_, position) => ({
            position,
            rating: null,
            rationale: null,
            errorMessage: message,
          })),
        }
      : {}),
  };
}
