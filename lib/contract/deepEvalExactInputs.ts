import { isGEvalMetric } from "./gEvalMetric";
import { findMetric } from "./metricCatalog";
import type { RowInput } from "./metricDefinition";

/** Assay's statistical metrics that are DeepEval's scorer's (`Scorer.sentence_bleu_score`, `Scorer.rouge_score`). */
const DEEPEVAL_SCORER_METRICS: ReadonlySet<string> = new Set([
  "response/statistical/bleu",
  "response/statistical/rouge",
]);

/**
 * Whether a DeepEval-exact run judges an empty response ("") with this metric. DeepEval rejects only a
 * missing actual_output (`check_llm_test_case_params` tests `is None`), so its metrics take "" as a response:
 * its scorer gives BLEU and ROUGE 0, and its LLM metrics and G-Eval judge an empty output. The other
 * metrics (Agent Evaluation's, Mastra's, METEOR, edit distance) skip such a row in every mode.
 */
export function judgesEmptyResponse(metric: string): boolean {
  if (isGEvalMetric(metric) || DEEPEVAL_SCORER_METRICS.has(metric)) return true;
  const definition = findMetric(metric);
  return definition?.family === "deepeval" || definition?.upstream === "deepeval";
}

/** A judge's row requirements in a run: under DeepEval-exact, DeepEval's metrics take an empty response too. */
export function runRequirements(metric: string, requires: readonly RowInput[], deepEvalExact: boolean): RowInput[] {
  if (!deepEvalExact || !judgesEmptyResponse(metric)) return [...requires];
  return requires.map((input) => (input === "response" ? "response_or_empty" : input));
}
