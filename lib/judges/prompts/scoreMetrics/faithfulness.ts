import { z } from "zod";
import { faithfulnessScore } from "@/lib/metrics/qag/formulas";
import type { PromptTemplate } from "../promptTemplate";
import { conversationSection } from "../sections";
import { actualOutputSection, overallReason, retrievalContextSection, scoreVerdict, triVerdict } from "./shared";
import { scoreMetricSystem, triTally, verdictGroup, verdictItems } from "./scoreMetricParts";

/**
 * DeepEval's faithfulness in one call: the claims of the actual output, each
 * checked against the retrieval context (yes / no / idk), and the reason.
 * DeepEval spends three or four calls (truths, claims, verdicts, reason); the
 * verdicts and the formula are the same. Score = (yes + idk) / claims.
 */
export const faithfulnessAnswerSchema = z.strictObject({
  claims: verdictItems("claim", triVerdict),
  reason: overallReason,
});
export type FaithfulnessAnswer = z.infer<typeof faithfulnessAnswerSchema>;

export const faithfulness: PromptTemplate<FaithfulnessAnswer> = {
  version: "deepeval.faithfulness/v2",
  schemaName: "faithfulness_claims",
  schema: () => faithfulnessAnswerSchema,
  system: scoreMetricSystem(
    [
      "You measure the faithfulness of an AI assistant's actual output to the retrieval context it was given.",
      "1. Extract every factual claim the actual output makes (no greetings, no restated question, no opinions). Keep each claim self-contained.",
      "2. For each claim decide whether the retrieval context, taken as a whole, agrees with it:",
      '   "yes" when the context supports the claim; "no" only when the context directly contradicts it; "idk" when the context says nothing either way.',
      "   Judge only against the retrieval context, never against your own knowledge.",
      "3. Give a short overall reason that names the contradicted claims, if any.",
    ],
    '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "reason": "..."}',
  ),
  render: (input) =>
    [conversationSection(input), retrievalContextSection(input), actualOutputSection(input)].join("\n\n"),
  toVerdict: (answer) => {
    const verdicts = answer.claims.map((c) => c.verdict);
    return scoreVerdict(faithfulnessScore(verdicts), answer.reason, [verdictGroup("Claims", answer.claims, "claim")], {
      claims: verdicts.length,
      ...triTally(verdicts),
    });
  },
};
