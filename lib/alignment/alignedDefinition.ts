import { z } from "zod";
import { type AlignedDefinition, customMetricName, type CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import { customJudgeSchema } from "@/lib/engine/runConfig";
import { gEvalDefinitionSchema, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import type { Alignment } from "@/lib/contract/alignment";
import { gEvalMetricName } from "@/lib/contract/gEvalMetric";
import { ALIGNABLE_BUILT_IN_JUDGES } from "./alignableJudges";

/**
 * The judge an alignment makes: a judge of its own, named after the original and the alignment's version
 * ("correctness_aligned_v2"), never a change to the original. A built-in judge's aligned version is a
 * custom judge based on it (its prompt, its row requirements); a custom judge's is a copy with the
 * alignment; a G-Eval judge's is a G-Eval judge with the alignment. Stored whole with the alignment, so a
 * run with it needs nothing else (not the run it was aligned on, which may be deleted).
 */
export type OriginalJudge =
  | { kind: "built-in"; metric: string }
  | { kind: "custom"; judge: CustomJudgeDefinition }
  | { kind: "g_eval"; judge: GEvalDefinition };

/** An aligned judge as a run takes it, checked with the run config's rules (the store reads back its shape alone). */
export const alignedDefinitionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("custom"), judge: customJudgeSchema }),
  z.strictObject({ type: z.literal("g_eval"), judge: gEvalDefinitionSchema }),
]) satisfies z.ZodType<AlignedDefinition>;

/** Names are lower-case words of at most 63 characters (a custom judge's assessment_name); the suffix is kept whole. */
export function alignedJudgeName(original: OriginalJudge, version: number): string {
  const suffix = `_aligned_v${version}`;
  const base =
    original.kind === "built-in"
      ? (original.metric.split("/").pop() ?? "judge")
      : original.kind === "custom"
        ? original.judge.assessmentName
        : original.judge.name;
  return `${base.slice(0, 63 - suffix.length)}${suffix}`;
}

/** The metric the original judge reports under: what its labels and the agreement panel name it. */
export function originalMetricName(original: OriginalJudge): string {
  if (original.kind === "built-in") return original.metric;
  return original.kind === "custom" ? customMetricName(original.judge) : gEvalMetricName(original.judge);
}

/** What the judge checks, in words: the guidance draft reads it, and an aligned built-in judge's description. */
export function originalInstructions(original: OriginalJudge): string {
  if (original.kind === "custom") return original.judge.instructions;
  if (original.kind === "g_eval")
    return [original.judge.criteria, ...(original.judge.evaluationSteps ?? [])].filter(Boolean).join("\n");
  return `The built-in ${original.metric} judge of Databricks Agent Evaluation.`;
}

export function buildAlignedDefinition(
  original: OriginalJudge,
  version: number,
  alignment: Alignment,
): AlignedDefinition {
  const name = alignedJudgeName(original, version);
  const taught = { examples: [...alignment.examples], guidance: alignment.guidance };
  const examples = `${alignment.examples.length} labelled example${alignment.examples.length === 1 ? "" : "s"}`;
  if (original.kind === "g_eval") return { type: "g_eval", judge: { ...original.judge, name, alignment: taught } };
  if (original.kind === "custom")
    return {
      type: "custom",
      judge: {
        assessmentName: name,
        assessmentType: original.judge.assessmentType,
        instructions: original.judge.instructions,
        alignment: taught,
      },
    };
  return {
    type: "custom",
    judge: {
      assessmentName: name,
      assessmentType: ALIGNABLE_BUILT_IN_JUDGES[original.metric] ?? "ANSWER",
      instructions: `${originalInstructions(original)} Aligned with ${examples}${alignment.guidance ? " and guidance" : ""} (version ${version}).`,
      alignment: taught,
      basedOn: original.metric,
    },
  };
}

/** The metric an aligned judge reports under in the runs that use it. */
export function alignedMetricName(definition: AlignedDefinition): string {
  return definition.type === "custom" ? customMetricName(definition.judge) : gEvalMetricName(definition.judge);
}
