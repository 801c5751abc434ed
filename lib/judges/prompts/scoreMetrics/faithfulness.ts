import { z } from "zod";
import { faithfulnessScore } from "@/lib/metrics/qag/formulas";
import { FENCE_RULE } from "../fence";
import type { PromptTemplate } from "../promptTemplate";
import { conversationSection } from "../sections";
import {
  actualOutputSection,
  detailItem,
  itemReason,
  itemText,
  JSON_ONLY,
  LIMITS,
  overallReason,
  retrievalContextSection,
  scoreVerdict,
  tally,
  triVerdict,
} from "./shared";

/**
 * DeepEval's faithfulness in one call: the claims of the actual output, each
 * checked against the retrieval context (yes / no / idk), and the reason.
 * DeepEval spends three or four calls (truths, claims, verdicts, reason); the
 * verdicts and the formula are the same. Score = (yes + idk) / claims.
 */
export const faithfulnessAnswerSchema = z.strictObject({
  claims: z.array(z.strictObject({ claim: itemText, verdict: triVerdict, reason: itemReason })).max(LIMITS.items),
  reason: overallReason,
});
export type FaithfulnessAnswer = z.infer<typeof faithfulnessAnswerSchema>;

export const faithfulness: PromptTemplate<FaithfulnessAnswer> = {
  version: "deepeval.faithfulness/v1",
  schemaName: "faithfulness_claims",
  schema: () => faithfulnessAnswerSchema,
  system: [
    "You measure the faithfulness of an AI assistant's actual output to the retrieval context it was given.",
    "1. Extract every factual claim the actual output makes (no greetings, no restated question, no opinions). Keep each claim self-contained.",
    "2. For each claim decide whether the retrieval context, taken as a whole, agrees with it:",
    '   "yes" when the context supports the claim; "no" only when the context directly contradicts it; "idk" when the context says nothing either way.',
    "   Judge only against the retrieval context, never against your own knowledge.",
    "3. Give a short overall reason that names the contradicted claims, if any.",
    FENCE_RULE,
    JSON_ONLY,
    '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "reason": "..."}',
  ].join("\n"),
  render: (input) =>
    [conversationSection(input), retrievalContextSection(input), actualOutputSection(input)].join("\n\n"),
  toVerdict: (answer) => {
    const verdicts = answer.claims.map((c) => c.verdict);
    return scoreVerdict(
      faithfulnessScore(verdicts),
      answer.reason,
      [{ title: "Claims", items: answer.claims.map((c) => detailItem(c.claim, c.verdict, c.reason)) }],
      { claims: verdicts.length, ...tally(verdicts, ["yes", "no", "idk"]) },
    );
  },
};
