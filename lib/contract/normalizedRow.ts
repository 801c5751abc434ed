import type { LabelEntry } from "./labelEntry";
import type { AvailableTool, ExpectedToolCall, ToolCall } from "./toolCalls";

/** The Databricks Agent Evaluation input schema, after validation and normalisation. */
export type ChatMessage = { role: string; content: string };

export type ContextItem = { content: string | null; docUri: string };

export type RequestFormat = "string" | "messages" | "query_history";

export type TokenCounts = { total: number; input: number; output: number };

export type NormalizedRow = {
  rowNumber: number;
  requestId: string;
  /** The request exactly as uploaded (a string or an object). */
  requestRaw: unknown;
  requestFormat: RequestFormat;
  messages: ChatMessage[];
  /** The last user turn: what tables show and search. */
  requestText: string;
  response: string | null;
  responseSource: "column" | "trace" | null;
  /**
   * The response column was there and empty ("" in JSON; a CSV's empty cell reads as absent). response stays
   * null (Assay's judges skip the row); DeepEval-exact judges it as an empty actual_output.
   */
  emptyResponse?: true;
  expectedResponse: string | null;
  expectedFacts: string[] | null;
  retrievedContext: ContextItem[] | null;
  retrievedContextSource: "column" | "trace" | null;
  expectedRetrievedContext: ContextItem[] | null;
  trace: unknown | null;
  tokens: TokenCounts | null;
  latencySeconds: number | null;
  /** Labels that arrived with the data (the optional human_labels column). */
  humanLabels: LabelEntry[];
  /** The agent's tool calls: the tool_calls column, else the trace's TOOL spans ([] for a trace with none); null without either. */
  toolCalls: ToolCall[] | null;
  toolCallsSource: "column" | "trace" | null;
  /** expected_tool_calls; an empty list reads as none (MLflow's rule). */
  expectedToolCalls: ExpectedToolCall[] | null;
  /** The tools the trace's model spans were offered. */
  availableTools: AvailableTool[];
  /**
   * The conversation the row is a turn of: the session_id column, else the trace's `mlflow.trace.session`
   * metadata (MLflow's session key); null when it is not part of one. `sessionTime` orders the turns.
   */
  sessionId: string | null;
  sessionTime: number | null;
};

/** Column names exactly as the Agent Evaluation input schema spells them. */
export const AGENT_EVALUATION_COLUMNS = [
  "request_id",
  "request",
  "response",
  "expected_facts",
  "expected_response",
  "expected_retrieved_context",
  "retrieved_context",
  "trace",
] as const;
/**
 * Every column an upload may carry: the Agent Evaluation schema plus Assay's optional columns: human_labels,
 * an agent's tool_calls (for rows without a trace), expected_tool_calls (MLflow's expectation of that name) and
 * session_id (the conversation a row is a turn of, for rows without an MLflow trace that says so).
 */
export const ASSAY_COLUMNS = ["human_labels", "tool_calls", "expected_tool_calls", "session_id"] as const;
export const INPUT_COLUMNS = [...AGENT_EVALUATION_COLUMNS, ...ASSAY_COLUMNS] as const;
export type InputColumn = (typeof INPUT_COLUMNS)[number];
