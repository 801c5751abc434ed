import type { MetricOption } from "./runFormTypes";

const AGAINST_EXPECTED = new Set([
  "agent/ground_truth/tool_call_exact_match",
  "agent/ground_truth/tool_correctness",
  "agent/llm_judged/tool_call_correctness",
]);
const DEEPEVAL_TOOL_CORRECTNESS = "agent/ground_truth/tool_correctness";

/**
 * The tool-call metrics' settings, by the upstream names: should_consider_ordering (MLflow and DeepEval),
 * DeepEval's evaluation_params and should_exact_match. Shown when a metric that compares the calls with
 * expected_tool_calls is chosen; field names are read by lib/server/runForm/agentFormFields.ts.
 */
export function ToolCallSettingsFields({ metrics }: { metrics: MetricOption[] }) {
  if (!metrics.some((metric) => AGAINST_EXPECTED.has(metric.name))) return null;
  const deepEval = metrics.some((metric) => metric.name === DEEPEVAL_TOOL_CORRECTNESS);
  return (
    <fieldset data-testid="tool-call-settings" className="space-y-1">
      <legend className="text-sm font-semibold">Tool calls against expected_tool_calls</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="toolCalls:considerOrdering" />
        The tools must be called in the expected order (should_consider_ordering)
      </label>
      {deepEval && (
        <>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="toolCalls:inputParameters" />
            Tool correctness compares arguments too, with partial credit per key (evaluation_params: input_parameters)
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="toolCalls:output" />
            Tool correctness requires equal outputs (evaluation_params: output)
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="toolCalls:exactMatch" />
            Tool correctness is 1 only for exactly the expected calls, else 0 (should_exact_match)
          </label>
        </>
      )}
      <p className="text-xs text-slate-600">
        Defaults are the upstreams&apos;: any order, names only. MLflow&apos;s exact match compares arguments where
        every expected call gives them.
      </p>
    </fieldset>
  );
}
