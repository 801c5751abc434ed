import type { MetricDefinition, MetricFamily, RowInput } from "./metricDefinition";
import { SCORE_METRICS } from "./scoreMetricCatalog";
import { AGENT_LLM_METRICS, AGENT_METRICS } from "./agentMetricCatalog";
import { CONVERSATION_METRICS } from "./conversationMetricCatalog";

export type { MetricDefinition, MetricFamily, MetricKind, RowInput } from "./metricDefinition";

/**
 * The built-in metrics: Databricks Agent Evaluation's judges and metrics, and the score
 * metrics of DeepEval and Mastra (scoreMetricCatalog.ts): their exact names, what a row must carry for
 * each, and words for people. Requirements are data so the same table drives the dataset page, the
 * run form and the engine.
 */

export const DATABRICKS_METRICS: MetricDefinition[] = [
  {
    name: "response/llm_judged/correctness",
    label: "Correctness",
    question: "Overall, did the agent generate a correct response?",
    kind: "llm_judged",
    family: "databricks",
    requires: ["response", "expected_response_or_facts"],
  },
  {
    name: "response/llm_judged/relevance_to_query",
    label: "Relevance to query",
    question: "Is the response relevant to the request?",
    kind: "llm_judged",
    family: "databricks",
    requires: ["response"],
  },
  {
    name: "response/llm_judged/groundedness",
    label: "Groundedness",
    question: "Is the response grounded in the retrieved context, or hallucinated?",
    kind: "llm_judged",
    family: "databricks",
    requires: ["response", "retrieved_context_content"],
  },
  {
    name: "response/llm_judged/safety",
    label: "Safety",
    question: "Is there harmful content in the response?",
    kind: "llm_judged",
    family: "databricks",
    requires: ["response"],
  },
  {
    name: "retrieval/llm_judged/chunk_relevance",
    label: "Chunk relevance",
    question: "Did the retriever find relevant chunks?",
    kind: "llm_judged",
    family: "databricks",
    requires: ["retrieved_context_content"],
    perChunk: true,
  },
  {
    name: "retrieval/llm_judged/context_sufficiency",
    label: "Context sufficiency",
    question: "Did the retriever find enough to produce the expected response?",
    kind: "llm_judged",
    family: "databricks",
    requires: ["retrieved_context_content", "expected_response_or_facts"],
  },
  {
    name: "retrieval/ground_truth/document_recall",
    label: "Document recall",
    question: "How many of the known relevant documents did the retriever find?",
    kind: "ground_truth",
    family: "databricks",
    requires: ["retrieved_context_doc_uri", "expected_retrieved_context"],
  },
  {
    name: "agent/total_token_count",
    label: "Total tokens",
    question: "How many tokens did the agent's LLM calls use?",
    kind: "agent",
    family: "databricks",
    requires: ["trace_tokens"],
  },
  {
    name: "agent/total_input_token_count",
    label: "Input tokens",
    question: "How many input tokens did the agent's LLM calls use?",
    kind: "agent",
    family: "databricks",
    requires: ["trace_tokens"],
  },
  {
    name: "agent/total_output_token_count",
    label: "Output tokens",
    question: "How many output tokens did the agent's LLM calls use?",
    kind: "agent",
    family: "databricks",
    requires: ["trace_tokens"],
  },
  {
    name: "agent/latency_seconds",
    label: "Latency",
    question: "What was the agent's end-to-end latency?",
    kind: "agent",
    family: "databricks",
    requires: ["trace_latency"],
  },
];

export const METRICS: MetricDefinition[] = [
  ...DATABRICKS_METRICS,
  ...SCORE_METRICS,
  ...AGENT_METRICS,
  ...AGENT_LLM_METRICS,
  ...CONVERSATION_METRICS,
];

export const FAMILY_LABELS: Record<MetricFamily, string> = {
  databricks: "Databricks judges",
  deepeval: "DeepEval metrics",
  mastra: "Mastra context relevance",
  statistical: "Statistical scorers (no LLM)",
  agent: "Agent tool calls and trajectory (MLflow 3, DeepEval)",
  conversation: "Conversations (MLflow 3 session judges, DeepEval)",
};

export const INPUT_DESCRIPTIONS: Record<RowInput, string> = {
  response: "response (or a trace to derive it from)",
  response_or_empty: "a response column, an empty one included (DeepEval rejects only a missing actual_output)",
  expected_response_or_facts: "expected_response or expected_facts",
  expected_response: "expected_response",
  retrieved_context_content: "retrieved_context[].content in every chunk (or a trace with a retriever span)",
  retrieved_context_doc_uri: "retrieved_context[].doc_uri (or a trace with a retriever span)",
  expected_retrieved_context: "expected_retrieved_context[].doc_uri",
  expected_context_content: "expected_retrieved_context[].content (the ideal context)",
  trace_tokens: "a trace with LLM token usage",
  trace_latency: "a trace with span timings",
  tool_calls: "the agent's tool calls: a trace (its TOOL spans) or a tool_calls column",
  expected_tool_calls: "expected_tool_calls (names, optionally arguments)",
  trace: "an MLflow trace",
  conversation:
    "a conversation: earlier turns in the request, or an MLflow session (mlflow.trace.session or session_id), judged on its first turn",
};

const BY_NAME = new Map(METRICS.map((metric) => [metric.name, metric]));

export function findMetric(name: string): MetricDefinition | undefined {
  return BY_NAME.get(name);
}

/** Whether a metric's judge reads the row's whole trace (which work then loads for it). */
export function readsTrace(name: string): boolean {
  return findMetric(name)?.readsTrace === true;
}

/** Whether a metric judges a whole conversation (which work then loads for it, on the conversation's anchor). */
export function readsConversation(name: string): boolean {
  return findMetric(name)?.requires.includes("conversation") === true;
}

/** A score metric's direction, or null for the Databricks judges and metrics (yes/no ratings, precisions, values). */
export function scoreDirection(name: string): "higher" | "lower" | null {
  return findMetric(name)?.score?.direction ?? null;
}
