import type { z } from "zod";
import { answerRelevancyScore } from "@/lib/metrics/qag/formulas";
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
 * DeepEval's answer relevancy in one call: the statements of the actual
 * output, each judged relevant to the input or not, with the retrieval context
 * considered (it can make a seemingly off-topic statement relevant), and the
 * reason. Score = relevant (yes + idk) / statements.
 */
export const answerRelevancyAnswerSchema = memoByKey((options: PromptOptions) =>
  withOverallReason({ statements: verdictItems("statement", triVerdict, options.listCap) }, options),
);
export type AnswerRelevancyAnswer = z.infer<ReturnType<typeof answerRelevancyAnswerSchema>> & { reason?: string };

export const answerRelevancy: PromptTemplate<AnswerRelevancyAnswer, ScoreMetricSettings | undefined> = {
  version: "deepeval.answer_relevancy/v2",
  schemaName: "answer_relevancy_statements",
  schema: (_input, settings) => answerRelevancyAnswerSchema(promptOptionsOf(settings)),
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You measure how relevant an AI assistant's actual output is to the input (the user's request; in a conversation, its last user turn in context).",
        "1. Break the actual output into its statements (one idea each; greetings and filler are statements too).",
        '2. For each statement: "yes" when it helps address the input; "no" when it is irrelevant to the input; "idk" when it is ambiguous or supporting information that is neither clearly relevant nor irrelevant.',
        "   The retrieval context, when given, shows what the assistant knew: a statement it makes relevant is relevant. Do not judge correctness.",
      ],
      reasonLine: "3. Give a short overall reason that names the irrelevant statements, if any.",
      shape: '{"statements": [{"statement": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}]',
    }),
  render: (input) =>
    [
      conversationSection(input),
      ...(input.retrievedContext.length > 0 ? [retrievalContextSection(input)] : []),
      actualOutputSection(input),
    ].join("\n\n"),
  toVerdict: (answer, _input, settings) => {
    const verdicts = answer.statements.map((s) => s.verdict);
    return scoreVerdict(
      answerRelevancyScore(verdicts),
      answer.reason,
      [verdictGroup("Statements", answer.statements, "statement")],
      { statements: verdicts.length, ...triTally(verdicts) },
      listCapNotes(promptOptionsOf(settings).listCap, { statements: verdicts.length }),
    );
  },
};
