import { z } from "zod";
import { fence, FENCE_RULE } from "../prompts/fence";
import type { PromptCall } from "../prompts/promptTemplate";
import { overallReason } from "../prompts/scoreMetrics/shared";

/**
 * DeepEval's last call of most metrics: given the score and what lowered (or raised) it, say why in a
 * sentence or two. Made only when the run asks for a reason (include_reason). The points are the
 * verdicts' own reasons, written by the model from judged content, so they are fenced.
 */
export type ReasonContext = {
  metric: string;
  score: number;
  lowerIsBetter: boolean;
  heading: string;
  points: string[];
};

const reasonSchema = z.strictObject({ reason: overallReason });

export const reasonStep: PromptCall<{ reason: string }, ReasonContext> = {
  version: "deepeval_calls.reason/v1",
  schemaName: "deepeval_reason",
  schema: () => reasonSchema,
  system: (context) =>
    [
      `You explain a ${context.metric} score from 0 to 1 (${context.lowerIsBetter ? "lower" : "higher"} is better) in one or two concise sentences, quoting what lowered or raised it.`,
      "When nothing is listed, say briefly what went well.",
      FENCE_RULE,
      'Answer with JSON only: {"reason": "..."}',
    ].join("\n"),
  render: (_input, context) =>
    [
      `Score: ${context.score.toFixed(2)}`,
      `${context.heading}:`,
      context.points.length > 0
        ? context.points.map((point, i) => fence("point", point, { index: i + 1 })).join("\n\n")
        : "(none)",
    ].join("\n\n"),
};
