import { z } from "zod";
import { summarizationScores } from "@/lib/metrics/qag/formulas";
import { fence } from "../fence";
import type { PromptTemplate } from "../promptTemplate";
import { actualOutputSection, detailItem, itemText, LIMITS, overallReason, scoreVerdict, triVerdict } from "./shared";
import { scoreMetricSystem, triTally, verdictGroup, verdictItems } from "./scoreMetricParts";

/**
 * DeepEval's summarization in one call (DeepEval: truths, claims, alignment
 * verdicts, questions, two sets of answers, reason). The input is the source
 * text and the actual output its summary.
 * Alignment: each claim of the summary against the source, "yes" supported,
 * "no" contradicted, "idk" not in the source (an invention). Coverage:
 * closed yes/no questions about the source's key information, each answered
 * once from the source alone and once from the summary alone.
 * Score = min(alignment, coverage); see lib/metrics/qag/formulas.ts.
 */
export const QUESTION_COUNT = 5;

export const summarizationAnswerSchema = z.strictObject({
  claims: verdictItems("claim", triVerdict),
  questions: z
    .array(z.strictObject({ question: itemText, source_answer: triVerdict, summary_answer: triVerdict }))
    .max(LIMITS.items),
  reason: overallReason,
});
export type SummarizationAnswer = z.infer<typeof summarizationAnswerSchema>;

export const summarization: PromptTemplate<SummarizationAnswer> = {
  version: "deepeval.summarization/v1",
  schemaName: "summarization_claims_questions",
  schema: () => summarizationAnswerSchema,
  system: scoreMetricSystem(
    [
      "You grade a summary (the actual output) of a source text (the input).",
      "Alignment:",
      '1. Extract every claim the summary makes. For each: "yes" when the source supports it, "no" when the source contradicts it, "idk" when the source does not contain it (added or invented information).',
      "Coverage:",
      `2. Write ${QUESTION_COUNT} closed yes/no questions about the most important information of the source, each one the source answers "yes".`,
      '3. Answer each question twice, "yes", "no" or "idk": source_answer using only the source, summary_answer using only the summary, as if you had never seen the source. Information that is only in the source gives "idk" for the summary.',
      "4. Give a short overall reason: contradictions, inventions, and the key information the summary misses.",
    ],
    '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "questions": [{"question": "...", "source_answer": "yes" | "no" | "idk", "summary_answer": "yes" | "no" | "idk"}], "reason": "..."}',
  ),
  render: (input) => [fence("source_text", input.request), actualOutputSection(input)].join("\n\n"),
  toVerdict: (answer) => {
    const alignmentVerdicts = answer.claims.map((c) => c.verdict);
    const coverage = answer.questions.map((q) => ({ source: q.source_answer, summary: q.summary_answer }));
    const scores = summarizationScores(alignmentVerdicts, coverage);
    return scoreVerdict(
      scores.score,
      answer.reason,
      [
        verdictGroup("Claims", answer.claims, "claim"),
        {
          title: "Coverage questions",
          items: answer.questions.map((q) =>
            detailItem(q.question, q.summary_answer, null, [
              `source: ${q.source_answer}`,
              `summary: ${q.summary_answer}`,
            ]),
          ),
        },
      ],
      {
        alignment: scores.alignment,
        coverage: scores.coverage,
        claims: alignmentVerdicts.length,
        ...triTally(alignmentVerdicts),
        questions: coverage.length,
      },
    );
  },
};
