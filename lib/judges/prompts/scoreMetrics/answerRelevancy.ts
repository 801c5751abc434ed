import { z } from "zod";
import { answerRelevancyScore } from "@/lib/metrics/qag/formulas";
import type { PromptTemplate } from "../promptTemplate";
import { conversationSection } from "../sections";
import { actualOutputSection, overallReason, retrievalContextSection, scoreVerdict, triVerdict } from "./shared";
import { scoreMetricSystem, triTally, verdictGroup, verdictItems } from "./scoreMetricParts";

/**
 * DeepEval's answer relevancy in one call: the statements of the actual
 * output, each judged relevant to the input or not, with the retrieval context
 * considered (it can make a seemingly off-topic statement relevant), and the
 * reason. Score = relevant (yes + idk) / statements.
 */
export const answerRelevancyAnswerSchema = z.strictObject({
  statements: verdictItems("statement", triVerdict),
  reason: overallReason,
});
export type AnswerRelevancyAnswer = z.infer<typeof answerRelevancyAnswerSchema>;

export const answerRelevancy: PromptTemplate<AnswerRelevancyAnswer> = {
  version: "deepeval.answer_relevancy/v2",
  schemaName: "answer_relevancy_statements",
  schema: () => answerRelevancyAnswerSchema,
  system: scoreMetricSystem(
    [
      "You measure how relevant an AI assistant's actual output is to the input (the user's request; in a conversation, its last user turn in context).",
      "1. Break the actual output into its statements (one idea each; greetings and filler are statements too).",
      '2. For each statement: "yes" when it helps address the input; "no" when it is irrelevant to the input; "idk" when it is ambiguous or supporting information that is neither clearly relevant nor irrelevant.',
      "   The retrieval context, when given, shows what the assistant knew: a statement it makes relevant is relevant. Do not judge correctness.",
      "3. Give a short overall reason that names the irrelevant statements, if any.",
    ],
    '{"statements": [{"statement": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "reason": "..."}',
  ),
  render: (input) =>
    [
      conversationSection(input),
      ...(input.retrievedContext.length > 0 ? [retrievalContextSection(input)] : []),
      actualOutputSection(input),
    ].join("\n\n"),
  toVerdict: (answer) => {
    const verdicts = answer.statements.map((s) => s.verdict);
    return scoreVerdict(
      answerRelevancyScore(verdicts),
      answer.reason,
      [verdictGroup("Statements", answer.statements, "statement")],
      { statements: verdicts.length, ...triTally(verdicts) },
    );
  },
};
