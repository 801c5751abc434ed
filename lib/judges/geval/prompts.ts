import { createHash } from "node:crypto";
import { z } from "zod";
import type { ChatTurn } from "@/lib/llm/types";
import { FENCE_RULE } from "../prompts/fence";
import {
  actualOutputSection,
  expectedOutputSection,
  idealContextSection,
  retrievalContextSection,
} from "../prompts/scoreMetrics/shared";
import { conversationSection } from "../prompts/sections";
import type { JudgeInput } from "../types";
import { PARAM_LABELS, SCORE_MAX, SCORE_MIN, type EvaluationParam, type GEvalDefinition } from "./definition";

/**
 * G-Eval's two prompts as versioned data: the chain-of-thought
 * prompt that turns criteria into evaluation steps (once per criteria and
 * model), and the form-filling prompt that scores one row by those steps.
 * The criteria are trusted text from the judge's author, so they go in the
 * system prompt; the row's content stays fenced. Bump a version whenever its
 * prompt or schema changes: both are part of the cache keys.
 */
export const STEPS_VERSION = "g_eval.steps/v1";
export const SCORE_VERSION = "g_eval.score/v2";

const MAX_STEPS = 8;
export const stepsAnswerSchema = z.strictObject({
  steps: z.array(z.string().min(1).max(500)).min(1).max(MAX_STEPS),
});
export type StepsAnswer = z.infer<typeof stepsAnswerSchema>;

/** Score first: the weighting reads the probabilities at the score token, before any reason can sway it. */
export const scoreAnswerSchema = z.strictObject({
  score: z.number().int().min(SCORE_MIN).max(SCORE_MAX),
  reason: z.string().min(1).max(2000),
});
export type ScoreAnswer = z.infer<typeof scoreAnswerSchema>;

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
    { role: "user", content: `Evaluation criteria:\n${definition.criteria}` },
  ];
}

const SECTION: Record<EvaluationParam, (input: JudgeInput) => string> = {
  input: conversationSection,
  actual_output: actualOutputSection,
  expected_output: expectedOutputSection,
  retrieval_context: retrievalContextSection,
  context: idealContextSection,
};

export function scorePrompt(definition: GEvalDefinition, steps: string[], input: JudgeInput): ChatTurn[] {
  return [
    {
      role: "system",
      content: [
        `You are an evaluator. Grade the ${paramList(definition)} below against the criteria, following the evaluation steps.`,
        `Evaluation criteria:\n${definition.criteria}`,
        `Evaluation steps:\n${steps.map((step, i) => `${i + 1}. ${step}`).join("\n")}`,
        `Give a score from ${SCORE_MIN} to ${SCORE_MAX}: ${SCORE_MAX} when the criteria are fully met, ${SCORE_MIN} when they are not met at all.`,
        FENCE_RULE,
        `Answer with JSON only, the score first: {"score": ${SCORE_MIN}-${SCORE_MAX}, "reason": "<one short paragraph citing the steps>"}.`,
      ].join("\n\n"),
    },
    { role: "user", content: definition.evaluationParams.map((param) => SECTION[param](input)).join("\n\n") },
  ];
}

/** sha256 over a version and the exact messages: the prompt hash every result stores. */
export function hashPrompt(version: string, messages: ChatTurn[]): string {
  return createHash("sha256").update(version).update("\u0000").update(JSON.stringify(messages)).digest("hex");
}

/** The steps' own hash: part of every G-Eval result's provenance, so a score names the exact steps it was graded by. */
export function hashSteps(steps: string[]): string {
  return createHash("sha256").update(JSON.stringify(steps)).digest("hex");
}
