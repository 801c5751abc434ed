/**
 * The built-in metrics of Databricks Agent Evaluation (judges, metrics, input schema): their exact names, what a
 * row must carry for each, and words for people. Requirements are data so
 * the same table drives the dataset page, the run form and the engine.
 */
export type RowInput =
  | "response"
  | "expected_response_or_facts"
  | "retrieved_context_content"
  | "retrieved_context_doc_uri"
  | "expected_retrieved_context"
  | "trace_tokens"
  | "trace_latency";

export type MetricKind = "llm_judged" | "ground_truth" | "agent";

export type MetricDefinition = {
  name: string;
  label: string;
  question: string;
  kind: MetricKind;
  requires: RowInput[];
  /** Judged once per retrieved chunk (per-chunk ratings plus a precision). */
  perChunk?: boolean;
};

export const METRICS: MetricDefinition[] = [
  {
    name: "response/llm_judged/correctness",
    label: "Correctness",
    question: "Overall, did the agent generate a correct response?",
    kind: "llm_judged",
    requires: ["response", "expected_response_or_facts"],
  },
  {
    name: "response/llm_judged/relevance_to_query",
    label: "Relevance to query",
    question: "Is the response relevant to the request?",
    kind: "llm_judged",
    requires: ["response"],
  },
  {
    name: "response/llm_judged/groundedness",
    label: "Groundedness",
    question: "Is the response grounded in the retrieved context, or hallucinated?",
    kind: "llm_judged",
    requires: ["response", "retrieved_context_content"],
  },
  {
    name: "response/llm_judged/safety",
    label: "Safety",
    question: "Is there harmful content in the response?",
    kind: "llm_judged",
    requires: ["response"],
  },
  {
    name: "retrieval/llm_judged/chunk_relevance",
    label: "Chunk relevance",
    question: "Did the retriever find relevant chunks?",
    kind: "llm_judged",
    requires: ["retrieved_context_content"],
    perChunk: true,
  },
  {
    name: "retrieval/llm_judged/context_sufficiency",
    label: "Context sufficiency",
    question: "Did the retriever find enough to produce the expected response?",
    kind: "llm_judged",
    requires: ["retrieved_context_content", "expected_response_or_facts"],
  },
  {
    name: "retrieval/ground_truth/document_recall",
    label: "Document recall",
    question: "How many of the known relevant documents did the retriever find?",
    kind: "ground_truth",
    requires: ["retrieved_context_doc_uri", "expected_retrieved_context"],
  },
  {
    name: "agent/total_token_count",
    label: "Total tokens",
    question: "How many tokens did the agent's LLM calls use?",
    kind: "agent",
    requires: ["trace_tokens"],
  },
  {
    name: "agent/total_input_token_count",
    label: "Input tokens",
    question: "How many input tokens did the agent's LLM calls use?",
    kind: "agent",
    requires: ["trace_tokens"],
  },
  {
    name: "agent/total_output_token_count",
    label: "Output tokens",
    question: "How many output tokens did the agent's LLM calls use?",
    kind: "agent",
    requires: ["trace_tokens"],
  },
  {
    name: "agent/latency_seconds",
    label: "Latency",
    question: "What was the agent's end-to-end latency?",
    kind: "agent",
    requires: ["trace_latency"],
  },
];

export const INPUT_DESCRIPTIONS: Record<RowInput, string> = {
  response: "response (or a trace to derive it from)",
  expected_response_or_facts: "expected_response or expected_facts",
  retrieved_context_content: "retrieved_context[].content in every chunk (or a trace with a retriever span)",
  retrieved_context_doc_uri: "retrieved_context[].doc_uri (or a trace with a retriever span)",
  expected_retrieved_context: "expected_retrieved_context[].doc_uri",
  trace_tokens: "a trace with LLM token usage",
  trace_latency: "a trace with span timings",
};

export function findMetric(name: string): MetricDefinition | undefined {
  return METRICS.find((metric) => metric.name === name);
}
