import { z } from "zod";

/**
 * A run's settings of the tool-call metrics against expected_tool_calls, named after the upstream arguments:
 *
 * - `considerOrdering` (`should_consider_ordering`, MLflow's ToolCallCorrectness and DeepEval's
 *   ToolCorrectnessMetric alike, default false): the calls must come in the expected order. MLflow's exact
 *   mode then compares position by position; DeepEval scores the longest common subsequence.
 * - `evaluationParams` (DeepEval's `evaluation_params`, default none: names only): `input_parameters`
 *   compares the arguments (partial credit per matching key), `output` requires equal outputs.
 * - `exactMatch` (DeepEval's `should_exact_match`, default false): 1 only when the calls equal the expected
 *   ones position by position, else 0. MLflow's exact-mode metric is always exact; this is DeepEval's.
 */
export const TOOL_CALL_PARAMS = ["input_parameters", "output"] as const;
export type ToolCallParam = (typeof TOOL_CALL_PARAMS)[number];

export const toolCallSettingsSchema = z
  .object({
    considerOrdering: z.boolean().optional().meta({
      description: "should_consider_ordering (MLflow and DeepEval): the tools must be called in the expected order",
    }),
    evaluationParams: z
      .array(z.enum(TOOL_CALL_PARAMS))
      .max(2)
      .optional()
      .meta({ description: "DeepEval's evaluation_params: input_parameters and/or output (default: names only)" }),
    exactMatch: z
      .boolean()
      .optional()
      .meta({ description: "DeepEval's should_exact_match: 1 only for exactly the expected calls, else 0" }),
  })
  .strict();
export type ToolCallSettingsInput = z.infer<typeof toolCallSettingsSchema>;
export type ToolCallSettings = { considerOrdering: boolean; evaluationParams: ToolCallParam[]; exactMatch: boolean };

export function toolCallSettings(input?: ToolCallSettingsInput | null): ToolCallSettings {
  return {
    considerOrdering: input?.considerOrdering ?? false,
    evaluationParams: [...new Set(input?.evaluationParams ?? [])],
    exactMatch: input?.exactMatch ?? false,
  };
}

/** Only the settings that differ from the defaults: what a run stores. */
export function changedToolCallSettings(input?: ToolCallSettingsInput | null): ToolCallSettingsInput {
  const settings = toolCallSettings(input);
  return {
    ...(settings.considerOrdering ? { considerOrdering: true } : {}),
    ...(settings.evaluationParams.length > 0 ? { evaluationParams: settings.evaluationParams } : {}),
    ...(settings.exactMatch ? { exactMatch: true } : {}),
  };
}
