import type { z } from "zod";
import { hallucinationScore } from "@/lib/metrics/qag/formulas";
import type { ScoreMetricSettings } from "../../judgeBackend";
import type { PromptTemplate } from "../promptTemplate";
import { conversationSection } from "../sections";
import {
  actualOutputSection,
  binaryVerdict,
  detailItem,
  idealContextSection,
  indexedItems,
  itemReason,
  memoByKey,
  promptOptionsOf,
  scoreVerdict,
  type PromptOptions,
} from "./shared";
import { deepEvalSystem, withOverallReason } from "./scoreMetricParts";

/**
 * DeepEval's hallucination in one call: per item of the ideal context
 * (DeepEval's `context`, here the row's expected retrieved context), does the
 * actual output agree with it ("yes") or contradict it ("no"); and the reason.
 * Missing detail is not a contradiction. Score = contradicted / items; lower is better.
 */
export const hallucinationAnswerSchema = memoByKey((count: number, options: PromptOptions) =>
  withOverallReason(
    { verdicts: indexedItems("context_index", count, { verdict: binaryVerdict, reason: itemReason }) },
    options,
  ),
);
export type HallucinationAnswer = z.infer<ReturnType<typeof hallucinationAnswerSchema>>;

const contextCount = (input: { expectedContext?: string[] }) => input.expectedContext?.length ?? 0;

export const hallucination: PromptTemplate<HallucinationAnswer, ScoreMetricSettings | undefined> = {
  version: "deepeval.hallucination/v2",
  schemaName: "hallucination_context_items",
  schema: (input, settings) => hallucinationAnswerSchema(contextCount(input), promptOptionsOf(settings)),
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You check an AI assistant's actual output against the ideal context: trusted reference passages for this input.",
        'For each context item, in order: "no" when the actual output contradicts something the item states; otherwise "yes" (it agrees, or does not touch the item).',
        "Leaving out information is not a contradiction; only a conflicting statement is. Judge against the items only, never against your own knowledge.",
      ],
      reasonLine: "Then give a short overall reason that names the contradictions, if any.",
      shape:
        '{"verdicts": [{"context_index": 1, "verdict": "yes" | "no", "reason": "..."}, ...one per context item, in order]',
    }),
  render: (input) => [conversationSection(input), idealContextSection(input), actualOutputSection(input)].join("\n\n"),
  toVerdict: (answer, input) => {
    const verdicts = answer.verdicts.map((v) => v.verdict);
    const items = input.expectedContext ?? [];
    return scoreVerdict(
      hallucinationScore(verdicts),
      answer.reason,
      [
        {
          title: "Ideal context items",
          items: answer.verdicts.map((v, i) =>
            detailItem(items[i] ?? "", v.verdict, v.reason, [v.verdict === "no" ? "contradicted" : "not contradicted"]),
          ),
        },
      ],
      { items: verdicts.length, contradicted: verdicts.filter((v) => v === "no").length },
    );
  },
};
