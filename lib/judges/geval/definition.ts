import { z } from "zod";

/**
 * A custom G-Eval judge: a name, criteria in words, the test-case
 * fields the judge reads (DeepEval's `evaluation_params`) and a pass mark.
 */
export const EVALUATION_PARAMS = ["input", "actual_output", "expected_output", "retrieval_context", "context"] as const;
export type EvaluationParam = (typeof EVALUATION_PARAMS)[number];

export const gEvalDefinitionSchema = z.strictObject({
  /** e.g. "coherence"; letters, digits and underscores so it fits a metric name. */
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z][a-z0-9_]*$/, "use lower-case letters, digits and underscores, starting with a letter"),
  criteria: z.string().trim().min(1).max(2000),
  evaluationParams: z
    .array(z.enum(EVALUATION_PARAMS))
    .min(1)
    .refine((params) => new Set(params).size === params.length, { message: "list each parameter once" }),
  /** On the normalised score in [0, 1]. */
  threshold: z.number().min(0).max(1).default(0.5),
});
export type GEvalDefinition = z.infer<typeof gEvalDefinitionSchema>;

/** What each parameter is called in the prompts. */
export const PARAM_LABELS: Record<EvaluationParam, string> = {
  input: "Input",
  actual_output: "Actual Output",
  expected_output: "Expected Output",
  retrieval_context: "Retrieval Context",
  context: "Context",
};

/** The G-Eval scale: form-filling scores from 1 (worst) to 5 (best). */
export const SCORE_MIN = 1;
export const SCORE_MAX = 5;

/** A 1–5 score (raw or probability-weighted) on [0, 1]: 1 → 0, 5 → 1. */
export function normaliseScore(score: number): number {
  return (score - SCORE_MIN) / (SCORE_MAX - SCORE_MIN);
}
