import { createHash } from "node:crypto";
import { z } from "zod";
import type { ChatTurn } from "@/lib/llm/types";
import { FENCE_RULE } from "../prompts/fence";
import type { Alignment } from "@/lib/contract/alignment";
import { ALIGNED_EXAMPLES_RULE, alignmentHash, examplesSection } from "../prompts/alignedTemplate";
import {
  actualOutputSection,
  expectedOutputSection,
  idealContextSection,
  retrievalContextSection,
} from "../prompts/scoreMetrics/shared";
import { conversationSection } from "../prompts/sections";
import type { JudgeInput } from "../types";
import { rangeText, sortRubric, type EvaluationParam, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { PARAM_LABELS, scoreRange } from "./scale";
import { expectedToolsSection, metadataSection, tagsSection, toolsCalledSection } from "./testCaseSections";

/**
 * G-Eval's two prompts as versioned data: the chain-of-thought
 * prompt that turns criteria into evaluation steps (once per criteria and
 * model; none when the author wrote the steps), and the form-filling prompt
 * that scores one row by those steps. The criteria, steps and rubric are
 * trusted text from the judge's author, so they go in the system prompt; the
 * row's content stays fenced. Bump a version whenever its prompt or schema
 * changes: both are part of the cache keys.
 */
export const STEPS_VERSION = "g_eval.steps/v1";
/** v3: the reason before the score (so the score follows the reasoning, as DeepEval asks), any range, a rubric. */
export const SCORE_VERSION = "g_eval.score/v3";
/** DeepEval's strict mode: 1 only when the steps are followed in full, else 0; no weighting. */
export const STRICT_SCORE_VERSION = "g_eval.strict_score/v1";
/** DeepEval-exact's score prompt: as DeepEval's, the steps, rubric and test case without the criteria. */
export const EXACT_SCORE_SUFFIX = "+deepeval_exact/v1";

const MAX_STEPS = 8;
export const stepsAnswerSchema = z.strictObject({
  steps: z.array(z.string().min(1).max(500)).min(1).max(MAX_STEPS),
});
export type StepsAnswer = z.infer<typeof stepsAnswerSchema>;

const reason = z.string().min(1).max(2000);
const schemasByRange = new Map<string, z.ZodType<ScoreAnswer>>();
/**
 * The reason comes first: the model writes its reasoning, then a score that follows from it. The
 * weighting still reads the probabilities at the score's own token (the answer's last field).
 * Memoised by range: the LLM client caches a schema's JSON form by identity.
 */
export function scoreAnswerSchema(range: { min: number; max: number }): z.ZodType<ScoreAnswer> {
  const key = `${range.min}-${range.max}`;
  let schema = schemasByRange.get(key);
  if (!schema)
    schemasByRange.set(
      key,
      (schema = z.strictObject({ reason, score: z.number().int().min(range.min).max(range.max) })),
    );
  return schema;
}
export type ScoreAnswer = { reason: string; score: number };
/** A cached answer of any range; the range is checked against the definition where it is read. */
export const anyScoreAnswerSchema = z.strictObject({ reason, score: z.number().int() });

const paramList = (definition: GEvalDefinition) =>
  definition.evaluationParams.map((param) => PARAM_LABELS[param]).join(", ");

export function stepsPrompt(definition: GEvalDefinition): ChatTurn[] {
  return [
    {
      role: "system",
      content: [
        "You write evaluation steps for a grader of an AI application's outputs.",
        `Given the evaluation criteria below, which say how to judge the ${paramList(definition)}, write 3 or 4 concise evaluation steps.`,
        `Make clear how the ${paramList(definition)} are to be judged in relation to one another.`,
        'Answer with JSON only: {"steps": ["...", "..."]}.',
      ].join("\n"),
    },
    { role: "user", content: `Evaluation criteria:\n${definition.criteria ?? ""}` },
  ];
}

const SECTION: Record<EvaluationParam, (input: JudgeInput) => string> = {
  input: conversationSection,
  actual_output: actualOutputSection,
  expected_output: expectedOutputSection,
  retrieval_context: retrievalContextSection,
  context: idealContextSection,
  metadata: metadataSection,
  tags: tagsSection,
  expected_tools: expectedToolsSection,
  tools_called: toolsCalledSection,
};

function scoreInstruction(definition: GEvalDefinition, strict: boolean): string {
  if (strict)
    return "Give a score of 1 when the evaluation steps are followed in full, or 0 when they are not: nothing in between.";
  const { min, max } = scoreRange(definition);
  if (definition.rubric)
    return `Give an integer score from ${min} to ${max}, the one whose rubric outcome best describes what you found.`;
  return `Give an integer score from ${min} to ${max}: ${max} when the criteria are fully met, ${min} when they are not met at all.`;
}

export function scorePrompt(
  definition: GEvalDefinition,
  steps: string[],
  input: JudgeInput,
  options: { strict?: boolean; withoutCriteria?: boolean } = {},
): ChatTurn[] {
  const strict = options.strict === true;
  // DeepEval's score prompt shows the steps, not the criteria they were written from.
  const criteria = options.withoutCriteria ? undefined : definition.criteria;
  const { min, max } = strict ? { min: 0, max: 1 } : scoreRange(definition);
  const rubric = !strict && definition.rubric ? sortRubric(definition.rubric) : null;
  return [
    {
      role: "system",
      content: [
        `You are an evaluator. Grade the ${paramList(definition)} below ${criteria ? "against the criteria, " : ""}following the evaluation steps.`,
        ...(criteria ? [`Evaluation criteria:\n${criteria}`] : []),
        `Evaluation steps:\n${steps.map((step, i) => `${i + 1}. ${step}`).join("\n")}`,
        ...(rubric
          ? [`Rubric:\n${rubric.map((entry) => `${rangeText(entry)}: ${entry.expectedOutcome}`).join("\n")}`]
          : []),
        scoreInstruction(definition, strict),
        ...(definition.alignment ? alignedRules(definition, definition.alignment, { min, max }) : []),
        FENCE_RULE,
        `Answer with JSON only, the reason first and then the score that follows from it: {"reason": "<one short paragraph citing the steps; do not quote the score>", "score": ${min}-${max}}.`,
      ].join("\n\n"),
    },
    {
      role: "user",
      content: [
        ...(definition.alignment ? [examplesSection(definition.alignment), "The content to judge:"] : []),
        definition.evaluationParams.map((param) => SECTION[param](input)).join("\n\n"),
      ].join("\n\n"),
    },
  ];
}

/**
 * An aligned G-Eval judge's additions to its system prompt: the guidance the user accepted, and what the
 * examples' yes and no mean for a scored judge (at or above its pass mark, or below it).
 */
function alignedRules(
  definition: GEvalDefinition,
  alignment: Alignment,
  range: { min: number; max: number },
): string[] {
  const passMark = range.min + definition.threshold * (range.max - range.min);
  return [
    ...(alignment.guidance ? [`Guidance from the people who labelled this judge's rows:\n${alignment.guidance}`] : []),
    `${ALIGNED_EXAMPLES_RULE} A person's yes means the content meets the criteria at the pass mark (a score of ${Number(passMark.toFixed(2))} or more from ${range.min} to ${range.max}), no that it falls short of it.`,
  ];
}

/** The version suffix an aligned definition adds to its score prompt's version; "" for one not aligned. */
export function alignedSuffix(definition: GEvalDefinition): string {
  return definition.alignment ? `+aligned/${alignmentHash(definition.alignment)}` : "";
}

/** sha256 over a version and the exact messages: the prompt hash every result stores. */
export function hashPrompt(version: string, messages: ChatTurn[]): string {
  return createHash("sha256").update(version).update("\u0000").update(JSON.stringify(messages)).digest("hex");
}

/** The steps' own hash: part of every G-Eval result's provenance, so a score names the exact steps it was graded by. */
export function hashSteps(steps: string[]): string {
  return createHash("sha256").update(JSON.stringify(steps)).digest("hex");
}
