import type { RowInput } from "./metricDefinition";

/** The stored flags of a dataset row that decide which metrics it allows. */
export type RowFlags = {
  hasResponse: boolean;
  /** The response column was there and empty (""). Absent means no. */
  hasEmptyResponse?: boolean;
  hasExpectedResponse: boolean;
  hasExpectedFacts: boolean;
  hasRetrievedContext: boolean;
  hasRetrievedContent: boolean;
  hasExpectedRetrievedContext: boolean;
  totalTokenCount: number | null;
  latencySeconds: number | null;
  /**
   * 0-based position of the first retrieved chunk without content (empty or
   * whitespace only, e.g. a trace chunk with only a doc_uri), null when every
   * chunk has content. Absent means unknown: treated as none.
   */
  firstEmptyRetrievedChunk?: number | null;
  /**
   * Whether some expected_retrieved_context chunk has content (DeepEval's `context`, the ideal
   * context). Absent means unknown: taken from hasExpectedRetrievedContext.
   */
  hasExpectedContextContent?: boolean;
  /** The agent's tool calls are known (a tool_calls column or a trace; [] counts). Absent means none. */
  hasToolCalls?: boolean;
  hasExpectedToolCalls?: boolean;
  /** The row carries an MLflow trace. Absent means none. */
  hasTrace?: boolean;
  /** The row is where its conversation is judged: a session's first turn, or a row with earlier turns and no session. */
  conversationAnchor?: boolean;
  /** The row is a turn of a session (anchor or not). */
  inSession?: boolean;
};

/**
 * Whether a chunk's content can be judged. The characters JavaScript's trim()
 * removes are listed in WHITESPACE for SQL, so the planner's query and the
 * engine agree on what "no content" means.
 */
export function chunkHasContent(content: string | null): boolean {
  return content !== null && content.trim() !== "";
}

/** Every character String.prototype.trim() removes (ECMAScript WhiteSpace and LineTerminator); for SQL TRIM(x, ?). */
export const WHITESPACE =
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

export function rowHasInput(row: RowFlags, input: RowInput, generatesResponses: boolean): boolean {
  switch (input) {
    case "response":
      return generatesResponses || row.hasResponse;
    case "response_or_empty":
      return generatesResponses || row.hasResponse || (row.hasEmptyResponse ?? false);
    case "expected_response_or_facts":
      return row.hasExpectedResponse || row.hasExpectedFacts;
    case "expected_response":
      return row.hasExpectedResponse;
    // Every chunk, not some: a judge shown part of the context would rate chunks it cannot read "no",
    // or call a response ungrounded or the context insufficient for want of the missing text.
    case "retrieved_context_content":
      return row.hasRetrievedContent && (row.firstEmptyRetrievedChunk ?? null) === null;
    case "retrieved_context_doc_uri":
      return row.hasRetrievedContext;
    case "expected_retrieved_context":
      return row.hasExpectedRetrievedContext;
    case "expected_context_content":
      return row.hasExpectedContextContent ?? row.hasExpectedRetrievedContext;
    case "trace_tokens":
      return generatesResponses || row.totalTokenCount !== null;
    case "trace_latency":
      return generatesResponses || row.latencySeconds !== null;
    // A generated response made no tool calls: the uploaded ones belong to another response.
    case "tool_calls":
      return !generatesResponses && (row.hasToolCalls ?? false);
    case "expected_tool_calls":
      return row.hasExpectedToolCalls ?? false;
    // The uploaded trace is another response's when the run generates its own.
    case "trace":
      return !generatesResponses && (row.hasTrace ?? false);
    // Its turns' responses are the uploaded ones; a run that generates has one new response, not a conversation.
    case "conversation":
      return !generatesResponses && (row.conversationAnchor ?? false);
  }
}
