import { z } from "zod";
import { alignmentSchema, type Alignment } from "./alignment";
import { gEvalDefinitionSchema } from "./gEvalDefinition";

/** A run's custom judge, as the judges take it and the store keeps it (CustomJudge). */
export type CustomJudgeDefinition = {
  assessmentName: string;
  assessmentType: "ANSWER" | "RETRIEVAL";
  instructions: string;
  /** An adopted alignment: labelled examples and guidance added to the judge's prompt. */
  alignment?: Alignment;
  /**
   * An aligned built-in judge: the built-in yes/no metric whose prompt (and row requirements) it uses, with its
   * alignment added; `instructions` then only describe it.
   */
  basedOn?: string;
};

/** The Agent Evaluation name a custom judge reports under: response/llm_judged/<name>, or retrieval/… for RETRIEVAL. */
export function customMetricName(judge: { assessmentName: string; assessmentType: "ANSWER" | "RETRIEVAL" }): string {
  return `${judge.assessmentType === "ANSWER" ? "response" : "retrieval"}/llm_judged/${judge.assessmentName}`;
}

/**
 * A custom judge's shape as stored: what the store checks when it reads one back. The rules a new judge must
 * follow (a name no built-in judge has, a `basedOn` that names an alignable judge) are the run config's
 * (lib/engine/runConfig.ts `customJudgeSchema`), checked where a judge enters.
 */
export const storedCustomJudgeSchema = z.object({
  assessmentName: z.string(),
  assessmentType: z.enum(["ANSWER", "RETRIEVAL"]),
  instructions: z.string(),
  alignment: alignmentSchema.optional(),
  basedOn: z.string().optional(),
});

/**
 * The judge an alignment made, stored whole with it (JudgeAlignment.definition): a custom judge, or a G-Eval
 * judge. lib/alignment/alignedDefinition.ts builds it and checks it with the run config's rules.
 */
export const storedAlignedDefinitionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("custom"), judge: storedCustomJudgeSchema }),
  z.strictObject({ type: z.literal("g_eval"), judge: gEvalDefinitionSchema }),
]);
export type AlignedDefinition = z.output<typeof storedAlignedDefinitionSchema>;
