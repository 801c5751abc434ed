import type { RowInput } from "./metricCatalog";

/**
 * Metric names of a run's custom G-Eval judges: `response/llm_judged/g_eval/<name>`,
 * score metrics on [0, 1], higher is better, success = score ≥ the definition's threshold.
 * Their definitions live in the run's config, not in the catalogue.
 */
export const G_EVAL_PREFIX = "response/llm_judged/g_eval/";

export function gEvalMetricName(definition: { name: string }): string {
  return `${G_EVAL_PREFIX}${definition.name}`;
}

export function isGEvalMetric(metric: string): boolean {
  return metric.startsWith(G_EVAL_PREFIX);
}

/** The metrics of the G-Eval judges that write their evaluation steps (a call), not those given the author's. */
export function gEvalStepWriters(
  definitions: readonly { name: string; evaluationSteps?: readonly string[] }[],
): Set<string> {
  return new Set(definitions.filter((d) => d.evaluationSteps === undefined).map(gEvalMetricName));
}

/** What a row must carry for each of DeepEval's evaluation parameters (input is always there). */
const PARAM_INPUTS: Record<string, RowInput | null> = {
  input: null,
  actual_output: "response",
  expected_output: "expected_response_or_facts",
  retrieval_context: "retrieved_context_content",
  context: "expected_context_content",
  // DeepEval's LLMTestCase metadata and tags: the MLflow trace's (info.trace_metadata, info.tags).
  metadata: "trace",
  tags: "trace",
  expected_tools: "expected_tool_calls",
  tools_called: "tool_calls",
};

/** The G-Eval judges that read the trace (its metadata or tags): their rows are loaded with it. */
export function gEvalTraceReaders(
  definitions: readonly { name: string; evaluationParams: readonly string[] }[],
): Set<string> {
  return new Set(
    definitions.filter((d) => d.evaluationParams.some((param) => PARAM_INPUTS[param] === "trace")).map(gEvalMetricName),
  );
}

export function gEvalRequirements(evaluationParams: readonly string[]): RowInput[] {
  return evaluationParams.map((param) => PARAM_INPUTS[param] ?? null).filter((input) => input !== null);
}
