import { GEVAL_SCALE_BOUNDS, type EvaluationParam, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";

/*
 * A G-Eval judge's scale as its prompts and its scoring use it (the definition, and each scale's bounds, are
 * lib/contract/gEvalDefinition.ts): the scores the model may give, the words the prompts name the parameters
 * with, and a score onto [0, 1].
 */

/** The scores the model may give: the scale's, or with a rubric its span (first range's start to last range's end). */
export function scoreRange(definition: Pick<GEvalDefinition, "scale" | "rubric">): { min: number; max: number } {
  const rubric = definition.rubric;
  if (rubric && rubric.length > 0)
    return {
      min: Math.min(...rubric.map((entry) => entry.scoreRange[0])),
      max: Math.max(...rubric.map((entry) => entry.scoreRange[1])),
    };
  return GEVAL_SCALE_BOUNDS[definition.scale];
}

/** What each parameter is called in the prompts. */
export const PARAM_LABELS: Record<EvaluationParam, string> = {
  input: "Input",
  actual_output: "Actual Output",
  expected_output: "Expected Output",
  retrieval_context: "Retrieval Context",
  context: "Context",
  metadata: "Metadata",
  tags: "Tags",
  expected_tools: "Expected Tools",
  tools_called: "Tools Called",
};

/** A raw or probability-weighted score on [0, 1] over its range (DeepEval: (score − low) / span); a one-point range is 1 when met. */
export function normaliseScore(score: number, range: { min: number; max: number }): number {
  if (range.max === range.min) return score >= range.max ? 1 : 0;
  return Math.min(1, Math.max(0, (score - range.min) / (range.max - range.min)));
}
