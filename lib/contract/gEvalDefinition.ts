import { z } from "zod";
import { alignmentSchema } from "./alignment";

/**
 * A custom G-Eval judge: a name, criteria in words (or evaluation steps written by its author), the
 * test-case fields the judge reads (DeepEval's `evaluation_params`), the scale it scores on, an optional
 * rubric and a pass mark.
 */
export const EVALUATION_PARAMS = [
  "input",
  "actual_output",
  "expected_output",
  "retrieval_context",
  "context",
  // DeepEval's SingleTurnParams besides: the trace's metadata and tags, the tools expected and those called.
  "metadata",
  "tags",
  "expected_tools",
  "tools_called",
] as const;
export type EvaluationParam = (typeof EVALUATION_PARAMS)[number];

/**
 * The form-filling scale: 1–5 as the G-Eval paper (and Assay before DeepEval's change), or 0–10 as
 * DeepEval's GEval scores. A rubric narrows it to the rubric's own span, as DeepEval does.
 */
export const GEVAL_SCALES = ["1-5", "0-10"] as const;
export type GEvalScale = (typeof GEVAL_SCALES)[number];
export const DEFAULT_GEVAL_SCALE: GEvalScale = "1-5";
/** The scores each scale allows. */
export const GEVAL_SCALE_BOUNDS: Record<GEvalScale, { min: number; max: number }> = {
  "1-5": { min: 1, max: 5 },
  "0-10": { min: 0, max: 10 },
};

/** DeepEval's `Rubric`: a score range and the outcome expected of an answer in it. */
export const rubricEntrySchema = z.strictObject({
  scoreRange: z.tuple([z.number().int(), z.number().int()]),
  expectedOutcome: z.string().trim().min(1).max(500),
});
export type RubricEntry = z.infer<typeof rubricEntrySchema>;

export const MAX_AUTHOR_STEPS = 12;

export const gEvalDefinitionSchema = z
  .strictObject({
    /** e.g. "coherence"; letters, digits and underscores so it fits a metric name. */
    name: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z0-9_]*$/, "use lower-case letters, digits and underscores, starting with a letter"),
    /** What to judge, in words; the evaluation steps are generated from it. Optional when the steps are written. */
    criteria: z.string().trim().min(1).max(2000).optional(),
    /** Evaluation steps written by the judge's author (DeepEval's `evaluation_steps`): no steps call is made then. */
    evaluationSteps: z.array(z.string().trim().min(1).max(500)).min(1).max(MAX_AUTHOR_STEPS).optional(),
    evaluationParams: z
      .array(z.enum(EVALUATION_PARAMS))
      .min(1)
      .refine((params) => new Set(params).size === params.length, { message: "list each parameter once" }),
    scale: z.enum(GEVAL_SCALES).default(DEFAULT_GEVAL_SCALE),
    rubric: z.array(rubricEntrySchema).min(1).max(11).optional(),
    /** On the normalised score in [0, 1]. */
    threshold: z.number().min(0).max(1).default(0.5),
    /** An adopted alignment (lib/alignment): labelled examples, and guidance, added to the score prompt. */
    alignment: alignmentSchema.optional(),
  })
  .superRefine((definition, ctx) => {
    if (definition.criteria === undefined && definition.evaluationSteps === undefined)
      ctx.addIssue({ code: "custom", path: ["criteria"], message: "give the criteria, the evaluation steps, or both" });
    const problem = definition.rubric ? rubricProblem(definition.rubric, definition.scale) : null;
    if (problem) ctx.addIssue({ code: "custom", path: ["rubric"], message: problem });
  });
export type GEvalDefinition = z.output<typeof gEvalDefinitionSchema>;
export type GEvalDefinitionInput = z.input<typeof gEvalDefinitionSchema>;

/** The rubric in score order, as the prompt and the details show it (an author may list it in any order). */
export function sortRubric(rubric: RubricEntry[]): RubricEntry[] {
  return [...rubric].sort((a, b) => a.scoreRange[0] - b.scoreRange[0]);
}

/** Why a rubric cannot be used on a scale (ranges outside it, reversed or overlapping), or null. */
export function rubricProblem(rubric: RubricEntry[], scale: GEvalScale): string | null {
  const { min, max } = GEVAL_SCALE_BOUNDS[scale];
  for (const {
    scoreRange: [start, end],
  } of rubric) {
    if (start < min || end > max) return `score range ${start}-${end} is outside the ${scale} scale`;
    if (start > end) return `score range ${start}-${end} starts after it ends`;
  }
  const sorted = sortRubric(rubric);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i].scoreRange[0] <= sorted[i - 1].scoreRange[1])
      return `score ranges ${rangeText(sorted[i - 1])} and ${rangeText(sorted[i])} overlap`;
  return null;
}

export function rangeText({ scoreRange: [start, end] }: RubricEntry): string {
  return start === end ? String(start) : `${start}-${end}`;
}
