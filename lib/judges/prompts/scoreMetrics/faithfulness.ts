import type { z } from "zod";
import { faithfulnessScore } from "@/lib/metrics/qag/formulas";
import type { ScoreMetricSettings } from "../../judgeBackend";
import type { PromptTemplate } from "../promptTemplate";
import { conversationSection } from "../sections";
import {
  actualOutputSection,
  listCapNotes,
  memoByKey,
  promptOptionsOf,
  retrievalContextSection,
  scoreVerdict,
  triVerdict,
  type PromptOptions,
} from "./shared";
import { deepEvalSystem, triTally, verdictGroup, verdictItems, withOverallReason } from "./scoreMetricParts";

/**
 * DeepEval's faithfulness in one call: the claims of the actual output, each
 * checked against the retrieval context (yes / no / idk), and the reason.
 * DeepEval spends three or four calls (truths, claims, verdicts, reason); the
 * verdicts and the formula are the same. Score = (yes + idk) / claims, or
 * yes / claims with penalize_ambiguous_claims.
 */
export const faithfulnessAnswerSchema = memoByKey((options: PromptOptions) =>
  withOverallReason({ claims: verdictItems("claim", triVerdict, options.listCap) }, options),
);
export type FaithfulnessAnswer = z.infer<ReturnType<typeof faithfulnessAnswerSchema>> & { reason?: string };

export const faithfulness: PromptTemplate<FaithfulnessAnswer, ScoreMetricSettings | undefined> = {
  version: "deepeval.faithfulness/v2",
  schemaName: "faithfulness_claims",
  schema: (_input, settings) => faithfulnessAnswerSchema(promptOptionsOf(settings)),
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You measure the faithfulness of an AI assistant's actual output to the retrieval context it was given.",
        "1. Extract every factual claim the actual output makes (no greetings, no restated question, no opinions). Keep each claim self-contained.",
        "2. For each claim decide whether the retrieval context, taken as a whole, agrees with it:",
        '   "yes" when the context supports the claim; "no" only when the context directly contradicts it; "idk" when the context says nothing either way.',
        "   Judge only against the retrieval context, never against your own knowledge.",
      ],
      reasonLine: "3. Give a short overall reason that names the contradicted claims, if any.",
      shape: '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}]',
    }),
  render: (input) =>
    [conversationSection(input), retrievalContextSection(input), actualOutputSection(input)].join("\n\n"),
  toVerdict: (answer, _input, settings) => {
    const verdicts = answer.claims.map((c) => c.verdict);
    const penalizeAmbiguousClaims = settings?.deepEval?.penalizeAmbiguousClaims === true;
    return scoreVerdict(
      faithfulnessScore(verdicts, { penalizeAmbiguousClaims }),
      answer.reason,
      [verdictGroup("Claims", answer.claims, "claim")],
      { claims: verdicts.length, ...triTally(verdicts) },
      [
        ...listCapNotes(promptOptionsOf(settings).listCap, { claims: verdicts.length }),
        ...(penalizeAmbiguousClaims
          ? ["Ambiguous (idk) claims count against the score (penalize_ambiguous_claims)."]
          : []),
      ],
    );
  },
};
