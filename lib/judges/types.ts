import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { ChatMessage, ContextItem } from "@/lib/contract/normalizedRow";
import type { AvailableTool, ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";

/** What an agent's judges see besides the text: its tool calls, the calls expected, the tools offered, its trace. */
export type AgentInput = {
  toolCalls: ToolCall[] | null;
  expectedToolCalls: ExpectedToolCall[] | null;
  availableTools: AvailableTool[];
  /** The trace in DeepEval's nested span shape (lib/traces/deepEvalTraceDict.ts); null without one, or not loaded. */
  traceTree: unknown;
  /** The trace's metadata and tags (MLflow's info.trace_metadata and info.tags); absent without one, or not loaded. */
  traceInfo?: { metadata: Record<string, unknown>; tags: Record<string, unknown> };
};

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
  /** Set for rows an agent judge reads (tool calls, trace). */
  agent?: AgentInput;
  /**
   * The conversation a conversation judge reads, turn by turn (on its anchor row): a session's turns in
   * order, or the request's turns and its response. Roles as given (user, assistant, system, …).
   */
  conversation?: { role: string; content: string }[];
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
