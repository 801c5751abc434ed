/** What a built-in metric is, as the catalogues (metricCatalog.ts, scoreMetricCatalog.ts) describe each one. */
export type RowInput =
  | "response"
  | "response_or_empty"
  | "expected_response_or_facts"
  | "expected_response"
  | "retrieved_context_content"
  | "retrieved_context_doc_uri"
  | "expected_retrieved_context"
  | "expected_context_content"
  | "trace_tokens"
  | "trace_latency"
  | "tool_calls"
  | "expected_tool_calls"
  | "trace"
  | "conversation";

export type MetricKind = "llm_judged" | "ground_truth" | "agent" | "statistical";

/** Where a metric comes from: the contract that defines it (Agent Evaluation, DeepEval, Mastra), and the group the run form shows it in. */
export type MetricFamily = "databricks" | "deepeval" | "mastra" | "statistical" | "agent" | "conversation";

export type MetricDefinition = {
  name: string;
  label: string;
  question: string;
  kind: MetricKind;
  family: MetricFamily;
  requires: RowInput[];
  /** The judge reads the row's whole MLflow trace (loaded for it alone: traces can be large). */
  readsTrace?: true;
  /** A yes/no answer though not an LLM judge's (aggregated as the percentage of yes). */
  yesNo?: true;
  /** For a family that gathers several upstreams' metrics (agent): whose definition this one follows (DeepEval's have strict_mode). */
  upstream?: "deepeval" | "mlflow";
  /** Judged once per retrieved chunk (per-chunk ratings plus a precision). */
  perChunk?: boolean;
  /**
   * Set on the score metrics of DeepEval and Mastra: every result carries score, threshold, success, reason,
   * error_message. "lower" means lower is better (hallucination, toxicity, bias): success is score ≤ threshold.
   */
  score?: { direction: "higher" | "lower"; defaultThreshold: number };
  /** LLM calls per judged row at most (0 for deterministic and statistical metrics); the bench and the run form's estimate read it. */
  callsPerRow?: number;
  /** A conversation judge's calls per exchange (a user turn and its answer), on top of `callsPerRow`. */
  callsPerExchange?: number;
};
