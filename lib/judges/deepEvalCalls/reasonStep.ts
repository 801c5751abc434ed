import { z } from "zod";
import { fence, FENCE_RULE } from "../prompts/fence";
import type { PromptCall } from "../prompts/promptTemplate";
import { overallReason } from "../prompts/scoreMetrics/shared";

/**
 * DeepEval's last call of most metrics: given the score and what lowered (or raised) it, say why in a
 * sentence or two. Made only when the run asks for a reason (include_reason). The points are the
 * verdicts' own reasons, written by the model from judged content, so they are fenced. Where DeepEval's
 * reason template also takes the test case's input or expected output (`given`), or the verdicts that
 * raised the score beside those that lowered it (`besides`: contextual recall's supportive reasons,
 * contextual relevancy's relevant statements, hallucination's factual alignments), so does this one.
 */
export type ReasonContext = {
  metric: string;
  score: number;
  lowerIsBetter: boolean;
  heading: string;
  points: string[];
  given?: { heading: string; fenceName: string; text: string }[];
  besides?: { heading: string; points: string[] };
};

const pointList = (points: readonly string[]) =>
  points.length > 0 ? points.map((point, i) => fence("point", point, { index: i + 1 })).join("\n\n") : "(none)";

const reasonSchema = z.strictObject({ reason: overallReason });

export const reasonStep: PromptCall<{ reason: string }, ReasonContext> = {
  version: "deepeval_calls.reason/v2",
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
      ...(context.given ?? []).flatMap((given) => [`${given.heading}:`, fence(given.fenceName, given.text)]),
      `${context.heading}:`,
      pointList(context.points),
      ...(context.besides ? [`${context.besides.heading}:`, pointList(context.besides.points)] : []),
    ].join("\n\n"),
};
